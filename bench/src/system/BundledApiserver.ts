import { spawn } from 'node:child_process';
import path from 'node:path';
import { HttpsClient } from '../client/HttpsClient';
import { repoRoot } from './ApiserverProcess';
import { freePort } from './freePort';

/** Builds the apiserver as deployed (deploy/build-apiserver.sh: one esbuild bundle) into `dir`. */
export async function buildApiserverBundle(dir: string): Promise<string> {
  const child = spawn('bash', [path.join(repoRoot, 'deploy', 'build-apiserver.sh'), dir], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', d => (stderr += d));
  const code = await new Promise<number | null>(resolve => child.once('exit', resolve));
  if (code !== 0) throw new Error(`deploy/build-apiserver.sh failed (${code}): ${stderr}`);
  return path.join(dir, 'apiserver.cjs');
}

/**
 * Starts the bundled apiserver with plain `node` and its command-line flags, as the container
 * image runs it, and returns the time from spawn to the first `/readyz` 200; then stops it.
 */
export async function timeBundleStartup(o: {
  bundle: string;
  kubeconfig: string;
  tlsCertFile: string;
  tlsKeyFile: string;
  caPem: string;
}): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      o.bundle,
      '--kubeconfig', o.kubeconfig,
      '--tls-cert-file', o.tlsCertFile,
      '--tls-private-key-file', o.tlsKeyFile,
      '--secure-port', String(port),
      '--bind-address', '127.0.0.1',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { PATH: process.env.PATH, DBAAS_APISERVER_SHUTDOWN_DELAY_MS: '0' } },
  );
  let stderr = '';
  child.stderr!.on('data', d => (stderr = (stderr + String(d)).slice(-4000)));
  const client = new HttpsClient({ baseUrl: `https://127.0.0.1:${port}`, ca: o.caPem });
  try {
    const deadline = started + 300_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the bundled apiserver exited with ${child.exitCode}: ${stderr}`);
      try {
        if ((await client.get('/readyz')).status === 200) return performance.now() - started;
      } catch {
        // not listening yet
      }
      if (performance.now() > deadline) throw new Error(`the bundled apiserver was not ready after 300 s: ${stderr}`);
      await new Promise(r => setTimeout(r, 20));
    }
  } finally {
    client.close();
    if (child.exitCode === null) {
      const exited = new Promise(r => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
  }
}
