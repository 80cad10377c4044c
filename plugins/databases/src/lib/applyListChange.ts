/** What applyListChange needs of an object: its name and resourceVersion. */
interface Named {
  metadata: { name?: string; resourceVersion?: string };
}

/** Is `a` an older state of the same object than `b`? resourceVersions are opaque; one cluster's are integers in practice. */
function older(a: Named, b: Named): boolean {
  const x = Number(a.metadata.resourceVersion);
  const y = Number(b.metadata.resourceVersion);
  return Number.isFinite(x) && Number.isFinite(y) && x < y;
}

/**
 * A live list after one change: an object is known by its name. A change older than what is
 * shown is dropped: the answer to a write may arrive after the stream already moved it on.
 */
export function applyListChange<T extends Named>(
  list: T[],
  type: 'ADDED' | 'MODIFIED' | 'DELETED',
  object: T,
  order: (a: T, b: T) => number,
): T[] {
  const shown = list.find(o => o.metadata.name === object.metadata.name);
  const others = list.filter(o => o.metadata.name !== object.metadata.name);
  if (type === 'DELETED') return others;
  if (shown && older(object, shown)) return list;
  return [...others, object].sort(order);
}
