import { makeFigure, type Figure } from '../report/Figure';
import { apiserverAllocator, repoRoot, type MemoryUsage } from '../system/ApiserverProcess';
import { imageNodeFlags } from '../system/imageNodeFlags';

const KiB = 1024;
const MiB = 1024 * 1024;

/** An apiserver's memory right after its caches synced (every list format served once), and once it has settled. */
export interface MemoryPair {
  atSync: MemoryUsage;
  settled: MemoryUsage;
}

/** When the memory reducer ran, or that it did not (the figure then is the unsettled one). */
export const reducerNote = (m: MemoryUsage) =>
  m.reducer?.settledMs !== undefined
    ? `ran ${(m.reducer.settledMs / 1000).toFixed(0)} s after the sync's collections`
    : `did not run in ${((m.reducer?.waitedMs ?? 0) / 1000).toFixed(0)} s: not settled`;

/** The compactions the apiserver's heap settler made so far, with their pauses. */
export const compactionNote = (m: MemoryUsage) => {
  const done = m.compactions ?? [];
  if (!done.length) return 'the apiserver compacted nothing itself';
  return `the apiserver compacted its old space ${done.length} time(s): ${done.map(c => `${c.committedMiB[0]} -> ${c.committedMiB[1]} MiB in a ${c.pauseMs} ms pause`).join(', ')}`;
};

/**
 * Memory of the apiserver process with `size` instances (caches synced, every list format
 * served once so pre-encoded bodies exist) against the same process with no instance. The
 * target is on the settled figure, what the process keeps while it runs (V8 gives back, within
 * a minute, the old space the start-up lists fragmented); the figure right after the sync is
 * reported beside it, without a target, for the limit a pod needs through its start.
 */
export function memoryFigures(size: number, empty: MemoryPair, full: MemoryPair): Figure[] {
  const perInstance = (a: number, b: number) => (b - a) / size / KiB;
  const { settled, atSync } = full;
  return [
    makeFigure('memory: RSS growth per instance', size, perInstance(empty.settled.rss, settled.rss), 'KiB', size >= 50_000 ? { op: '<=', value: 16 } : undefined,
      `RSS ${(settled.rss / MiB).toFixed(0)} MiB vs ${(empty.settled.rss / MiB).toFixed(0)} MiB with no instance, each after V8's memory reducer ` +
        `(${reducerNote(settled)}; with no instance: ${reducerNote(empty.settled)}), then full GCs; per instance heapTotal ${perInstance(empty.settled.heapTotal, settled.heapTotal).toFixed(2)}, ` +
        `external ${perInstance(empty.settled.external, settled.external).toFixed(2)} KiB (of it array buffers ${perInstance(empty.settled.arrayBuffers, settled.arrayBuffers).toFixed(2)}); ` +
        `malloc: ${apiserverAllocator().note}; node flags of the image: ${imageNodeFlags(repoRoot).join(' ') || 'none'}; ${compactionNote(settled)}`),
    makeFigure('memory: RSS growth per instance right after the sync', size, perInstance(empty.atSync.rss, atSync.rss), 'KiB', undefined,
      `RSS ${(atSync.rss / MiB).toFixed(0)} MiB vs ${(empty.atSync.rss / MiB).toFixed(0)} MiB, after full GCs, before V8 gave back what the start-up burst left; heapTotal ${perInstance(empty.atSync.heapTotal, atSync.heapTotal).toFixed(2)} KiB per instance`),
    makeFigure('memory: heap growth per instance', size, perInstance(empty.settled.heapUsed, settled.heapUsed), 'KiB', undefined,
      `heapUsed ${(settled.heapUsed / MiB).toFixed(0)} MiB vs ${(empty.settled.heapUsed / MiB).toFixed(0)} MiB`),
    makeFigure('memory: RSS', size, settled.rss / MiB, 'MiB'),
    makeFigure('memory: heap used', size, settled.heapUsed / MiB, 'MiB'),
  ];
}

/** The process's memory right after it served every list format once, then once settled. */
export async function memoryPair(apiserver: { memory(o?: { settleMs?: number }): Promise<MemoryUsage> }, settleMs: number): Promise<MemoryPair> {
  const atSync = await apiserver.memory();
  return { atSync, settled: await apiserver.memory({ settleMs }) };
}
