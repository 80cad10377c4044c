/**
 * Resolves once `condition` holds, checking every 50 ms; rejects naming it after `ms`. What the
 * tests wait for is a state of the system, not an amount of time. `what` may be a function, to
 * say at the failure what was last seen.
 */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  ms = 20_000,
  what: string | (() => string) = String(condition),
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms: ${typeof what === 'function' ? what() : what}`);
    await new Promise(r => setTimeout(r, 50));
  }
}
