/**
 * Preloaded into the apiserver process by `yarn soak` (`--require`), never imported by it: every
 * DBAAS_SOAK_PROBE_MS it appends one JSON line to DBAAS_SOAK_PROBE_FILE with the process's
 * memory after a full collection (when started with --expose-gc) and its live handles and
 * resources by type, which only the process itself can see.
 */
import { appendFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const file = process.env.DBAAS_SOAK_PROBE_FILE;
const every = Number(process.env.DBAAS_SOAK_PROBE_MS ?? 10_000);

/** One line of the probe file. */
export interface ProbeSample {
  at: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** `process.getActiveResourcesInfo()` counted by type (TCPSocketWrap, Timeout, …). */
  resources: Record<string, number>;
}

function sample(): ProbeSample {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  const resources: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) resources[type] = (resources[type] ?? 0) + 1;
  return { at: Date.now(), rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers, resources };
}

// worker threads inherit --require; their heap is not the apiserver's
if (file && isMainThread) {
  const write = () => appendFileSync(file, `${JSON.stringify(sample())}\n`);
  // the probe's own timer shows up in every sample as one Timeout: constant, so it cancels out
  setInterval(write, every).unref();
  process.on('SIGUSR2', write);
}
