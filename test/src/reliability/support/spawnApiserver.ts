import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import https from 'node:https';
import path from 'node:path';
import { freePort } from '../../support/freePort';

/** test/src/reliability/support → repository root. */
const REPO = path.resolve(__dirname, '../../../..');

/** An apiserver running as its own process, as `yarn start` in apiserver/ runs it. */
export interface ApiserverProcess {
  port: number;
  pid: number;
  child: ChildProcess;
  /** stdout and stderr so far. */
  logs(): string;
  /** Resolves when the process has exited, with when. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  /** SIGTERM, then SIGKILL after `killAfterMs` if it is still there. */
  stop(killAfterMs?: number): Promise<void>;
}

export interface SpawnApiserverOptions {
  kubeconfig: string;
  tlsCertFile: string;
  tlsKeyFile: string;
  port?: number;
  env?: Record<string, string>;
  /** Extra flags. */
  args?: string[];
  /** Extra Node.js options (before the script), e.g. `--expose-gc`, `--require probe`. */
  nodeArgs?: string[];
}

/** What `issueExtensionServingCert` and `writeKubeconfig` of the emulator give (KubeEmulator's). */
interface ApiserverCluster {
  issueExtensionServingCert(name: string, namespace: string): Promise<{ certPem: string; keyPem: string }>;
  writeKubeconfig(file: string, options: { token: string }): Promise<void>;
}

/**
 * Writes into `dir` what an apiserver process of `cluster` needs, as its Deployment mounts it: a
 * serving certificate for `api.dbaas-system.svc` and a kubeconfig with the chart's service
 * account token. Returns the files for {@link spawnApiserver}.
 */
export async function apiserverFiles(cluster: ApiserverCluster, dir: string): Promise<Pick<SpawnApiserverOptions, 'kubeconfig' | 'tlsCertFile' | 'tlsKeyFile'>> {
  const serving = await cluster.issueExtensionServingCert('api', 'dbaas-system');
  const files = { kubeconfig: path.join(dir, 'kubeconfig'), tlsCertFile: path.join(dir, 'tls.crt'), tlsKeyFile: path.join(dir, 'tls.key') };
  await writeFile(files.tlsCertFile, serving.certPem);
  await writeFile(files.tlsKeyFile, serving.keyPem);
  await cluster.writeKubeconfig(files.kubeconfig, { token: 'dbaas-apiserver-token' });
  return files;
}

/** GET /readyz on loopback (no credentials, the certificate is not checked: it is a probe). */
export function probe(port: number, pathname = '/readyz'): Promise<number> {
  return new Promise(resolve => {
    const req = https.get({ host: '127.0.0.1', port, path: pathname, rejectUnauthorized: false, timeout: 2000 }, res => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.on('timeout', () => req.destroy());
  });
}

/**
 * Starts `node --require nodeTransform apiserver/src/main.ts` (the apiserver package's `start`
 * script) with flags for loopback, and resolves once `/readyz` answers 200.
 */
export async function spawnApiserver(options: SpawnApiserverOptions, readyTimeoutMs = 60_000): Promise<ApiserverProcess> {
  const port = options.port ?? (await freePort());
  const child = spawn(
    process.execPath,
    [
      '--require',
      require.resolve('@backstage/cli-node/config/nodeTransform.cjs'),
      ...(options.nodeArgs ?? []),
      path.join(REPO, 'apiserver/src/main.ts'),
      '--secure-port',
      String(port),
      '--bind-address',
      '127.0.0.1',
      '--kubeconfig',
      options.kubeconfig,
      '--tls-cert-file',
      options.tlsCertFile,
      '--tls-private-key-file',
      options.tlsKeyFile,
      ...(options.args ?? []),
    ],
    { cwd: path.join(REPO, 'apiserver'), env: { ...process.env, NODE_ENV: 'production', ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', d => (output += d));
  child.stderr!.on('data', d => (output += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>(resolve =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  const stop = async (killAfterMs = 15_000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + readyTimeoutMs;
  while ((await probe(port)) !== 200) {
    if (child.exitCode !== null) throw new Error(`apiserver exited with ${child.exitCode}:\n${output.slice(-4000)}`);
    if (Date.now() > deadline) {
      await stop(1000);
      throw new Error(`apiserver not ready on ${port} after ${readyTimeoutMs} ms:\n${output.slice(-4000)}`);
    }
    await new Promise(r => setTimeout(r, 200));
  }
  return { port, pid: child.pid!, child, logs: () => output, exited, stop };
}
