/**
 * Polls `cond` every 50 ms until it holds; fails after `ms` with `describe()` in the message, so
 * a timeout says what the state was.
 */
export async function eventually(
  cond: () => boolean | Promise<boolean>,
  ms = 20_000,
  describe: () => string = () => '',
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms: ${cond}\n${describe()}`);
    await new Promise(r => setTimeout(r, 50));
  }
}
