/**
 * Milliseconds since the epoch with sub-millisecond resolution, comparable across processes on
 * one machine (each process's `performance.now()` has its own origin).
 */
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}
