import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KubeEmulator, type KubeEmulatorOptions } from '@internal/kube-emulator';
import { startApiserver, defaultOptions, type RunningApiserver, type Options } from '@internal/databases-apiserver';
import { upstreamCrds } from './upstreamCrds';

/** The whole system on loopback: the emulator as kube-apiserver and our apiserver behind an APIService. */
/** How long a stopping apiserver waits for open requests before it cuts their connections. */
const STOP_GRACE_MS = 5_000;

export interface System {
  emulator: KubeEmulator;
  apiserver: RunningApiserver;
  /** Temp dir holding certificates and kubeconfigs; also kubectl's HOME. */
  dir: string;
  /** Admin kubeconfig (client certificate, system:masters). */
  kubeconfig: string;
  /** Writes a kubeconfig for a token user from the emulator's auth file (e.g. `alice-token`). */
  kubeconfigFor(token: string): Promise<string>;
  /** Restarts the apiserver on the same port (new process state, same cluster). */
  restartApiserver(): Promise<void>;
  /**
   * Starts a second apiserver replica (same options and credentials, its own port and state),
   * synced; `stop` stops it too. Requests reach it once `routeTo` points the APIService at it.
   */
  startReplica(): Promise<RunningApiserver>;
  /** Points the APIService at a replica's port, as a Service moving a client would. */
  routeTo(replica: RunningApiserver): Promise<void>;
  stop(): Promise<void>;
}

export interface StartSystemOptions extends KubeEmulatorOptions {
  apiserver?: Partial<Options>;
  /** Receives everything the apiserver logs (default: errors to stderr, the rest dropped). */
  apiserverLogger?: NonNullable<Parameters<typeof startApiserver>[1]>['logger'];
}

const quietLogger = {
  info: () => {},
  warn: () => {},
  error: (message: string, fields?: Record<string, unknown>) =>
    process.stderr.write(`[apiserver] ${message} ${JSON.stringify(fields ?? {})}\n`),
};

/**
 * Starts the emulator (the operators' upstream CRDs unless `crds` says otherwise, emulated
 * operators, optional demo seed) and the apiserver
 * in this process, registers the apiserver with an APIService exactly as in a cluster, and
 * resolves once the APIService is Available and the apiserver's caches have synced.
 */
export async function startSystem(options: StartSystemOptions = {}): Promise<System> {
  const dir = await mkdtemp(path.join(tmpdir(), 'dbaas-e2e-'));
  // bookmarks each second: the control plane's Leases move the cluster's RV every 2 s, and a
  // test waiting for the apiserver's cache to reach the cluster's RV learns of it from them
  const emulator = await KubeEmulator.start({ operatorStepMs: 100, bookmarkIntervalMs: 1000, ...options, crds: options.crds ?? upstreamCrds() });
  const serving = await emulator.issueExtensionServingCert('api', 'dbaas-system');
  await writeFile(path.join(dir, 'tls.crt'), serving.certPem);
  await writeFile(path.join(dir, 'tls.key'), serving.keyPem);
  const apiserverKubeconfig = path.join(dir, 'apiserver.kubeconfig');
  await emulator.writeKubeconfig(apiserverKubeconfig, { token: 'dbaas-apiserver-token' });
  const kubeconfig = path.join(dir, 'kubeconfig');
  await emulator.writeKubeconfig(kubeconfig, 'admin');

  let port = 0;
  const apiserverOptions = (): Options => ({
    ...defaultOptions(),
    securePort: port,
    bindAddress: '127.0.0.1',
    kubeconfig: apiserverKubeconfig,
    tlsCertFile: path.join(dir, 'tls.crt'),
    tlsKeyFile: path.join(dir, 'tls.key'),
    ...options.apiserver,
  });
  let apiserver = await startApiserver(apiserverOptions(), { logger: options.apiserverLogger ?? quietLogger, bookmarkIntervalMs: 1000 });
  port = apiserver.port;
  await Promise.all([apiserver.store.whenSynced(), apiserver.backups.whenSynced()]);
  await emulator.registerApiService({
    group: 'dbaas.platform.dev',
    version: 'v1alpha1',
    port,
    caPem: emulator.certs.clusterCa.certPem,
  });

  const replicas: RunningApiserver[] = [];
  const register = (to: number) =>
    emulator.registerApiService({
      group: 'dbaas.platform.dev',
      version: 'v1alpha1',
      port: to,
      caPem: emulator.certs.clusterCa.certPem,
    });
  const system: System = {
    emulator,
    get apiserver() {
      return apiserver;
    },
    dir,
    kubeconfig,
    async kubeconfigFor(token: string) {
      const file = path.join(dir, `${token}.kubeconfig`);
      await emulator.writeKubeconfig(file, { token });
      return file;
    },
    async restartApiserver() {
      await apiserver.shutdown(0, STOP_GRACE_MS);
      apiserver = await startApiserver(apiserverOptions(), { logger: options.apiserverLogger ?? quietLogger, bookmarkIntervalMs: 1000 });
      await Promise.all([apiserver.store.whenSynced(), apiserver.backups.whenSynced()]);
    },
    async startReplica() {
      const replica = await startApiserver(
        { ...apiserverOptions(), securePort: 0 },
        { logger: options.apiserverLogger ?? quietLogger, bookmarkIntervalMs: 1000 },
      );
      replicas.push(replica);
      await Promise.all([replica.store.whenSynced(), replica.backups.whenSynced()]);
      return replica;
    },
    routeTo: replica => register(replica.port),
    async stop() {
      // no delay; what a test left open is cut after a grace, as in production (main.ts)
      await Promise.all(replicas.map(r => r.shutdown(0, STOP_GRACE_MS)));
      await apiserver.shutdown(0, STOP_GRACE_MS);
      await emulator.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return system;
}
