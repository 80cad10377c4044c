import type { InstanceStore } from '../cache/types';
import { badRequest, tooLargeResourceVersion } from './StatusError';
import { waitForStore } from './waitForStore';

/** Parses a client-given resourceVersion (decimal uint64); anything else is a 400. */
export function parseResourceVersion(rv: string): bigint {
  if (!/^\d{1,20}$/.test(rv)) throw badRequest(`invalid resource version "${rv}"`);
  const n = BigInt(rv);
  if (n > 0xffffffffffffffffn) throw badRequest(`invalid resource version "${rv}"`);
  return n;
}

/**
 * Waits until the source's resourceVersion reaches `wanted`, for at most `timeoutMs`, then gives up with kube's
 * 504 "Too large resource version" (clients recognise its cause and re-list).
 */
export async function waitForResourceVersion(
  source: { resourceVersion(): string; onApplied: InstanceStore['onApplied'] },
  wanted: bigint,
  timeoutMs: number,
): Promise<void> {
  const reached = () => BigInt(source.resourceVersion() || '0') >= wanted;
  if (!(await waitForStore(listener => source.onApplied(listener), reached, timeoutMs))) {
    throw tooLargeResourceVersion(wanted.toString(), source.resourceVersion());
  }
}
