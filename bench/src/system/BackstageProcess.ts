import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from './ApiserverProcess';
import { freePort } from './freePort';
import { GC_PAUSE_LOG_PRELOAD, GcPauseLog } from './gcPauses';

/** Options of {@link BackstageProcess.start}. */
export interface BackstageProcessOptions {
  /** The kube-apiserver the backend talks to (the emulator, aggregating our apiserver). */
  clusterUrl: string;
  clusterCaPem: string;
  /** Catalog components (`metadata.name`) to add beside the demo catalog. */
  components: string[];
  /** Directory for the generated catalog file. */
  dir: string;
  /** Who "Enter as guest" signs in as. */
  guest: { userEntityRef: string; ownershipEntityRefs: string[] };
}

/**
 * The real Backstage backend of packages/backend (every plugin it installs, the databases
 * plugins among them) in a child process: `node` with Backstage's TypeScript transform on
 * packages/backend/src/index.ts, configured by app-config.yaml plus environment overrides
 * (in-memory SQLite, a free port, the emulator as its cluster, a generated catalog file).
 */
export class BackstageProcess {
  private output = '';
  /** Its collections' pauses (the preload logs them). */
  readonly gcPauses = new GcPauseLog();

  private constructor(
    private readonly child: ChildProcess,
    readonly baseUrl: string,
  ) {
    const keep = (d: Buffer) => {
      this.output = (this.output + String(d)).slice(-200_000);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', (d: Buffer) => {
      keep(d);
      this.gcPauses.read(d);
    });
  }

  static async start(o: BackstageProcessOptions): Promise<BackstageProcess> {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const catalogFile = path.join(o.dir, 'bench-components.yaml');
    await writeFile(
      catalogFile,
      o.components
        .map(name => `apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata: { name: ${name}, annotations: { backstage.io/kubernetes-id: ${name} } }\nspec: { type: service, lifecycle: production, owner: group:default/platform }\n`)
        .join('---\n'),
    );
    const child = spawn(
      process.execPath,
      [
        '--require',
        '@backstage/cli-node/config/nodeTransform.cjs',
        '--require',
        GC_PAUSE_LOG_PRELOAD,
        '--max-old-space-size=4096',
        // e.g. BENCH_BACKSTAGE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the backend
        ...(process.env.BENCH_BACKSTAGE_NODE_ARGS ?? '').split(' ').filter(Boolean),
        'src/index.ts',
      ],
      {
        cwd: path.join(repoRoot, 'packages', 'backend'),
        // in the harness's process group: a Ctrl-C of `yarn bench` reaches it too
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          NODE_OPTIONS: '',
          NODE_ENV: 'development',
          DATABASES_CLUSTER_URL: o.clusterUrl,
          DATABASES_CLUSTER_CA: o.clusterCaPem,
          APP_CONFIG_app_baseUrl: JSON.stringify(baseUrl),
          APP_CONFIG_backend_baseUrl: JSON.stringify(baseUrl),
          APP_CONFIG_backend_listen_port: String(port),
          APP_CONFIG_backend_cors_origin: JSON.stringify(baseUrl),
          // PostgreSQL when scripts/bench.mjs started one, as in production; else SQLite in memory
          APP_CONFIG_backend_database: JSON.stringify(
            process.env.BENCH_BACKSTAGE_DATABASE
              ? { client: 'pg', connection: process.env.BENCH_BACKSTAGE_DATABASE }
              : { client: 'better-sqlite3', connection: ':memory:' },
          ),
          APP_CONFIG_auth_providers_guest_userEntityRef: JSON.stringify(o.guest.userEntityRef),
          APP_CONFIG_auth_providers_guest_ownershipEntityRefs: JSON.stringify(o.guest.ownershipEntityRefs),
          APP_CONFIG_catalog_locations: JSON.stringify([
            { type: 'file', target: path.join(repoRoot, 'catalog', 'entities.yaml') },
            { type: 'file', target: catalogFile },
          ]),
        },
      },
    );
    const proc = new BackstageProcess(child, baseUrl);
    const deadline = Date.now() + 240_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the Backstage backend exited with ${child.exitCode}:\n${proc.output.slice(-4000)}`);
      try {
        const res = await fetch(`${baseUrl}/.backstage/health/v1/readiness`);
        if (res.ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        await proc.stop();
        throw new Error(`the Backstage backend was not ready after 240 s:\n${proc.output.slice(-4000)}`);
      }
      await new Promise(r => setTimeout(r, 500));
    }
    return proc;
  }

  /** A Backstage token of the guest user, as the browser gets it on "Enter". */
  async guestToken(): Promise<string> {
    const res = await fetch(`${this.baseUrl}/api/auth/guest/refresh?env=development`, {
      headers: { 'X-Requested-With': 'XMLHttpRequest' },
    });
    if (!res.ok) throw new Error(`guest sign-in failed: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { backstageIdentity: { token: string } }).backstageIdentity.token;
  }

  /** The process's recent output (for failure messages). */
  logs(): string {
    return this.output.replace(/^\[bench-gc\].*\n/gm, '');
  }

  /** Ends the backend; SIGKILL after 10 s. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise(r => this.child.once('exit', r));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}
