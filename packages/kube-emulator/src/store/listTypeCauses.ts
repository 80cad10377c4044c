import type { FieldCause } from './storeErrors';

/**
 * The uniqueness kube-apiserver enforces for `x-kubernetes-list-type: set` (items unique) and
 * `map` (items unique by `x-kubernetes-list-map-keys`), worded as
 * k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype words it.
 */
export function listTypeCauses(schema: unknown, obj: unknown): FieldCause[] {
  const causes: FieldCause[] = [];
  visit(schema, obj, '', causes);
  return causes;
}

type Schema = Record<string, any>;

const isObj = (v: unknown): v is Record<string, any> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function visit(
  schema: unknown,
  value: unknown,
  path: string,
  causes: FieldCause[],
): void {
  if (!isObj(schema) || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    const items: Schema | undefined = isObj(schema.items)
      ? schema.items
      : undefined;
    if (schema['x-kubernetes-list-type'] === 'set')
      duplicates(value, path, causes);
    if (schema['x-kubernetes-list-type'] === 'map')
      duplicateKeys(schema, items, value, path, causes);
    value.forEach((item, i) => visit(items, item, `${path}[${i}]`, causes));
    return;
  }
  const properties: Record<string, Schema> = isObj(schema.properties)
    ? schema.properties
    : {};
  for (const [key, child] of Object.entries(value)) {
    const sub = properties[key] ?? schema.additionalProperties;
    const childPath = properties[key]
      ? `${path ? `${path}.` : ''}${key}`
      : `${path}[${key}]`;
    visit(sub, child, childPath, causes);
  }
}

function duplicates(value: unknown[], path: string, causes: FieldCause[]) {
  const seen = new Set<string>();
  value.forEach((item, i) => {
    const id = JSON.stringify(item);
    if (seen.has(id))
      causes.push({
        reason: 'FieldValueDuplicate',
        message: `Duplicate value: ${goValue(item)}`,
        field: `${path}[${i}]`,
      });
    seen.add(id);
  });
}

function duplicateKeys(
  schema: Schema,
  items: Schema | undefined,
  value: unknown[],
  path: string,
  causes: FieldCause[],
) {
  const keys: string[] = Array.isArray(schema['x-kubernetes-list-map-keys'])
    ? schema['x-kubernetes-list-map-keys']
    : [];
  const seen = new Set<string>();
  value.forEach((item, i) => {
    if (!isObj(item)) return;
    const key: Record<string, unknown> = {};
    for (const k of keys) {
      const v = item[k] ?? items?.properties?.[k]?.default;
      if (v !== undefined) key[k] = v;
    }
    const id = JSON.stringify(key);
    if (seen.has(id))
      causes.push({
        reason: 'FieldValueDuplicate',
        message: `Duplicate value: map[string]interface {}{${Object.entries(key)
          .map(([k, v]) => `${JSON.stringify(k)}:${goValue(v)}`)
          .join(', ')}}`,
        field: `${path}[${i}]`,
      });
    seen.add(id);
  });
}

/** Go's %#v-ish rendering kube's field.Duplicate gives scalars: strings quoted, numbers bare. */
function goValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}
