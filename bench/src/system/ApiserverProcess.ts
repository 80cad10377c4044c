import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Options } from '@internal/databases-apiserver';
import { HttpsClient } from '../client/HttpsClient';
import type { ReducerWait } from './afterMemoryReducer';
import { deployedAllocator, type DeployedAllocator } from './deployedAllocator';
import { imageNodeFlags } from './imageNodeFlags';
import { GC_PAUSE_LOG_PRELOAD, GcPauseLog } from './gcPauses';

/** `process.memoryUsage()` of the apiserver process, after full GCs (and, when asked, V8's memory reducer). */
export type MemoryUsage = NodeJS.MemoryUsage & {
  reducer?: ReducerWait;
  /** V8's heap spaces: committed (`size`) and used bytes. */
  spaces?: Record<string, { size: number; used: number }>;
  /** The apiserver's compactions of its old space so far (heapSettler): pause and committed MiB before and after. */
  compactions?: Array<{ pauseMs: number; committedMiB: [number, number] }>;
};

/** Options of {@link ApiserverProcess.start}. */
export interface ApiserverProcessOptions {
  options: Options;
  /** CA of the apiserver's serving certificate (for `/readyz` polls). */
  caPem: string;
  /** Write a V8 CPU profile (`.cpuprofile`) into this directory when the process ends. */
  cpuProfileDir?: string;
}

/** Repository root (this file is bench/src/system/). */
export const repoRoot = path.resolve(__dirname, '../../..');

let allocator: DeployedAllocator | undefined;
/** The malloc every apiserver process of the bench runs with: the image's (see deployedAllocator). */
export const apiserverAllocator = (): DeployedAllocator => (allocator ??= deployedAllocator(repoRoot));

/**
 * The apiserver in a child process (bench/src/system/apiserverChild.ts under Node's TS
 * transform, with `--expose-gc`): start-up is timed from the fork, memory is the child's own.
 */
export class ApiserverProcess {
  private nextId = 1;
  private readonly waiters = new Map<number, (usage: MemoryUsage) => void>();
  private exited: Promise<number | null>;
  /** Child's own time from `startApiserver()` to caches synced. */
  syncMs?: number;
  private output = '';
  /** Its collections' pauses (the preload logs them). */
  readonly gcPauses = new GcPauseLog();

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    readonly forkedAt: number,
    private readonly readyz: HttpsClient,
  ) {
    this.exited = new Promise(resolve => child.once('exit', code => resolve(code)));
    child.on('message', (msg: any) => {
      if (msg.type === 'memory') {
        this.waiters.get(msg.id)?.({ ...msg.usage, reducer: msg.reducer, spaces: msg.spaces, compactions: msg.compactions });
        this.waiters.delete(msg.id);
      } else if (msg.type === 'synced') {
        this.syncMs = msg.ms;
      }
    });
  }

  static async start(o: ApiserverProcessOptions): Promise<ApiserverProcess> {
    const execArgv = ['--require', '@backstage/cli-node/config/nodeTransform.cjs', '--require', GC_PAUSE_LOG_PRELOAD, '--expose-gc', '--max-old-space-size=4096', ...imageNodeFlags(repoRoot)];
    if (o.cpuProfileDir) execArgv.push('--cpu-prof', `--cpu-prof-dir=${o.cpuProfileDir}`);
    // e.g. BENCH_APISERVER_NODE_ARGS=--trace-gc to see the apiserver's collections
    execArgv.push(...(process.env.BENCH_APISERVER_NODE_ARGS ?? '').split(' ').filter(Boolean));
    const forkedAt = performance.now();
    const child = fork(path.join(__dirname, 'apiserverChild.ts'), [JSON.stringify(o.options)], {
      cwd: repoRoot,
      execArgv,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: { ...process.env, NODE_OPTIONS: '', ...apiserverAllocator().env },
    });
    let output = '';
    child.stdout!.on('data', d => (output += d));
    child.stderr!.on('data', d => (output += d));
    const port = await new Promise<number>((resolve, reject) => {
      child.on('message', (msg: any) => msg.type === 'listening' && resolve(msg.port));
      child.once('exit', code => reject(new Error(`apiserver exited with ${code} before listening:\n${output.slice(-4000)}`)));
    });
    const readyz = new HttpsClient({ baseUrl: `https://127.0.0.1:${port}`, ca: o.caPem });
    const proc = new ApiserverProcess(child, port, forkedAt, readyz);
    proc.output = output;
    child.stdout!.on('data', d => (proc.output += d));
    child.stderr!.on('data', d => {
      proc.output += d;
      proc.gcPauses.read(d);
    });
    if (process.env.BENCH_APISERVER_OUTPUT) {
      child.stdout!.pipe(process.stderr);
      child.stderr!.pipe(process.stderr);
    }
    return proc;
  }

  /** Process id (for RSS from /proc). */
  get pid(): number {
    return this.child.pid!;
  }

  /** What the process printed (errors only; the logger is quiet). */
  logs(): string {
    return this.output.replace(/^\[bench-gc\].*\n/gm, '');
  }

  /** Polls `/readyz` every 20 ms; resolves with ms since the fork at the first 200. */
  async waitReady(timeoutMs = 300_000): Promise<number> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      if (this.child.exitCode !== null) throw new Error(`apiserver exited:\n${this.output.slice(-4000)}`);
      try {
        const r = await this.readyz.get('/readyz');
        if (r.status === 200) return performance.now() - this.forkedAt;
      } catch {
        // not listening yet
      }
      if (performance.now() > deadline) throw new Error(`apiserver not ready after ${timeoutMs} ms:\n${this.output.slice(-4000)}`);
      await new Promise(r => setTimeout(r, 20));
    }
  }

  /**
   * Memory after full GCs in the child; with `settleMs`, once V8's memory reducer has given back
   * what the last burst left (waiting at most settleMs): the process's steady resident memory.
   */
  memory(opts: { settleMs?: number } = {}): Promise<MemoryUsage> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiters.set(id, resolve);
      this.exited.then(code => reject(new Error(`apiserver exited (${code}) before answering a memory request:\n${this.output.slice(-4000)}`)));
      this.child.send({ type: 'memory', id, settleMs: opts.settleMs });
    });
  }

  /** Graceful stop (writes the CPU profile when profiling); SIGKILL after 10 s. */
  async stop(): Promise<void> {
    this.readyz.close();
    if (this.child.exitCode !== null) return;
    this.child.send({ type: 'stop' });
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await this.exited;
    clearTimeout(timer);
  }
}
