import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/**
 * The measuring client (bench/src/client/clientChild.ts) in a child process: typed calls over
 * IPC. Start one per size; `stop()` ends it and every connection it holds.
 */
export class ClientProcess {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(v: any): void; reject(e: Error): void }>();
  private output = '';

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (msg: any) => {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.error) p.reject(new Error(`client process: ${msg.error}`));
      else p.resolve(msg.result);
    });
    child.stdout?.on('data', d => (this.output += d));
    child.stderr?.on('data', d => (this.output += d));
    child.once('exit', code => {
      for (const p of this.pending.values()) p.reject(new Error(`client process exited with ${code}: ${this.output.slice(-2000)}`));
      this.pending.clear();
    });
  }

  static async start(): Promise<ClientProcess> {
    const child = fork(path.join(__dirname, 'clientChild.ts'), [], {
      // e.g. BENCH_CLIENT_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/p" to profile the measuring client
      execArgv: [
        '--require',
        '@backstage/cli-node/config/nodeTransform.cjs',
        '--max-old-space-size=4096',
        // so that timings start from a collected heap (see clientChild's collectGarbage)
        '--expose-gc',
        // V8 sizes the old generation of a small heap (13 MiB here) so tightly that the client
        // ran a full collection every 160 ms while timing one-namespace lists (each inflated
        // 330 KiB list promotes a little): 2.2 s of its helper threads' CPU in the figure's 6 s,
        // on the cores the apiserver needed. 256 MiB did that too, but then one late collection
        // of a large heap held up a whole round of the slow-watcher figure (about every other
        // run at 1,000: 77-221 ms against 10-13 ms); 64 MiB did neither in these runs.
        '--initial-old-space-size=64',
        ...(process.env.BENCH_CLIENT_NODE_ARGS ?? '').split(' ').filter(Boolean),
      ],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    const proc = new ClientProcess(child);
    await new Promise<void>((resolve, reject) => {
      // Node's TS transform also reports the files it loads ({ type: 'watch' }) over IPC
      child.on('message', (m: any) => m?.ready && resolve());
      child.once('exit', code => reject(new Error(`client process exited with ${code}: ${proc.output}`)));
    });
    return proc;
  }

  /** Runs one op of clientChild.ts. */
  call<T = any>(op: string, args: unknown): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.send({ id, op, args });
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise(r => this.child.once('exit', r));
    this.child.disconnect();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}
