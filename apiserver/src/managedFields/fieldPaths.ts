/**
 * Field paths of a DatabaseInstance as server-side apply tracks them. `DatabaseInstanceSpec`
 * and the metadata maps are structs and maps by key all the way down, with scalars at the
 * leaves and no lists, so structured-merge-diff's model reduces to paths of field names: a
 * path is its names joined by NUL (a character no label key or field name can hold), a set of
 * fields is a `Set` of paths. Arrays, if a client sends one, are atomic leaves.
 */
export type FieldPath = string;
export type FieldSet = Set<FieldPath>;

const SEP = '\u0000';

export const joinPath = (segments: readonly string[]): FieldPath => segments.join(SEP);
export const splitPath = (path: FieldPath): string[] => path.split(SEP);

/** As kube-apiserver names a field in a conflict: `.spec.replicas`, `.metadata.labels.app`. */
export const pathString = (path: FieldPath): string => `.${splitPath(path).join('.')}`;

export type JsonObject = Record<string, unknown>;

export const isJsonObject = (v: unknown): v is JsonObject =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The part of an instance whose fields have managers: labels, annotations and spec. Status is
 * the apiserver's (reset on every write of the main resource, as for a CRD with a status
 * subresource); name, uid and the other bookkeeping are stripped as kube-apiserver strips them.
 */
export function trackedPart(obj: unknown): JsonObject {
  if (!isJsonObject(obj)) return {};
  const out: JsonObject = {};
  const meta = isJsonObject(obj.metadata) ? obj.metadata : {};
  const metadata: JsonObject = {};
  if (meta.labels !== undefined) metadata.labels = meta.labels;
  if (meta.annotations !== undefined) metadata.annotations = meta.annotations;
  if (Object.keys(metadata).length) out.metadata = metadata;
  if (obj.spec !== undefined) out.spec = obj.spec;
  return out;
}

/** Structural equality of JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (!isJsonObject(a) || !isJsonObject(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every(k => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual(a[k], b[k]));
}

/**
 * The fields an applied configuration sets: its leaves (scalars, arrays, nulls, empty maps),
 * not the maps that hold them, as structured-merge-diff's `ToFieldSet` records an Apply.
 */
export function leafPaths(obj: JsonObject, prefix: string[] = [], out: FieldSet = new Set()): FieldSet {
  for (const [key, value] of Object.entries(obj)) {
    const path = [...prefix, key];
    if (isJsonObject(value) && Object.keys(value).length) leafPaths(value, path, out);
    else out.add(joinPath(path));
  }
  return out;
}

function allPaths(value: unknown, path: string[], out: FieldSet) {
  out.add(joinPath(path));
  if (isJsonObject(value)) for (const [k, v] of Object.entries(value)) allPaths(v, [...path, k], out);
}

/** What changed between two objects, as structured-merge-diff's `Compare` reports it. */
export interface Comparison {
  /** New fields, maps included (a new `labels` map and each of its keys). */
  added: FieldSet;
  /** Fields whose value changed. */
  modified: FieldSet;
  /** Fields gone, maps included. */
  removed: FieldSet;
}

export function compareObjects(before: JsonObject, after: JsonObject): Comparison {
  const cmp: Comparison = { added: new Set(), modified: new Set(), removed: new Set() };
  const walk = (a: JsonObject, b: JsonObject, prefix: string[]) => {
    for (const [key, value] of Object.entries(b)) {
      const path = [...prefix, key];
      if (!Object.prototype.hasOwnProperty.call(a, key)) allPaths(value, path, cmp.added);
      else if (isJsonObject(a[key]) && isJsonObject(value)) walk(a[key] as JsonObject, value, path);
      else if (!jsonEqual(a[key], value)) {
        cmp.modified.add(joinPath(path));
        // a map turned scalar (or back): what was below it is gone, what is below it is new
        if (isJsonObject(a[key])) for (const [k, v] of Object.entries(a[key] as JsonObject)) allPaths(v, [...path, k], cmp.removed);
        if (isJsonObject(value)) for (const [k, v] of Object.entries(value)) allPaths(v, [...path, k], cmp.added);
      }
    }
    for (const [key, value] of Object.entries(a)) {
      if (!Object.prototype.hasOwnProperty.call(b, key)) allPaths(value, [...prefix, key], cmp.removed);
    }
  };
  walk(before, after, []);
  return cmp;
}

export const isEmptyComparison = (c: Comparison) => !c.added.size && !c.modified.size && !c.removed.size;

/** `base` with `config` merged in: maps by key, recursively; anything else replaced; null removes. */
export function mergeConfig(base: JsonObject, config: JsonObject): JsonObject {
  const out: JsonObject = { ...base };
  for (const [key, value] of Object.entries(config)) {
    if (value === null) delete out[key];
    else if (isJsonObject(value) && isJsonObject(out[key])) out[key] = mergeConfig(out[key] as JsonObject, value);
    else out[key] = value;
  }
  return out;
}

/** `obj` without the field at `path`; maps emptied by it go too (spec and metadata stay). */
export function removePath(obj: JsonObject, path: FieldPath): JsonObject {
  const segments = splitPath(path);
  const strip = (node: JsonObject, depth: number): JsonObject => {
    const key = segments[depth];
    if (!Object.prototype.hasOwnProperty.call(node, key)) return node;
    const out = { ...node };
    if (depth === segments.length - 1) delete out[key];
    else if (isJsonObject(node[key])) {
      const child = strip(node[key] as JsonObject, depth + 1);
      if (Object.keys(child).length || depth === 0) out[key] = child;
      else delete out[key];
    }
    return out;
  };
  return strip(obj, 0);
}

export const union = (a: FieldSet, b: FieldSet): FieldSet => new Set([...a, ...b]);
export const difference = (a: FieldSet, b: FieldSet): FieldSet => new Set([...a].filter(p => !b.has(p)));
export const intersection = (a: FieldSet, b: FieldSet): FieldSet => new Set([...a].filter(p => b.has(p)));
