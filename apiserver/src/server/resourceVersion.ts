import { badRequest, tooLargeResourceVersion } from './StatusError';

/** Parses a client-given resourceVersion (decimal uint64); anything else is a 400. */
export function parseResourceVersion(rv: string): bigint {
  if (!/^\d{1,20}$/.test(rv)) throw badRequest(`invalid resource version "${rv}"`);
  const n = BigInt(rv);
  if (n > 0xffffffffffffffffn) throw badRequest(`invalid resource version "${rv}"`);
  return n;
}

/**
 * Waits until `current()` reaches `wanted`, for at most `timeoutMs`, then gives up with kube's
 * 504 "Too large resource version" (clients recognise its cause and re-list).
 */
export async function waitForResourceVersion(
  current: () => string,
  wanted: bigint,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (BigInt(current() || '0') < wanted) {
    if (Date.now() >= deadline) throw tooLargeResourceVersion(wanted.toString(), current());
    await new Promise(resolve => setTimeout(resolve, 25));
  }
}
