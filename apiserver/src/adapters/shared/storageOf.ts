import { asRecord, asString, quantity } from './read';

/** Storage as the spec reads it back: size and class where the operator object names them. */
export function storageOf(
  size: unknown,
  storageClassName: unknown,
): { size?: string; storageClassName?: string } | undefined {
  const s = quantity(size);
  const c = asString(storageClassName);
  if (!s && !c) return undefined;
  return { ...(s && { size: s }), ...(c && { storageClassName: c }) };
}

/** Storage of a PersistentVolumeClaim spec (`resources.requests.storage`, `storageClassName`). */
export function claimStorageOf(claim: unknown) {
  const c = asRecord(claim) ?? {};
  return storageOf(
    asRecord(asRecord(c.resources)?.requests)?.storage,
    c.storageClassName,
  );
}
