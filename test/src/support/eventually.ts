/**
 * Tries `check` until it returns a value (anything but `undefined`) and resolves with that
 * value. A check that throws has not held yet either: it says why (the output it read, the
 * state it found), and after `timeoutMs` the failure names `what` and the last error seen.
 * Tries follow each other `intervalMs` apart; what a test waits for is a state of the system,
 * so `timeoutMs` is a bound for a broken one, not a time that makes a test pass.
 */
export async function eventually<T>(
  check: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = 30_000,
  intervalMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline)
      throw new Error(
        `${what}: not reached in ${timeoutMs} ms${last ? `; last error: ${last}` : ''}`,
      );
    await new Promise(r => setTimeout(r, intervalMs));
  }
}
