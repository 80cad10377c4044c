import type { ObjectStore } from '../store/types';
import { errors } from './status';

/**
 * Waits (up to `timeoutMs`, kube uses ~3 s) until the store has reached `rv`; otherwise throws
 * the 504 "Too large resource version" Status that makes reflectors re-list.
 */
export async function waitForResourceVersion(
  store: ObjectStore,
  rv: number,
  timeoutMs = 3000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (store.currentRV() < rv) {
    if (Date.now() >= deadline) throw errors.tooLargeRV(rv, store.currentRV());
    await new Promise(r => setTimeout(r, 50));
  }
}
