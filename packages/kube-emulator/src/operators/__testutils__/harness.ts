import { OperatorEmulator } from '../OperatorEmulator';
import type { StoredObject } from '../../store/types';
import type { CustomKind } from '../types';
import { fakeCluster } from './fakeCluster';
import { upstreamErrors } from './upstream';

export const NS = 'team-a';

/** A fake cluster with the emulator (not started: tests drive it with tick/settle) and helpers. */
export function harness() {
  const store = fakeCluster();
  store.create(
    { group: '', version: 'v1', plural: 'namespaces' },
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } },
  );
  let clock = Date.parse('2025-01-01T00:00:00Z');
  const emulator = new OperatorEmulator({
    store,
    now: () => new Date((clock += 1000)),
    logger: {
      warn: (m, f) => {
        throw new Error(`${m} ${JSON.stringify(f)}`);
      },
    },
  });
  const h = {
    store,
    emulator,
    create(
      kind: CustomKind,
      name: string,
      spec: Record<string, unknown>,
    ): StoredObject {
      return store.create(kind, {
        apiVersion: `${kind.group}/${kind.version}`,
        kind: kind.kind,
        metadata: { name, namespace: NS },
        spec,
      });
    },
    get(kind: CustomKind, name: string): StoredObject {
      const o = store.get(kind, NS, name);
      if (!o) throw new Error(`${kind.kind} ${name} not found`);
      return o;
    },
    patchSpec(
      kind: CustomKind,
      name: string,
      mutate: (spec: any) => void,
    ): StoredObject {
      const o = h.get(kind, name);
      mutate(o.spec);
      return store.update(kind, o);
    },
    sts(name: string): StoredObject | undefined {
      return store.get(
        { group: 'apps', version: 'v1', plural: 'statefulsets' },
        NS,
        name,
      );
    },
    names(
      plural: 'services' | 'secrets' | 'statefulsets' | 'deployments',
    ): string[] {
      const group =
        plural === 'statefulsets' || plural === 'deployments' ? 'apps' : '';
      return store
        .list({ group, version: 'v1', plural }, NS)
        .map(o => o.metadata.name)
        .sort();
    },
    /** Objects in the namespace owned (controller ownerReference) by `owner`. */
    owned(owner: StoredObject): string[] {
      return (
        ['services', 'secrets', 'statefulsets', 'deployments'] as const
      ).flatMap(plural => {
        const group =
          plural === 'statefulsets' || plural === 'deployments' ? 'apps' : '';
        return store
          .list({ group, version: 'v1', plural }, NS)
          .filter(o =>
            (o.metadata.ownerReferences ?? []).some(
              r =>
                r.uid === owner.metadata.uid &&
                r.controller === true &&
                r.kind === owner.kind,
            ),
          )
          .map(o => `${plural}/${o.metadata.name}`);
      });
    },
    /** Every distinct status written for one object, in order. */
    statuses(kind: CustomKind, name: string): Array<Record<string, any>> {
      const out: Array<Record<string, any>> = [];
      for (const e of store.events) {
        if (
          e.resource.kind !== kind.kind ||
          e.object.metadata.name !== name ||
          !e.object.status
        )
          continue;
        const s = e.object.status as Record<string, any>;
        if (JSON.stringify(out[out.length - 1]) !== JSON.stringify(s))
          out.push(s);
      }
      return out;
    },
    /** Upstream-schema errors of every status written for kind (empty when all valid). */
    upstreamStatusErrors(kind: CustomKind): string[] {
      return store.events
        .filter(e => e.resource.kind === kind.kind && e.object.status)
        .flatMap(e =>
          upstreamErrors(e.object, kind, 'status').map(
            m => `${e.object.metadata.name}: ${m}`,
          ),
        );
    },
    /** Ticks until `pred` holds (at most `max` rounds); returns the rounds it took. */
    tickUntil(pred: () => boolean, max = 50): number {
      for (let i = 1; i <= max; i++) {
        emulator.tick();
        if (pred()) return i;
      }
      throw new Error(`condition not reached in ${max} rounds`);
    },
  };
  return h;
}

/** type/status/reason/message of a condition (what the shape comparisons look at). */
export const shape = (c: any) => ({
  type: c?.type,
  status: c?.status,
  reason: c?.reason,
  message: c?.message,
});

export const condition = (status: any, type: string) =>
  (status?.conditions ?? []).find((c: any) => c.type === type);
