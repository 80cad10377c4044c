/**
 * Structural equality of JSON values, ignoring key order. Unlike util.isDeepStrictEqual it does
 * not compare prototypes, which differ between realms (structuredClone under jest, vm contexts).
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    a === null ||
    b === null
  )
    return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => jsonEqual(v, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter(k => ao[k] !== undefined);
  const bk = Object.keys(bo).filter(k => bo[k] !== undefined);
  return (
    ak.length === bk.length &&
    ak.every(
      k =>
        Object.prototype.hasOwnProperty.call(bo, k) && jsonEqual(ao[k], bo[k]),
    )
  );
}
