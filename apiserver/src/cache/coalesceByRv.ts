import type { InstanceEvent } from './types';

/**
 * One event per instance and resourceVersion. Several states of one instance can come out of a
 * batch at one RV (the instances of a name group re-projected at a change of one of them, a
 * late change released at the last RV beside a current one). Clients keep the first object
 * they get at an RV and drop later ones at the same RV (client-node's informer cache, client-go
 * handlers comparing RVs), so only the last state at an RV goes out, in place of the first,
 * with its type (ADDED stays ADDED) and its old object. A DELETED and an ADDED of a new uid stay
 * two events.
 */
export function coalesceByRv(events: InstanceEvent[]): InstanceEvent[] {
  const out: Array<InstanceEvent | undefined> = [];
  const at = new Map<string, number>();
  for (const e of events) {
    const key = `${e.object.metadata.namespace}/${e.object.metadata.name}|${e.object.metadata.uid}|${e.resourceVersion}`;
    const i = at.get(key);
    const first = i === undefined ? undefined : out[i];
    if (i === undefined || !first) {
      at.set(key, out.push(e) - 1);
    } else if (e.type === 'DELETED') {
      // added and deleted at one RV: nobody could have seen it
      out[i] = first.type === 'ADDED' ? undefined : { ...e, oldObject: first.oldObject ?? e.oldObject };
      if (!out[i]) at.delete(key);
    } else {
      out[i] = { ...first, object: e.object };
    }
  }
  return out.filter((e): e is InstanceEvent => e !== undefined);
}
