import { PerformanceObserver } from 'node:perf_hooks';

/** This process's collections while recording: how many paused it at least `minMs`, the longest, all. */
export interface GcPauses {
  count: number;
  maxMs: number;
  totalMs: number;
}

/**
 * Records this process's garbage-collection pauses until `stop()`: the bench process hosts the
 * emulator, whose aggregation layer every backend request to the apiserver goes through, so a
 * pause here is in a tail the apiserver and backend are not to blame for.
 */
export function recordGcPauses(minMs = 10): { stop(): GcPauses } {
  const pauses: GcPauses = { count: 0, maxMs: 0, totalMs: 0 };
  const observer = new PerformanceObserver(list => {
    for (const entry of list.getEntries()) {
      pauses.totalMs += entry.duration;
      pauses.maxMs = Math.max(pauses.maxMs, entry.duration);
      if (entry.duration >= minMs) pauses.count += 1;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop() {
      observer.disconnect();
      return { ...pauses };
    },
  };
}
