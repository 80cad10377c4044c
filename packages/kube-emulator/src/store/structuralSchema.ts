/**
 * Kubernetes structural-schema handling for CRD objects: pruning of unknown fields and the
 * translation of the OpenAPI v3 dialect kube-apiserver accepts into plain JSON Schema for ajv.
 */

type Schema = Record<string, unknown>;

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const RESOURCE_ROOT_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * Removes, in place, every field the schema does not specify, as kube-apiserver does for CRDs
 * (fields under `x-kubernetes-preserve-unknown-fields: true` survive; apiVersion/kind/metadata
 * survive at the root and in `x-kubernetes-embedded-resource` objects). Returns the pruned paths.
 */
export function pruneUnknownFields(value: unknown, schema: unknown): string[] {
  const pruned: string[] = [];
  prune(value, isObj(schema) ? schema : {}, true, '', pruned);
  return pruned;
}

function prune(
  value: unknown,
  schema: Schema,
  isResourceRoot: boolean,
  path: string,
  pruned: string[],
): void {
  if (Array.isArray(value)) {
    const items = isObj(schema.items) ? schema.items : undefined;
    value.forEach((item, i) => {
      if (items)
        prune(
          item,
          items,
          items['x-kubernetes-embedded-resource'] === true,
          `${path}[${i}]`,
          pruned,
        );
      else if (
        schema['x-kubernetes-preserve-unknown-fields'] !== true &&
        isObj(item)
      )
        pruneAll(item, false, `${path}[${i}]`, pruned);
    });
    return;
  }
  if (!isObj(value)) return;
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  const properties = isObj(schema.properties)
    ? (schema.properties as Record<string, Schema>)
    : undefined;
  const additional = isObj(schema.additionalProperties)
    ? schema.additionalProperties
    : undefined;
  for (const key of Object.keys(value)) {
    const child = `${path ? `${path}.` : ''}${key}`;
    if (isResourceRoot && RESOURCE_ROOT_FIELDS.has(key)) {
      // ObjectMeta is system-defined: the schema cannot describe it.
      if (key !== 'metadata' && properties?.[key])
        prune(value[key], properties[key], false, child, pruned);
      continue;
    }
    const propSchema = properties?.[key] ?? additional;
    if (propSchema) {
      prune(
        value[key],
        propSchema,
        propSchema['x-kubernetes-embedded-resource'] === true,
        child,
        pruned,
      );
    } else if (!preserve && schema.additionalProperties !== true) {
      delete value[key];
      pruned.push(child);
    }
  }
}

function pruneAll(
  value: Record<string, unknown>,
  keepRoot: boolean,
  path: string,
  pruned: string[],
) {
  for (const key of Object.keys(value)) {
    if (keepRoot && RESOURCE_ROOT_FIELDS.has(key)) continue;
    delete value[key];
    pruned.push(`${path}.${key}`);
  }
}

const SCHEMA_CHILDREN = ['items', 'additionalProperties', 'not'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf'];

/**
 * Converts a CRD openAPIV3Schema into JSON Schema ajv understands: `nullable` becomes a `null`
 * type, `x-kubernetes-int-or-string` becomes integer-or-string, vendor extensions are dropped,
 * and the root `metadata` is left to ObjectMeta validation.
 */
export function toAjvSchema(schema: unknown, isRoot = true): unknown {
  if (!isObj(schema)) return schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k.startsWith('x-kubernetes-') || k === 'nullable') continue;
    if (k === 'properties' && isObj(v)) {
      const props: Schema = {};
      for (const [name, sub] of Object.entries(v)) {
        if (isRoot && name === 'metadata') continue;
        props[name] = toAjvSchema(sub, false);
      }
      out.properties = props;
    } else if (SCHEMA_CHILDREN.includes(k) && isObj(v)) {
      out[k] = toAjvSchema(v, false);
    } else if (SCHEMA_LISTS.includes(k) && Array.isArray(v)) {
      out[k] = v.map(s => toAjvSchema(s, false));
    } else {
      out[k] = v;
    }
  }
  if (schema['x-kubernetes-int-or-string'] === true) {
    delete out.type;
    if (!out.anyOf) out.anyOf = [{ type: 'integer' }, { type: 'string' }];
  }
  if (schema.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null))
      out.enum = [...out.enum, null];
  }
  if (isRoot && Array.isArray(out.required))
    out.required = out.required.filter(r => r !== 'metadata');
  return out;
}

/**
 * kube-apiserver's handling of nulls before validation (apiserver/schema/defaulting): a null in a
 * field that is not `nullable` becomes the field's default, or is removed when it has none, so
 * `replicas: null` reads as the default instead of failing as "must be of type integer".
 */
export function replaceNonNullableNulls(value: unknown, schema: unknown): void {
  if (!isObj(schema)) return;
  if (Array.isArray(value)) {
    if (isObj(schema.items))
      value.forEach(item => replaceNonNullableNulls(item, schema.items));
    return;
  }
  if (!isObj(value)) return;
  const properties = isObj(schema.properties)
    ? (schema.properties as Record<string, Schema>)
    : {};
  const additional = isObj(schema.additionalProperties)
    ? schema.additionalProperties
    : undefined;
  for (const key of Object.keys(value)) {
    const sub = properties[key] ?? additional;
    if (!sub) continue;
    if (value[key] === null && sub.nullable !== true) {
      if (sub.default !== undefined) value[key] = structuredClone(sub.default);
      else delete value[key];
      continue;
    }
    replaceNonNullableNulls(value[key], sub);
  }
}
