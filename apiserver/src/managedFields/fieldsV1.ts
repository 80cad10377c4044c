import { isJsonObject, joinPath, splitPath, type FieldSet, type JsonObject } from './fieldPaths';

interface Trie {
  member: boolean;
  children: Map<string, Trie>;
}

/**
 * A field set in the `FieldsV1` format kube-apiserver serves: `{"f:spec":{"f:replicas":{}}}`,
 * with `".": {}` where a map is itself in the set and has members below it. Keys are sorted, so
 * the same set always encodes to the same bytes (a no-op write must leave the record as it was).
 */
export function toFieldsV1(set: FieldSet): JsonObject {
  const root: Trie = { member: false, children: new Map() };
  for (const path of set) {
    let node = root;
    for (const segment of splitPath(path)) {
      let child = node.children.get(segment);
      if (!child) node.children.set(segment, (child = { member: false, children: new Map() }));
      node = child;
    }
    node.member = true;
  }
  const encode = (node: Trie): JsonObject => {
    const out: JsonObject = {};
    if (node.member && node.children.size) out['.'] = {};
    for (const key of [...node.children.keys()].sort()) out[`f:${key}`] = encode(node.children.get(key)!);
    return out;
  };
  return encode(root);
}

/**
 * The field set of a `FieldsV1` value, or undefined when it is not one this API can hold
 * (a key other than `f:` and `.`, a value that is no object): list keys (`k:`, `v:`, `i:`) name
 * list items, and no DatabaseInstance field is a list.
 */
export function fromFieldsV1(value: unknown): FieldSet | undefined {
  const out: FieldSet = new Set();
  const walk = (node: unknown, prefix: string[]): boolean => {
    if (!isJsonObject(node)) return false;
    const keys = Object.keys(node);
    if (prefix.length && (keys.length === 0 || keys.includes('.'))) out.add(joinPath(prefix));
    for (const key of keys) {
      if (key === '.') {
        if (!isJsonObject(node[key]) || Object.keys(node[key] as JsonObject).length) return false;
        continue;
      }
      if (!key.startsWith('f:') || key.length === 2) return false;
      if (!walk(node[key], [...prefix, key.slice(2)])) return false;
    }
    return true;
  };
  return walk(value, []) ? out : undefined;
}
