import type { InstanceStore } from '../cache/types';

/**
 * Resolves true as soon as `done()` holds, checked now and after every change the store
 * applies; false when `timeoutMs` passed first. Waits on the store, never polls it.
 */
export function waitForStore(
  onApplied: InstanceStore['onApplied'],
  done: () => boolean,
  timeoutMs: number,
): Promise<boolean> {
  if (done()) return Promise.resolve(true);
  return new Promise(resolve => {
    let timer: NodeJS.Timeout | undefined = undefined;
    let unsubscribe = () => {};
    const finish = (result: boolean) => {
      clearTimeout(timer);
      unsubscribe();
      resolve(result);
    };
    unsubscribe = onApplied(() => {
      if (done()) finish(true);
    });
    timer = setTimeout(() => finish(done()), timeoutMs);
  });
}
