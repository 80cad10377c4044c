/* eslint-disable no-console */
// Runs the emulator as a process for `npm start`: writes certificates and kubeconfigs into a
// state directory, registers the aggregated apiserver's APIService, seeds the demo.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { KubeEmulator } from './KubeEmulator';

async function main() {
  const { values } = parseArgs({
    options: {
      'state-dir': { type: 'string', default: '.dbaas' },
      port: { type: 'string', default: process.env.DBAAS_EMULATOR_PORT ?? '6443' },
      'apiserver-port': { type: 'string', default: process.env.DBAAS_APISERVER_PORT ?? '8443' },
      seed: { type: 'boolean', default: true },
      'no-seed': { type: 'boolean', default: false },
      'operator-step-ms': { type: 'string', default: '1500' },
    },
  });
  const stateDir = path.resolve(values['state-dir']!);
  const port = Number(values.port);
  const apiserverPort = Number(values['apiserver-port']);
  const emulator = await KubeEmulator.start({
    port,
    seed: values.seed && !values['no-seed'],
    operatorStepMs: Number(values['operator-step-ms']),
    log: (message, fields) => console.error(JSON.stringify({ level: 'warn', message, ...fields })),
  });

  const apiserverDir = path.join(stateDir, 'apiserver');
  await mkdir(apiserverDir, { recursive: true });
  const serving = await emulator.issueExtensionServingCert('api', 'dbaas-system');
  await writeFile(path.join(apiserverDir, 'tls.crt'), serving.certPem);
  await writeFile(path.join(apiserverDir, 'tls.key'), serving.keyPem, { mode: 0o600 });
  // The apiserver talks to "kube-apiserver" with its service account token, as in a cluster.
  await emulator.writeKubeconfig(path.join(apiserverDir, 'kubeconfig'), { token: 'dbaas-apiserver-token' });
  await emulator.writeKubeconfig(path.join(stateDir, 'kubeconfig'), 'admin');
  await emulator.registerApiService(
    { group: 'dbaas.platform.dev', version: 'v1alpha1', port: apiserverPort, caPem: emulator.certs.clusterCa.certPem },
    0,
  );
  // The Backstage backend's databases.clusters[].caData (DATABASES_CLUSTER_CA) is read from here.
  await writeFile(path.join(stateDir, 'ca.crt'), emulator.certs.clusterCa.certPem);
  await writeFile(
    path.join(stateDir, 'emulator.json'),
    JSON.stringify({ url: emulator.url, pid: process.pid, apiserverPort }, null, 2),
  );
  console.log(`kube-emulator listening on ${emulator.url}`);

  const stop = async () => {
    await emulator.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

main().catch(err => {
  console.error(err?.stack ?? String(err));
  process.exit(1);
});
