/**
 * The values CEL rules of a CRD see, typed by the structural schema as kube-apiserver types them
 * (k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model): an `integer` field is a CEL
 * int, a `number` a double, objects and maps are maps, and at the resource root `metadata` holds
 * only `name` and `generateName`.
 */

type Schema = Record<string, unknown>;

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Converts a JSON value to the input @bufbuild/cel evaluates, guided by its schema. */
export function toCelValue(
  value: unknown,
  schema: unknown,
  isRoot = false,
): unknown {
  const s: Schema = isObj(schema) ? schema : {};
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') {
    const wantsInt =
      s.type === 'integer' ||
      (s['x-kubernetes-int-or-string'] === true && Number.isInteger(value)) ||
      (s.type === undefined && Number.isInteger(value));
    return wantsInt && Number.isInteger(value) ? BigInt(value) : value;
  }
  if (typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(v => toCelValue(v, s.items));
  const properties = isObj(s.properties) ? s.properties : {};
  const additional = isObj(s.additionalProperties)
    ? s.additionalProperties
    : undefined;
  const out = new Map<string, unknown>();
  for (const [key, child] of Object.entries(value)) {
    // kube: null-valued fields are treated as absent (`has()` is false, selecting one fails).
    if (child === null) continue;
    if (isRoot && key === 'metadata') {
      out.set('metadata', rootMetadata(child));
      continue;
    }
    out.set(key, toCelValue(child, properties[key] ?? additional));
  }
  return out;
}

/** Rules at the root see only the metadata fields kube exposes to them. */
function rootMetadata(metadata: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (!isObj(metadata)) return out;
  for (const key of ['name', 'generateName'])
    if (typeof metadata[key] === 'string') out.set(key, metadata[key]);
  return out;
}
