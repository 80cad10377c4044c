#!/usr/bin/env node
// The README's start command: installs on first use, then runs the embedded Kubernetes emulator
// (with emulated operators and demo data) and the aggregated apiserver registered behind it,
// and prints how to point kubectl at them. Ctrl-C stops everything.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import { join } from 'node:path';
import { ensureDependencies, repoRoot, runYarn, spawnYarn } from './lib/yarn.mjs';

ensureDependencies();

const stateDir = process.env.DBAAS_STATE_DIR ?? join(repoRoot, '.dbaas');
const emulatorPort = process.env.DBAAS_EMULATOR_PORT ?? '6443';
const apiserverPort = process.env.DBAAS_APISERVER_PORT ?? '8443';
const transform = ['--require', '@backstage/cli-node/config/nodeTransform.cjs'];
const children = [];
const portalPort = process.env.DBAAS_PORTAL_PORT ?? '7007';
const withPortal = !process.argv.includes('--no-portal');

function run(name, args, { env = {}, yarn = false } = {}) {
  // Each child leads its own process group, so stopping it also stops what it started
  // (yarn → backstage-cli → the backend).
  const child = yarn
    ? spawnYarn(args, { stdio: ['ignore', 'pipe', 'pipe'], env: { NODE_OPTIONS: '', ...env }, detached: true })
    : spawn(process.execPath, [...transform, ...args], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NODE_OPTIONS: '', ...env },
        detached: true,
      });
  const prefix = line => `[${name}] ${line}`;
  for (const stream of [child.stdout, child.stderr]) {
    let buf = '';
    stream.on('data', d => {
      buf += d;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        console.error(prefix(buf.slice(0, i)));
        buf = buf.slice(i + 1);
      }
    });
  }
  child.on('exit', code => {
    if (!stopping) {
      console.error(`${name} exited with code ${code}; stopping`);
      stop(1);
    }
  });
  children.push(child);
  return child;
}

let stopping = false;
/**
 * Stops the children last started first: the portal, then the apiserver, then the emulator they
 * both read from, each given a few seconds to finish, as a cluster's clients go before its
 * kube-apiserver (stopped together, the apiserver spent its graceful shutdown retrying watches of
 * an emulator already gone). A second Ctrl-C exits at once.
 */
async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  setTimeout(() => process.exit(code), 20_000).unref();
  for (const c of [...children].reverse()) {
    if (c.exitCode !== null || c.signalCode !== null) continue;
    const exited = new Promise(r => c.once('exit', r));
    try {
      process.kill(-c.pid, 'SIGTERM');
    } catch {
      continue; // already gone
    }
    await Promise.race([exited, new Promise(r => setTimeout(r, 6000).unref())]);
  }
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => (stopping ? process.exit(130) : stop(0)));

async function waitFor(what, check, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) {
      console.error(`timed out waiting for ${what}`);
      stop(1);
      return;
    }
    await new Promise(r => setTimeout(r, 500));
  }
}

function get(url, { ca, cert, key }) {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca, cert, key }, res => {
        let body = '';
        res.on('data', d => (body += d));
        res.on('end', () => resolve({ status: res.statusCode, body }));
      })
      .on('error', reject);
  });
}

rmSync(join(stateDir, 'emulator.json'), { force: true });
run('emulator', [
  'packages/kube-emulator/src/main.ts',
  '--state-dir', stateDir,
  '--port', emulatorPort,
  '--apiserver-port', apiserverPort,
]);
await waitFor('the emulator', () => existsSync(join(stateDir, 'emulator.json')));
run('apiserver', [
  'apiserver/src/main.ts',
  '--kubeconfig', join(stateDir, 'apiserver', 'kubeconfig'),
  '--tls-cert-file', join(stateDir, 'apiserver', 'tls.crt'),
  '--tls-private-key-file', join(stateDir, 'apiserver', 'tls.key'),
  '--secure-port', apiserverPort,
  '--bind-address', '127.0.0.1',
]);

// Ready when a list through the emulator's aggregation layer answers (APIService Available,
// caches synced), exactly what kubectl will do.
const { parse } = await import('yaml');
const kubeconfig = parse(readFileSync(join(stateDir, 'kubeconfig'), 'utf8'));
const b64 = s => Buffer.from(s, 'base64');
const tls = {
  ca: b64(kubeconfig.clusters[0].cluster['certificate-authority-data']),
  cert: b64(kubeconfig.users[0].user['client-certificate-data']),
  key: b64(kubeconfig.users[0].user['client-key-data']),
};
await waitFor('the aggregated apiserver', async () => {
  const r = await get(`https://127.0.0.1:${emulatorPort}/apis/dbaas.platform.dev/v1alpha1/databaseinstances`, tls);
  return r.status === 200;
});
let portalLine = '';
if (withPortal && !stopping) {
  // The Backstage backend serves the built app (app-backend); build it once (about a minute).
  if (!existsSync(join(repoRoot, 'packages', 'app', 'dist', 'index.html'))) {
    console.error('Building the Backstage app (first start only)...');
    if (runYarn(['workspace', 'app', 'build']) !== 0) {
      console.error('the app build failed; kubectl works, the portal does not');
      stop(1);
    }
  }
  const emulator = JSON.parse(readFileSync(join(stateDir, 'emulator.json'), 'utf8'));
  run('backstage', ['workspace', 'backend', 'start'], {
    yarn: true,
    env: {
      DATABASES_CLUSTER_URL: emulator.url,
      DATABASES_CLUSTER_CA: readFileSync(join(stateDir, 'ca.crt'), 'utf8'),
      APP_CONFIG_backend_listen_port: portalPort,
      APP_CONFIG_app_baseUrl: JSON.stringify(`http://localhost:${portalPort}`),
      APP_CONFIG_backend_baseUrl: JSON.stringify(`http://localhost:${portalPort}`),
      APP_CONFIG_backend_cors_origin: JSON.stringify(`http://localhost:${portalPort}`),
    },
  });
  await waitFor('the Backstage backend', async () => {
    const r = await fetch(`http://127.0.0.1:${portalPort}/.backstage/health/v1/readiness`);
    return r.ok;
  }, 300_000);
  portalLine = `
The portal (Backstage) is on http://localhost:${portalPort}: "Enter" as guest (alice of team-a).
`;
}
if (!stopping) {
  console.log(`
Everything is up: the kube-emulator on https://127.0.0.1:${emulatorPort} with emulated operators and demo
databases, and the aggregated apiserver (dbaas.platform.dev) on https://127.0.0.1:${apiserverPort} behind it.

  export KUBECONFIG=${join(stateDir, 'kubeconfig')}
  kubectl get databaseinstances -A
${portalLine}
Ctrl-C stops everything (\`npm start -- --no-portal\` runs without Backstage).`);
}
