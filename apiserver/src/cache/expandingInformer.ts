import { createHash } from 'node:crypto';
import type { KubeObject } from '../adapters/types';
import type { InformerFactory, ResourceInformer } from './ResourceInformer';

type Verb = 'add' | 'update' | 'delete';

/** A uid of the child `name` of the object with uid `parentUid`: the same on every replica, UUID-shaped. */
export function childUid(parentUid: string, name: string): string {
  const h = createHash('sha1').update(`${parentUid}/${name}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const keyOf = (o: KubeObject) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
/** A child as compared between two states of its parent: without the resourceVersion it is stamped with. */
const contentOf = (o: KubeObject) => JSON.stringify({ ...o, metadata: { ...o.metadata, resourceVersion: undefined } });

/**
 * An informer over the objects that the objects of another informer hold (the entries of a list
 * in their spec, e.g. an InnoDBCluster's `spec.backupSchedules[]`), each as an object of its own
 * named by `expand`: the store then serves one object per entry with its machinery unchanged. A
 * child carries its parent's resourceVersion of the change that added, changed or removed it; a
 * change of the parent that leaves a child as it was tells nothing about it.
 */
export function expandingInformer(inner: ResourceInformer, expand: (parent: KubeObject) => KubeObject[]): ResourceInformer {
  const children = new Map<string, Map<string, KubeObject>>();
  // every child by `namespace/name`: the store reads its sources by name on every projection
  const byKey = new Map<string, KubeObject>();
  const listeners: Record<Verb, Array<(obj: KubeObject) => void>> = { add: [], update: [], delete: [] };
  const emit = (verb: Verb, obj: KubeObject) => listeners[verb].forEach(cb => cb(obj));
  const stamped = (child: KubeObject, rv: string | undefined) => ({ ...child, metadata: { ...child.metadata, resourceVersion: rv } });

  const follow = (parent: KubeObject, gone: boolean) => {
    const key = keyOf(parent);
    const rv = parent.metadata?.resourceVersion;
    const before = children.get(key) ?? new Map<string, KubeObject>();
    const after = new Map<string, KubeObject>();
    if (!gone) for (const child of expand(parent)) after.set(keyOf(child), child);
    for (const [k, old] of before)
      if (!after.has(k)) {
        if (byKey.get(k) === old) byKey.delete(k);
        emit('delete', stamped(old, rv));
      }
    const kept = new Map<string, KubeObject>();
    for (const [k, child] of after) {
      const old = before.get(k);
      if (old && contentOf(old) === contentOf(child)) {
        kept.set(k, old);
        continue;
      }
      const now = stamped(child, rv);
      kept.set(k, now);
      byKey.set(k, now);
      emit(old ? 'update' : 'add', now);
    }
    if (kept.size) children.set(key, kept);
    else children.delete(key);
  };
  inner.on('add', o => follow(o, false));
  inner.on('update', o => follow(o, false));
  inner.on('delete', o => follow(o, true));

  const all = function* (namespace?: string) {
    for (const byName of children.values())
      for (const child of byName.values()) if (namespace === undefined || child.metadata?.namespace === namespace) yield child;
  };
  return {
    on(verb: Verb | 'error', cb: (arg: any) => void) {
      if (verb === 'error') inner.on('error', cb);
      else listeners[verb].push(cb);
    },
    start: () => inner.start(),
    stop: () => inner.stop(),
    get: (name, namespace) => byKey.get(`${namespace ?? ''}/${name}`),
    list: namespace => [...all(namespace)],
  };
}

/** `factory` whose informers of a type with `expand` serve the children of its objects (expandingInformer). */
export const expandingFactory =
  (factory: InformerFactory, expand: (parent: KubeObject) => KubeObject[]): InformerFactory =>
  (type, hooks) =>
    expandingInformer(factory(type, hooks), expand);
