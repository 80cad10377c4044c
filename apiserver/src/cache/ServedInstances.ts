import type { DatabaseInstance } from '@internal/plugin-databases-common';
import { InstanceIndex } from './InstanceIndex';
import type { Projection } from './projectInstance';
import { servedNames, type NameClaim } from './servedNames';
import type { SourceEntry } from './SourceEntries';
import { splitOnce, withRv } from './storeKeys';
import type { InstanceEvent } from './types';

/** One instance as served, with what it was built from. */
export interface ServedInstance {
  instance: DatabaseInstance;
  /** Digest of the projection without resourceVersion, to tell real changes from re-deliveries. */
  fingerprint: string;
  /** Largest RV among the objects it was built from. */
  baseRv: string;
  sourceKey: string;
  /** The source's ready-spec annotation it was built with (see ReadySpecRecorder). */
  readySpec?: string;
  /** The source object's resourceVersion it was built from. */
  sourceRv?: string;
}

/** A member's projection, with the largest RV among the objects it was built from. */
export type GroupProjection = Projection & { baseRv: string };

/** What {@link ServedInstances.recompute} asks of the store. */
export interface RecomputeHooks {
  /** Projects a member under its served name (`conflict`: every claim of the group, when shared). */
  project(
    entry: SourceEntry,
    servedName: string,
    conflict: { claims: NameClaim[]; since: string } | undefined,
  ): GroupProjection;
  /** The uid of a source object as of the change being applied. */
  uidOf(sourceKey: string): string | undefined;
  /** The resourceVersion of the next event, at least `baseRv` (the store's RV moves with it). */
  eventRv(baseRv: string): string;
}

/**
 * The served instances, per name group (`namespace/name`, see servedNames) and per namespace
 * and name, with the read indexes over them. A group is recomputed as a whole: whether its name
 * is shared decides the names its members are served under.
 */
export class ServedInstances {
  private readonly groupServed = new Map<string, Map<string, ServedInstance>>();
  private readonly served = new Map<string, Map<string, ServedInstance>>();
  /** Per shared name group: since when its name has been shared (the condition's time). */
  private readonly conflictSince = new Map<string, string>();
  readonly index = new InstanceIndex(
    ns => [...(this.served.get(ns)?.values() ?? [])].map(s => s.instance),
    () => this.served.keys(),
  );

  constructor(private readonly now: () => number) {}

  get(namespace: string, name: string): ServedInstance | undefined {
    return this.served.get(namespace)?.get(name);
  }

  *all(): Iterable<ServedInstance> {
    for (const byName of this.served.values()) {
      yield* byName.values();
    }
  }

  count(): number {
    let n = 0;
    for (const byName of this.served.values()) {
      n += byName.size;
    }
    return n;
  }

  /**
   * Re-projects the name group `group`, whose claims are now `members`, and swaps what it
   * serves; returns the events that tell watchers, in the order they happened.
   */
  recompute(group: string, members: SourceEntry[], hooks: RecomputeHooks): InstanceEvent[] {
    const [ns] = splitOnce(group, '/');
    const claims: NameClaim[] = members.map(e => ({
      key: e.key,
      name: e.name,
      engine: e.adapter.engine,
      kind: e.kind.kind,
    }));
    if (claims.length > 1) {
      if (!this.conflictSince.has(group)) {
        this.conflictSince.set(
          group,
          new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        );
      }
    } else {
      this.conflictSince.delete(group);
    }
    const names = servedNames(claims);
    const old =
      this.groupServed.get(group) ?? new Map<string, ServedInstance>();
    const next = new Map<string, ServedInstance>();
    const events: InstanceEvent[] = [];

    for (const [oldName, prev] of old) {
      const nowKey = [...names].find(([, n]) => n === oldName)?.[0];
      if (
        nowKey === undefined ||
        nowKey !== prev.sourceKey ||
        hooks.uidOf(nowKey) !== prev.instance.metadata.uid
      ) {
        const rv = hooks.eventRv('0');
        events.push({
          type: 'DELETED',
          object: withRv(prev.instance, rv),
          oldObject: prev.instance,
          resourceVersion: rv,
        });
      }
    }
    const conflict =
      claims.length > 1 ? { claims, since: this.conflictSince.get(group)! } : undefined;
    for (const entry of members) {
      const servedName = names.get(entry.key)!;
      const { projected, baseRv, fingerprint, readySpec, sourceRv } = hooks.project(
        entry,
        servedName,
        conflict,
      );
      const prev = old.get(servedName);
      const same =
        prev &&
        prev.sourceKey === entry.key &&
        prev.instance.metadata.uid === projected.metadata.uid;
      if (same && prev.fingerprint === fingerprint && (prev.sourceRv === sourceRv || prev.readySpec !== readySpec)) {
        // Nothing served changed and the operator object is as it was (a re-delivery, or a
        // related object moved: a member pod's write), or only the apiserver's own record of the
        // Ready spec did: no event and no new resourceVersion, as kube-apiserver answers a write
        // that changes nothing, and a client holding the instance is not refused for a write it
        // cannot see. Any other write of the operator object is a MODIFIED, as its own watch says.
        next.set(
          servedName,
          prev.sourceRv === sourceRv && prev.readySpec === readySpec && prev.baseRv === baseRv
            ? prev
            : { ...prev, baseRv, readySpec, sourceRv },
        );
        continue;
      }
      const rv = hooks.eventRv(baseRv);
      const instance = withRv(projected, rv);
      next.set(servedName, {
        instance,
        fingerprint,
        baseRv,
        sourceKey: entry.key,
        ...(readySpec !== undefined && { readySpec }),
        ...(sourceRv !== undefined && { sourceRv }),
      });
      events.push(
        same
          ? {
              type: 'MODIFIED',
              object: instance,
              oldObject: prev.instance,
              resourceVersion: rv,
            }
          : { type: 'ADDED', object: instance, resourceVersion: rv },
      );
    }
    this.swap(group, ns, old, next, events.length > 0);
    return events;
  }

  /** Replaces the group's served names in the namespace maps and the read indexes. */
  private swap(
    group: string,
    ns: string,
    old: Map<string, ServedInstance>,
    next: Map<string, ServedInstance>,
    changed: boolean,
  ): void {
    const byName = this.served.get(ns) ?? new Map<string, ServedInstance>();
    for (const name of old.keys()) {
      byName.delete(name);
    }
    for (const [name, s] of next) {
      byName.set(name, s);
    }
    if (byName.size) {
      this.served.set(ns, byName);
    } else {
      this.served.delete(ns);
    }
    if (changed) {
      this.index.changed(
        ns,
        [...old.values()].map(s => s.instance),
        [...next.values()].map(s => s.instance),
      );
    }
    if (next.size) {
      this.groupServed.set(group, next);
    } else {
      this.groupServed.delete(group);
    }
  }
}
