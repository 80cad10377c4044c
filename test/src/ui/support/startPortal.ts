import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../support/freePort';
import { startSystem, type System } from '../../support/startSystem';
import { buildFresh, prepareProductionBackend } from './productionBackend';

/** Repository root (this file is test/src/ui/support/). */
export const repoRoot = path.resolve(__dirname, '../../../..');

/** The running portal: emulator + apiserver in this process, the Backstage backend as a child. */
export interface Portal {
  /** Where the backend serves the app and `/api/*`. */
  baseUrl: string;
  system: System;
  /** The backend's output so far (for failure messages). */
  logs(): string;
  stop(): Promise<void>;
}

async function waitFor(url: string, timeoutMs: number, child: ChildProcess, logs: () => string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`backend exited with ${child.exitCode}:\n${logs().slice(-4000)}`);
    }
    if (logs().includes('EADDRINUSE')) {
      throw new Error(`backend could not listen (port taken):\n${logs().slice(-2000)}`);
    }
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise(r => setTimeout(r, 500));
  }
  throw new Error(`backend not ready at ${url} after ${timeoutMs} ms:\n${logs().slice(-4000)}`);
}

/**
 * Builds packages/app (the backend serves its dist; about a minute) unless a build newer than
 * every source it is made of is there (scripts/build-fresh.mjs: one build at a time across
 * processes, so browser test files started side by side build it once).
 */
export function ensureAppBuilt() {
  buildFresh(repoRoot, 'app');
}

/**
 * Starts the system as the README does, on free ports: the emulator with its demo data and the
 * aggregated apiserver (startSystem), then the Backstage backend (`yarn workspace backend start`)
 * pointed at the emulator, serving the built app. The backend keeps its database in memory.
 */
export async function startPortal(options: {
  /** Who "Enter as guest" signs in as (default: app-config's, alice of team-a). */
  guest?: { userEntityRef: string; ownershipEntityRefs: string[] };
  /** Run the built backend as production does (`node packages/backend`, NODE_ENV=production). */
  production?: boolean;
} = {}): Promise<Portal> {
  ensureAppBuilt();
  const productionDir = options.production ? prepareProductionBackend(repoRoot) : undefined;
  const system = await startSystem({ seed: true });
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const stateDir = mkdtempSync(path.join(tmpdir(), 'dbaas-portal-'));
  let output = '';
  // PORTAL_BACKEND_ARGS: extra arguments for a local run, e.g. `--config a.yaml --config b.yaml`.
  const extraArgs = (process.env.PORTAL_BACKEND_ARGS ?? '').split(' ').filter(Boolean);
  const [command, args] = productionDir
    ? ['node', ['packages/backend', '--config', path.join(repoRoot, 'app-config.yaml'), ...extraArgs]]
    : ['yarn', ['workspace', 'backend', 'start', ...extraArgs]];
  const child = spawn(command, args as string[], {
    cwd: productionDir ?? repoRoot,
    detached: true, // own process group, so stop() ends yarn, the cli and the backend together
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: productionDir ? 'production' : 'development',
      DATABASES_CLUSTER_URL: system.emulator.url,
      DATABASES_CLUSTER_CA: system.emulator.certs.clusterCa.certPem,
      APP_CONFIG_app_baseUrl: JSON.stringify(baseUrl),
      APP_CONFIG_backend_baseUrl: JSON.stringify(baseUrl),
      APP_CONFIG_backend_listen_port: String(port),
      APP_CONFIG_backend_cors_origin: JSON.stringify(baseUrl),
      APP_CONFIG_backend_database: JSON.stringify({ client: 'better-sqlite3', connection: ':memory:' }),
      ...(options.guest
        ? {
            APP_CONFIG_auth_providers_guest_userEntityRef: JSON.stringify(options.guest.userEntityRef),
            APP_CONFIG_auth_providers_guest_ownershipEntityRefs: JSON.stringify(options.guest.ownershipEntityRefs),
          }
        : {}),
    },
  });
  // Readiness polls would drown everything else in the log.
  const append = (d: Buffer) => {
    output += String(d)
      .split('\n')
      .filter(line => !line.includes('/.backstage/health/'))
      .join('\n');
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const logs = () => output;
  let stopped: Promise<void> | undefined;
  const stopAll = async () => {
    if (child.exitCode === null && child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      await new Promise(r => {
        const timer = setTimeout(() => {
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {
            // already gone
          }
          r(undefined);
        }, 5000);
        child.once('exit', () => {
          clearTimeout(timer);
          r(undefined);
        });
      });
    }
    await system.stop();
    rmSync(stateDir, { recursive: true, force: true });
    if (productionDir) rmSync(productionDir, { recursive: true, force: true });
  };
  const stop = () => (stopped ??= stopAll());
  try {
    await waitFor(`${baseUrl}/.backstage/health/v1/readiness`, Number(process.env.PORTAL_READY_TIMEOUT_MS ?? 180_000), child, logs);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, system, logs, stop };
}

/** A guest token, as the browser gets it on "Enter". */
export async function guestToken(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/guest/refresh?env=development`, {
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
  });
  if (!res.ok) throw new Error(`guest sign-in failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { backstageIdentity: { token: string } };
  return body.backstageIdentity.token;
}
