import { constants, PerformanceObserver } from 'node:perf_hooks';

/** No memory-reducing collection for this long after one: the reducer's round (up to 3, ~1 s apart) is over. */
const QUIET_MS = 5000;

/** How a wait for V8's memory reducer ended. */
export interface ReducerWait {
  /** The reducer ran (its last collection this long after the wait began); absent when it did not within the limit. */
  settledMs?: number;
  waitedMs: number;
}

/**
 * Waits, without forcing a collection, for V8's memory reducer: once allocation has slowed after a
 * full collection, V8 runs up to three memory-reducing mark-compacts that give back the old space a
 * burst fragmented (the start-up lists leave several KiB per instance at 50,000). It is seen as
 * major collections whose callback flags are exactly kGCCallbackFlagCollectAllExternalMemory
 * (memory-reducer.cc starts its marking with that flag; external-memory pressure adds the
 * synchronous-phantom flag). Ends QUIET_MS after the last of them, or at `limitMs` without them.
 */
export function afterMemoryReducer(limitMs: number): Promise<ReducerWait> {
  const start = performance.now();
  let last: number | undefined;
  const observer = new PerformanceObserver(list => {
    for (const entry of list.getEntries()) {
      const detail = (entry as PerformanceEntry & { detail?: { kind?: number; flags?: number } }).detail;
      if (detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR && detail.flags === constants.NODE_PERFORMANCE_GC_FLAGS_ALL_EXTERNAL_MEMORY) {
        last = performance.now();
      }
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return new Promise(resolve => {
    const timer = setInterval(() => {
      const now = performance.now();
      const done = last !== undefined && now - last >= QUIET_MS;
      if (done || now - start >= limitMs) {
        clearInterval(timer);
        observer.disconnect();
        resolve({ ...(last !== undefined && { settledMs: last - start }), waitedMs: now - start });
      }
    }, 250);
  });
}
