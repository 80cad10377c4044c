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

/** Which of two parents claiming one child name keeps it: the older, then the smaller name (the same on every replica). */
type Rank = readonly [created: string, name: string];
const rankOf = (parent: KubeObject): Rank => [parent.metadata?.creationTimestamp ?? '', parent.metadata?.name ?? ''];
const before = (a: Rank, b: Rank) => (a[0] !== b[0] ? a[0] < b[0] : a[1] < b[1]);

/**
 * An informer over the objects that the objects of another informer hold (the entries of a list
 * in their spec, e.g. an InnoDBCluster's `spec.backupSchedules[]`), each as an object of its own
 * named by `expand`: the store then serves one object per entry with its machinery unchanged. A
 * child carries its parent's resourceVersion of the change that added, changed or removed it; a
 * change of the parent that leaves a child as it was tells nothing about it. Two parents can name
 * a child alike (`a-b` with entry `c`, `a` with entry `b-c`): the older parent's is served, the
 * other's only once that one is gone (then as a new object: another uid).
 */
export function expandingInformer(inner: ResourceInformer, expand: (parent: KubeObject) => KubeObject[]): ResourceInformer {
  /** Parent key → its children by key, as last stamped. */
  const children = new Map<string, Map<string, KubeObject>>();
  /** Child key → the parents naming it, with their ranks. */
  const claimants = new Map<string, Map<string, Rank>>();
  /** Child key → the child served under it, and its parent. */
  const served = new Map<string, { parent: string; child: KubeObject }>();
  const listeners: Record<Verb, Array<(obj: KubeObject) => void>> = { add: [], update: [], delete: [] };
  const emit = (verb: Verb, obj: KubeObject) => listeners[verb].forEach(cb => cb(obj));
  const stamped = (child: KubeObject, rv: string | undefined) => ({ ...child, metadata: { ...child.metadata, resourceVersion: rv } });

  /** The child `key` as the parents claiming it now decide, told as a change at `rv` if it is one. */
  const settle = (key: string, rv: string | undefined) => {
    let winner: string | undefined;
    let best: Rank | undefined;
    for (const [parent, rank] of claimants.get(key) ?? []) {
      if (!best || before(rank, best)) [winner, best] = [parent, rank];
    }
    const prev = served.get(key);
    const next = winner === undefined ? undefined : children.get(winner)?.get(key);
    if (prev?.child === next) return;
    if (!next || winner === undefined) {
      served.delete(key);
      emit('delete', stamped(prev!.child, rv));
      return;
    }
    if (prev && prev.parent !== winner) {
      // another parent's child takes the name: a new object, told at this change
      emit('delete', stamped(prev.child, rv));
      const now = stamped(next, rv);
      children.get(winner)!.set(key, now);
      served.set(key, { parent: winner, child: now });
      emit('add', now);
      return;
    }
    served.set(key, { parent: winner, child: next });
    emit(prev ? 'update' : 'add', next);
  };

  const follow = (parent: KubeObject, gone: boolean) => {
    const key = keyOf(parent);
    const rv = parent.metadata?.resourceVersion;
    const old = children.get(key) ?? new Map<string, KubeObject>();
    const kept = new Map<string, KubeObject>();
    if (!gone)
      for (const child of expand(parent)) {
        const k = keyOf(child);
        const was = old.get(k);
        kept.set(k, was && contentOf(was) === contentOf(child) ? was : stamped(child, rv));
      }
    if (kept.size) children.set(key, kept);
    else children.delete(key);
    const rank = rankOf(parent);
    const claim = (k: string, holds: boolean) => {
      const claims = claimants.get(k) ?? new Map<string, Rank>();
      if (holds) claims.set(key, rank);
      else claims.delete(key);
      if (claims.size) claimants.set(k, claims);
      else claimants.delete(k);
    };
    // removals first, then the children in the parent's order
    for (const k of old.keys()) if (!kept.has(k)) claim(k, false);
    for (const k of old.keys()) if (!kept.has(k)) settle(k, rv);
    for (const k of kept.keys()) claim(k, true);
    for (const k of kept.keys()) settle(k, rv);
  };
  inner.on('add', o => follow(o, false));
  inner.on('update', o => follow(o, false));
  inner.on('delete', o => follow(o, true));

  return {
    on(verb: Verb | 'error', cb: (arg: any) => void) {
      if (verb === 'error') inner.on('error', cb);
      else listeners[verb].push(cb);
    },
    start: () => inner.start(),
    stop: () => inner.stop(),
    // the store reads its sources by name on every projection: by key, not by a scan
    get: (name, namespace) => served.get(`${namespace ?? ''}/${name}`)?.child,
    list: namespace =>
      [...served.values()].map(s => s.child).filter(c => namespace === undefined || c.metadata?.namespace === namespace),
  };
}

/** `factory` whose informers of a type with `expand` serve the children of its objects (expandingInformer). */
export const expandingFactory =
  (factory: InformerFactory, expand: (parent: KubeObject) => KubeObject[]): InformerFactory =>
  (type, hooks) =>
    expandingInformer(factory(type, hooks), expand);
