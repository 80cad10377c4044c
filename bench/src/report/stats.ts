/**
 * The q-quantile (0..1) of `samples` by the nearest-rank method: p99 of 50 samples is the
 * largest one, never an interpolation below it.
 */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil(q * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** Median and p99 of a sample set. */
export function summarize(samples: readonly number[]): { p50: number; p99: number; n: number } {
  return { p50: quantile(samples, 0.5), p99: quantile(samples, 0.99), n: samples.length };
}
