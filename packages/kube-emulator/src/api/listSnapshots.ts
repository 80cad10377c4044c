import type { StoredObject } from '../store/types';

/** A paged list's matching objects at one resourceVersion, in key order, and their keys. */
export interface ListSnapshot {
  items: StoredObject[];
  keys: string[];
}

/**
 * Snapshots kept per store: the lists being paged through at once (every informer of a starting
 * apiserver: a dozen); one read to its end is dropped at once (forgetSnapshot).
 */
const LIMIT = 32;
const byStore = new WeakMap<object, Map<string, ListSnapshot>>();

/**
 * The snapshot `id` names (resource, namespace, resourceVersion, selectors) of `store`, made
 * once by `make` and kept for the list's next pages. kube-apiserver serves every page of a list
 * from one etcd snapshot; asked anew per page, the store copied, sorted and filtered every object
 * of the type each time (a label-selected list of 25,000 pods in pages of 500: 50 full copies).
 * Keys are in byte order, as etcd's.
 */
export function listSnapshot(
  store: object,
  id: string,
  make: () => StoredObject[],
  keyOf: (o: StoredObject) => string,
): ListSnapshot {
  let cache = byStore.get(store);
  if (!cache) byStore.set(store, (cache = new Map()));
  const held = cache.get(id);
  if (held) {
    cache.delete(id);
    cache.set(id, held);
    return held;
  }
  const keyed = make().map(o => [keyOf(o), o] as const);
  // byte order, as etcd's (keys are DNS names and slashes: no two alike)
  keyed.sort(([a], [b]) => (a < b ? -1 : 1));
  const snapshot = { items: keyed.map(([, o]) => o), keys: keyed.map(([k]) => k) };
  cache.set(id, snapshot);
  if (cache.size > LIMIT) cache.delete(cache.keys().next().value!);
  return snapshot;
}

/** The index of the first key after `start` in sorted `keys` (0 without a start). */
export function indexAfter(keys: readonly string[], start: string): number {
  if (!start) return 0;
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] <= start) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The list was read to its end: its snapshot goes (a client that lists again gets a new one). */
export function forgetSnapshot(store: object, id: string): void {
  byStore.get(store)?.delete(id);
}
