/* eslint-disable no-console */
/**
 * The apiserver as a process of its own (what `main.ts` runs, from the same `startApiserver`),
 * so its memory, start-up and CPU are not the harness's. Options come as JSON in argv[2]. Over
 * the IPC channel the parent asks `{ type: 'memory', settleMs? }` (answered after full GCs, with
 * `--expose-gc`; with settleMs, after V8's memory reducer has run, waiting at most that long)
 * and `{ type: 'stop' }`.
 */
import { HEAP_SETTLED, startApiserver, type Options } from '@internal/databases-apiserver';
import { getHeapSpaceStatistics } from 'node:v8';
import { afterMemoryReducer, type ReducerWait } from './afterMemoryReducer';

/** The apiserver's compactions of its old space (heapSettler), told with each memory answer. */
const compactions: Array<Record<string, unknown>> = [];
const quiet = {
  info: (message: string, fields?: Record<string, unknown>) => {
    if (message === HEAP_SETTLED) compactions.push({ ...fields });
  },
  warn: () => {},
  error: (message: string, fields?: Record<string, unknown>) =>
    console.error(`[apiserver] ${message} ${JSON.stringify(fields ?? {})}`),
};

async function main() {
  const options = JSON.parse(process.argv[2]) as Options;
  const startedAt = performance.now();
  const running = await startApiserver(options, { logger: quiet });
  running.store.whenSynced().then(() => {
    process.send?.({ type: 'synced', ms: performance.now() - startedAt });
  });
  process.on('message', async (msg: { type: string; id?: number; settleMs?: number }) => {
    if (msg.type === 'memory') {
      const reducer: ReducerWait | undefined = msg.settleMs ? await afterMemoryReducer(msg.settleMs) : undefined;
      const gc = (globalThis as { gc?: () => void }).gc;
      // twice: the first pass may only schedule finalisation of weak caches
      gc?.();
      gc?.();
      // where V8's committed memory is, space by space (the young generation's is not the data's)
      const spaces = Object.fromEntries(getHeapSpaceStatistics().map(s => [s.space_name, { size: s.space_size, used: s.space_used_size }]));
      process.send?.({ type: 'memory', id: msg.id, gc: !!gc, usage: process.memoryUsage(), reducer, spaces, compactions });
    } else if (msg.type === 'stop') {
      await running.shutdown(0);
      // --cpu-prof writes its profile on a normal exit only
      process.exit(0);
    }
  });
  // the harness went away (Ctrl-C, a crash): do not outlive it
  process.on('disconnect', () => {
    running.shutdown(0).finally(() => process.exit(0));
  });
  process.send?.({ type: 'listening', port: running.port });
}

main().catch(err => {
  console.error(`[apiserver] start-up failed: ${err?.stack ?? err}`);
  process.exit(1);
});
