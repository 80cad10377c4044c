type Json = unknown;

const isObject = (v: Json): v is Record<string, Json> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** RFC 7386 JSON merge patch: objects merge recursively, `null` deletes, anything else replaces. */
export function applyMergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return patch;
  const out: Record<string, Json> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = applyMergePatch(out[key], value);
  }
  return out;
}

const equal = (a: Json, b: Json) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The merge patch that turns `original` into `modified` (the inverse of applyMergePatch for
 * JSON without nulls): only changed keys, removed keys as `null`, arrays whole. Writing an
 * operator object as a diff keeps what our cached copy lacks (managedFields, kubectl's
 * last-applied annotation) untouched.
 */
export function createMergePatch(original: Json, modified: Json): Record<string, Json> {
  const patch: Record<string, Json> = {};
  const from = isObject(original) ? original : {};
  const to = isObject(modified) ? modified : {};
  for (const key of Object.keys(from)) if (!(key in to)) patch[key] = null;
  for (const [key, value] of Object.entries(to)) {
    const before = from[key];
    if (equal(before, value)) continue;
    patch[key] = isObject(before) && isObject(value) ? createMergePatch(before, value) : value;
  }
  return patch;
}
