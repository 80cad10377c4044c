import type { DatabaseInstanceSpec } from '@internal/plugin-databases-common';

const asString = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : v);

function listAsStrings(list: unknown): unknown {
  if (list === null || typeof list !== 'object' || Array.isArray(list)) return list;
  return Object.fromEntries(Object.entries(list).map(([k, v]) => [k, asString(v)]));
}

/**
 * Quantities given as JSON numbers (`size: 10`, `cpu: 1.5`) as the strings Kubernetes writes
 * them as: a typed Quantity accepts a number and serialises a string, while the operators' CRDs
 * declare these fields int-or-string, where a fraction is refused ("must be of type
 * integer,string") and the write would fail after its Secrets were made.
 */
export function quantitiesAsStrings(spec: DatabaseInstanceSpec): DatabaseInstanceSpec {
  const out: Record<string, unknown> = { ...spec };
  const storage = spec.storage as unknown;
  if (storage !== null && typeof storage === 'object' && !Array.isArray(storage)) {
    const s = storage as Record<string, unknown>;
    out.storage = { ...s, size: asString(s.size) };
  }
  const resources = spec.resources as unknown;
  if (resources !== null && typeof resources === 'object' && !Array.isArray(resources)) {
    const r = resources as Record<string, unknown>;
    out.resources = {
      ...r,
      ...(r.requests !== undefined ? { requests: listAsStrings(r.requests) } : {}),
      ...(r.limits !== undefined ? { limits: listAsStrings(r.limits) } : {}),
    };
  }
  return out as unknown as DatabaseInstanceSpec;
}
