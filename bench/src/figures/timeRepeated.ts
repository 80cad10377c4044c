/** Runs `fn` `warmup` times untimed, then `n` times, returning each run's duration (ms). */
export async function timeRepeated(
  n: number,
  warmup: number,
  fn: (i: number) => Promise<number | void>,
): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn(i);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const reported = await fn(i);
    out.push(typeof reported === 'number' ? reported : performance.now() - started);
  }
  return out;
}

/** Times a synchronous function the same way (for in-process work such as JSON.stringify). */
export function timeSync(n: number, warmup: number, fn: () => unknown): number[] {
  for (let i = 0; i < warmup; i++) fn();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    fn();
    out.push(performance.now() - started);
  }
  return out;
}
