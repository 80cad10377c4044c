import { quantile } from '../report/stats';
import type { MemoryUsage } from '../system/ApiserverProcess';
import type { SizeContext } from './types';
import { warmLists } from './warmLists';

const KiB = 1024;
/** Pairs of fresh apiservers a difference is the median of (one pair's RSS varies by MiBs). */
export const MEMORY_PAIRS = 3;

/** KiB per instance that state B costs over state A. */
export interface PerInstanceMemory {
  rss: number;
  heapUsed: number;
  external: number;
  /** The lowest and highest RSS difference over the pairs. */
  rssRange: [number, number];
}

/**
 * Memory of a fresh apiserver over the emulator as it is now, every list format served once,
 * once V8's memory reducer gave back what the start-up burst fragmented (as the memory figure is
 * taken: right after the lists, what the burst left varies by more than a small difference).
 */
async function freshMemory(ctx: SizeContext): Promise<MemoryUsage> {
  const apiserver = await ctx.cluster.startApiserver();
  try {
    await apiserver.waitReady();
    await warmLists(ctx.cluster, apiserver);
    return await apiserver.memory({ settleMs: ctx.iterations.settleMs });
  } finally {
    await apiserver.stop();
  }
}

/**
 * What state B of the emulator costs a fresh apiserver per instance over state A: pairs of fresh
 * apiservers, one over each, taken in turn so that whatever drifts on the machine drifts for
 * both, each after every list format was served (the steady cost, as after a restart, without
 * what a burst of writes leaves behind); the median of each figure's difference over the pairs.
 * Leaves the emulator in state B.
 */
export async function freshMemoryPairs(ctx: SizeContext, states: { a(): void; b(): void }): Promise<PerInstanceMemory> {
  const pairs: Array<Omit<PerInstanceMemory, 'rssRange'>> = [];
  for (let k = 0; k < MEMORY_PAIRS; k++) {
    states.a();
    const a = await freshMemory(ctx);
    states.b();
    const b = await freshMemory(ctx);
    const per = (key: 'rss' | 'heapUsed' | 'external') => (b[key] - a[key]) / ctx.size / KiB;
    pairs.push({ rss: per('rss'), heapUsed: per('heapUsed'), external: per('external') });
  }
  const median = (key: 'rss' | 'heapUsed' | 'external') => quantile(pairs.map(p => p[key]), 0.5);
  const rss = pairs.map(p => p.rss);
  return {
    rss: median('rss'),
    heapUsed: median('heapUsed'),
    external: median('external'),
    rssRange: [Math.min(...rss), Math.max(...rss)],
  };
}

/** The figure's note: the range, and where the growth is. */
export function pairsNote(m: PerInstanceMemory): string {
  return (
    `median of ${MEMORY_PAIRS} pairs of fresh apiservers (RSS ${m.rssRange.map(v => v.toFixed(2)).join(' to ')}), lists served, settled; ` +
    `heap ${m.heapUsed.toFixed(2)} KiB, external ${m.external.toFixed(2)} KiB per instance`
  );
}
