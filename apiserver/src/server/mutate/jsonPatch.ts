/** One RFC 6902 operation as it comes off the wire (checked when applied). */
export interface JsonPatchOperation {
  op: string;
  path: string;
  from?: string;
  value?: unknown;
}

/** Why an operation cannot be applied; `index` is its position in the patch. */
export class JsonPatchError extends Error {
  constructor(
    message: string,
    readonly index: number,
  ) {
    super(message);
    this.name = 'JsonPatchError';
  }
}

type Container = Record<string, unknown> | unknown[];

/** Most that the `copy` operations of one patch may add (kube-apiserver's body limit, 3 MiB). */
export const MAX_COPIED_BYTES = 3 * 1024 * 1024;

const isContainer = (v: unknown): v is Container => v !== null && typeof v === 'object';

/** RFC 6901 pointer to reference tokens (`~1` is `/`, `~0` is `~`). */
function tokens(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`invalid JSON pointer ${JSON.stringify(pointer)}`);
  return pointer
    .slice(1)
    .split('/')
    .map(t => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function arrayIndex(arr: unknown[], token: string, forInsert: boolean): number {
  if (forInsert && token === '-') return arr.length;
  if (!/^(0|[1-9]\d*)$/.test(token)) throw new Error(`invalid array index ${JSON.stringify(token)}`);
  const i = Number(token);
  if (i > arr.length || (!forInsert && i === arr.length)) throw new Error(`array index ${i} out of bounds`);
  return i;
}

/** The member or element `token` of `node`; a missing one is an error naming `pointer`. */
function child(node: unknown, token: string, pointer: string): unknown {
  if (Array.isArray(node)) return node[arrayIndex(node, token, false)];
  if (isContainer(node) && Object.prototype.hasOwnProperty.call(node, token)) return (node as Record<string, unknown>)[token];
  throw new Error(`path ${pointer} does not exist`);
}

/** The parent container of `pointer` and the last token (the document itself has no parent). */
function parentOf(doc: unknown, pointer: string): { parent: Container; key: string } {
  const path = tokens(pointer);
  if (path.length === 0) throw new Error('the root cannot be the target');
  let node = doc;
  for (const token of path.slice(0, -1)) node = child(node, token, pointer);
  if (!isContainer(node)) throw new Error(`path ${pointer} does not exist`);
  return { parent: node, key: path[path.length - 1] };
}

function get(doc: unknown, pointer: string): unknown {
  let node = doc;
  for (const token of tokens(pointer)) node = child(node, token, pointer);
  return node;
}

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function add(doc: unknown, pointer: string, value: unknown): unknown {
  if (pointer === '') return value;
  const { parent, key } = parentOf(doc, pointer);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, true), 0, value);
  else {
    if (UNSAFE_KEYS.has(key)) throw new Error(`refusing to set ${JSON.stringify(key)}`);
    parent[key] = value;
  }
  return doc;
}

function remove(doc: unknown, pointer: string): unknown {
  const { parent, key } = parentOf(doc, pointer);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, false), 1);
  else if (Object.prototype.hasOwnProperty.call(parent, key)) delete parent[key];
  else throw new Error(`path ${pointer} does not exist`);
  return doc;
}

const clone = <T>(v: T): T => (v === undefined ? v : JSON.parse(JSON.stringify(v)));

/** JSON equality as RFC 6902 `test` defines it (key order of objects does not matter). */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => equal(x, b[i]));
  }
  if (!isContainer(a) || !isContainer(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b as object);
  return ka.length === kb.length && ka.every(k => Object.prototype.hasOwnProperty.call(b, k) && equal((a as any)[k], (b as any)[k]));
}

/**
 * Applies an RFC 6902 JSON patch to a copy of `doc` and returns it. Operations run in order and
 * all or nothing: the first one that cannot be applied (a failed `test`, a missing path, an
 * unknown op or a malformed operation) throws a JsonPatchError naming its index.
 */
export function applyJsonPatch(doc: unknown, patch: readonly JsonPatchOperation[]): unknown {
  let result = clone(doc);
  // each `copy` can double the document: cap what all copies add, as kube-apiserver caps its
  // json-patch library (AccumulatedCopySizeLimit = the 3 MiB body limit)
  let copied = 0;
  patch.forEach((operation, index) => {
    try {
      if (!isContainer(operation) || Array.isArray(operation)) throw new Error('an operation must be an object');
      const { op, path, from } = operation;
      if (typeof path !== 'string') throw new Error('"path" is required');
      const needsValue = op === 'add' || op === 'replace' || op === 'test';
      if (needsValue && !('value' in operation)) throw new Error(`"value" is required for ${op}`);
      if ((op === 'move' || op === 'copy') && typeof from !== 'string') throw new Error(`"from" is required for ${op}`);
      switch (op) {
        case 'add':
          result = add(result, path, clone(operation.value));
          break;
        case 'remove':
          result = remove(result, path);
          break;
        case 'replace':
          get(result, path);
          result = path === '' ? clone(operation.value) : add(remove(result, path), path, clone(operation.value));
          break;
        case 'move': {
          if (path.startsWith(`${from}/`)) throw new Error(`cannot move ${from} into itself`);
          const value = get(result, from!);
          result = add(remove(result, from!), path, value);
          break;
        }
        case 'copy': {
          const text = JSON.stringify(get(result, from!)) ?? 'null';
          copied += text.length;
          if (copied > MAX_COPIED_BYTES) throw new Error(`the copies of this patch add more than ${MAX_COPIED_BYTES} bytes`);
          result = add(result, path, JSON.parse(text));
          break;
        }
        case 'test':
          if (!equal(get(result, path), operation.value)) throw new Error(`test of ${path} failed: the value is not ${JSON.stringify(operation.value)}`);
          break;
        default:
          throw new Error(`unknown operation ${JSON.stringify(op)}`);
      }
    } catch (e) {
      throw new JsonPatchError((e as Error).message, index);
    }
  });
  return result;
}
