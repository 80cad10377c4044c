import { describe, expect, it } from '@jest/globals';
import type { DatabaseInstance } from '@internal/plugin-databases-common';
import type { KubeObject, ResourceType } from '../adapters/types';
import type { InstanceEvent } from '../cache/types';
import { KubeHttpError } from '../kube/kubeRequest';
import type { StreamReader } from '../kube/uncachedStream';
import { EventMirror } from './EventMirror';
import { eventOwner, type OwnerCandidate } from './eventOwner';
import { mirroredEvent, mirroredEventName } from './mirroredEvent';

const candidate = (name: string, kind = 'MariaDB', apiVersion = 'k8s.mariadb.com/v1alpha1'): OwnerCandidate => ({
  namespace: 'team-a',
  name,
  uid: `uid-${name}`,
  source: { apiVersion, kind, name },
});
const finder = (...known: OwnerCandidate[]) => (namespace: string, name: string) =>
  known.find(k => k.namespace === namespace && k.name === name);

/** A core/v1 Event as kubelet, the scheduler or an operator writes it. */
const event = (
  kind: string,
  name: string,
  extra: Record<string, unknown> = {},
  apiVersion = kind === 'StatefulSet' ? 'apps/v1' : 'v1',
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: `${name}.17f0a1b2c3d4e5f6`, namespace: 'team-a', uid: `ev-${kind}-${name}`, resourceVersion: '5' },
  involvedObject: { apiVersion, kind, name, namespace: 'team-a', uid: `obj-${name}` },
  reason: 'BackOff',
  message: 'Back-off restarting failed container mariadb',
  type: 'Warning',
  count: 3,
  firstTimestamp: '2026-12-01T10:00:00Z',
  lastTimestamp: '2026-12-01T10:05:00Z',
  source: { component: 'kubelet', host: 'node-1' },
  ...extra,
} as KubeObject);

describe('eventOwner', () => {
  const find = finder(candidate('orders'), candidate('orders-db'), candidate('search', 'Elasticsearch', 'elasticsearch.k8s.elastic.co/v1'));

  it.each([
    ['the operator object itself', event('MariaDB', 'orders-db', {}, 'k8s.mariadb.com/v1alpha1'), 'orders-db'],
    ['its StatefulSet, named after it', event('StatefulSet', 'orders-db'), 'orders-db'],
    ['a pod, the longest instance name first', event('Pod', 'orders-db-0'), 'orders-db'],
    ['a pod of a node set (ECK)', event('Pod', 'search-es-default-0'), 'search'],
    ['a claim with its template name first (mariadb-operator storage-<pod>)', event('PersistentVolumeClaim', 'storage-orders-db-1'), 'orders-db'],
    ['a claim named as its pod (CloudNativePG)', event('PersistentVolumeClaim', 'orders-1'), 'orders'],
    ['a Job of the instance', event('Job', 'orders-db-backup-29104'), 'orders-db'],
  ])('%s', (_what, e, owner) => {
    expect(eventOwner(e, find)?.name).toBe(owner);
  });

  it.each([
    ['an instance itself (the mirror\'s own)', event('DatabaseInstance', 'orders', {}, 'dbaas.platform.dev/v1alpha1')],
    ['an operator object of another kind with the name', event('Elasticsearch', 'orders', {}, 'elasticsearch.k8s.elastic.co/v1')],
    ['the same kind in another group', event('MariaDB', 'orders', {}, 'example.com/v1')],
    ['a pod named after nothing served', event('Pod', 'payments-7d9f-abcde')],
    ['an object in another namespace', { ...event('Pod', 'orders-0'), involvedObject: { kind: 'Pod', name: 'orders-0', namespace: 'team-b' } } as KubeObject],
    ['a member kind of a custom group', event('Pod', 'orders-0', {}, 'example.com/v1')],
    ['an event without an involved object', { apiVersion: 'v1', kind: 'Event', metadata: { name: 'x', namespace: 'team-a' } }],
  ])('none for %s', (_what, e) => {
    expect(eventOwner(e, find)).toBeUndefined();
  });
});

describe('mirroredEvent', () => {
  it("is the instance's own core/v1 Event, naming the member in the message, with its series carried over", () => {
    const mirror = mirroredEvent(event('Pod', 'orders-db-0'), candidate('orders-db')) as any;
    expect(mirror).toMatchObject({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: mirroredEventName(candidate('orders-db'), 'ev-Pod-orders-db-0'), namespace: 'team-a' },
      involvedObject: { apiVersion: 'dbaas.platform.dev/v1alpha1', kind: 'DatabaseInstance', name: 'orders-db', namespace: 'team-a', uid: 'uid-orders-db' },
      related: { kind: 'Pod', name: 'orders-db-0' },
      reason: 'BackOff',
      message: 'Pod orders-db-0: Back-off restarting failed container mariadb',
      type: 'Warning',
      count: 3,
      firstTimestamp: '2026-12-01T10:00:00Z',
      lastTimestamp: '2026-12-01T10:05:00Z',
      source: { component: 'kubelet', host: 'node-1' },
    });
    expect(mirror.metadata.name).toMatch(/^orders-db\.[0-9a-f]{16}$/);
  });

  it("keeps the operator's message as it is for the operator object's own events", () => {
    const e = event('MariaDB', 'orders-db', { message: 'Galera cluster is healthy', source: { component: 'mariadb-operator' } }, 'k8s.mariadb.com/v1alpha1');
    expect(mirroredEvent(e, candidate('orders-db'))).toMatchObject({ message: 'Galera cluster is healthy', source: { component: 'mariadb-operator' } });
  });

  it('gives an events.k8s.io-style event (eventTime, series, reportingController) the times and source kubectl shows', () => {
    const e = event('Pod', 'orders-db-0', {
      firstTimestamp: null,
      lastTimestamp: null,
      count: undefined,
      source: undefined,
      eventTime: '2026-12-01T10:00:00.123456Z',
      series: { count: 7, lastObservedTime: '2026-12-01T10:09:00.654321Z' },
      reportingComponent: 'default-scheduler',
    });
    expect(mirroredEvent(e, candidate('orders-db'))).toMatchObject({
      count: 7,
      firstTimestamp: '2026-12-01T10:00:00Z',
      lastTimestamp: '2026-12-01T10:09:00Z',
      source: { component: 'default-scheduler' },
    });
  });
});

/** A stream whose events the test delivers, and a store of the instances given. */
function rig(instances: OwnerCandidate[], options: { maxPerInstance?: number; failCreate?: (e: KubeObject) => unknown } = {}) {
  let reader!: StreamReader;
  let watcher: ((e: InstanceEvent) => void) | undefined;
  const cluster = new Map<string, KubeObject>();
  const calls: string[] = [];
  const deliver = (verb: 'add' | 'update' | 'delete', e: KubeObject) =>
    reader.observe(e, ({ add: 'ADDED', update: 'MODIFIED', delete: 'DELETED' } as const)[verb]);
  const writer = {
    create: async (_t: ResourceType, o: KubeObject) => {
      calls.push(`create ${o.metadata?.name}`);
      const failure = options.failCreate?.(o);
      if (failure) throw failure;
      if (cluster.has(o.metadata!.name!)) throw new KubeHttpError(409, { kind: 'Status', code: 409, reason: 'AlreadyExists' } as never);
      cluster.set(o.metadata!.name!, o);
      deliver('add', o); // its watch brings it back
      return o;
    },
    mergePatch: async (_t: ResourceType, _ns: string, name: string, patch: any) => {
      calls.push(`patch ${name} count=${patch.count}`);
      const next = { ...cluster.get(name)!, ...patch };
      cluster.set(name, next);
      deliver('update', next);
      return next;
    },
    delete: async (_t: ResourceType, _ns: string, name: string) => {
      calls.push(`delete ${name}`);
      const gone = cluster.get(name);
      cluster.delete(name);
      if (gone) deliver('delete', gone);
      return undefined;
    },
  };
  const store = {
    whenSynced: async () => undefined,
    watch: (_rv: string | undefined, cb: (e: InstanceEvent) => void) => {
      watcher = cb;
      return { stop: () => undefined };
    },
    get: (ns: string, name: string) => {
      const c = instances.find(i => i.namespace === ns && i.name === name);
      return c && ({ metadata: { name, namespace: ns, uid: c.uid } } as DatabaseInstance);
    },
    source: (ns: string, name: string) => {
      const c = instances.find(i => i.namespace === ns && i.name === name);
      return c && ({ object: { apiVersion: c.source.apiVersion, kind: c.source.kind, metadata: { name } } } as never);
    },
  };
  const warnings: string[] = [];
  const mirror = new EventMirror({
    store: store as never,
    writer: writer as never,
    watchEvents: r => {
      reader = r;
      return { start: async () => undefined, stop: async () => undefined };
    },
    maxPerInstance: options.maxPerInstance,
    logger: { warn: m => warnings.push(m) },
  });
  return { mirror, deliver, cluster, calls, warnings, relist: (items: KubeObject[]) => {
      reader.relisting?.();
      items.forEach(e => reader.observe(e, 'ADDED'));
      reader.listed?.();
    }, deleteInstance: (name: string) => watcher?.({ type: 'DELETED', object: { metadata: { name, namespace: 'team-a' } } } as never, ) };
}

describe('EventMirror', () => {
  it("writes an instance's member event once as the instance's own, and a repeat as a new count of the same", async () => {
    const r = rig([candidate('orders-db')]);
    await r.mirror.start();
    r.deliver('add', event('Pod', 'orders-db-0'));
    await r.mirror.idle();
    const [mirror] = [...r.cluster.values()] as any[];
    expect(mirror.involvedObject).toMatchObject({ kind: 'DatabaseInstance', name: 'orders-db' });
    // the same event again (a relist): nothing written
    r.deliver('update', event('Pod', 'orders-db-0'));
    await r.mirror.idle();
    expect(r.calls).toHaveLength(1);
    // kube counts the repeat on the same event: the mirror's count follows
    r.deliver('update', event('Pod', 'orders-db-0', { count: 4, lastTimestamp: '2026-12-01T10:06:00Z' }));
    await r.mirror.idle();
    expect(r.calls).toEqual([expect.stringMatching(/^create /), expect.stringMatching(/^create /), expect.stringMatching(/^patch .* count=4$/)]);
    expect(r.cluster.size).toBe(1);
    expect([...r.cluster.values()][0]).toMatchObject({ count: 4, lastTimestamp: '2026-12-01T10:06:00Z' });
  });

  it('keeps the newest few per instance and deletes the older ones', async () => {
    const r = rig([candidate('orders-db')], { maxPerInstance: 3 });
    await r.mirror.start();
    for (let i = 0; i < 5; i++)
      r.deliver('add', event('Pod', `orders-db-${i}`, { lastTimestamp: `2026-12-01T10:0${i}:00Z` }));
    await r.mirror.idle();
    expect([...r.cluster.values()].map((e: any) => e.related.name).sort()).toEqual(['orders-db-2', 'orders-db-3', 'orders-db-4']);
  });

  it('a mirror another replica wrote counts toward the bound and is not written again', async () => {
    const r = rig([candidate('orders-db')], { maxPerInstance: 1 });
    await r.mirror.start();
    const theirs = mirroredEvent(event('Pod', 'orders-db-0'), candidate('orders-db'));
    r.cluster.set(theirs.metadata!.name!, theirs);
    r.deliver('add', theirs);
    r.deliver('add', event('Pod', 'orders-db-0'));
    await r.mirror.idle();
    expect(r.calls).toEqual([]);
    r.deliver('add', event('Pod', 'orders-db-1', { lastTimestamp: '2026-12-01T11:00:00Z' }));
    await r.mirror.idle();
    expect(r.calls).toEqual([expect.stringMatching(/^create orders-db\./), `delete ${theirs.metadata!.name}`]);
  });

  it('ignores events about nothing it serves and its own kind', async () => {
    const r = rig([candidate('orders-db')]);
    await r.mirror.start();
    r.deliver('add', event('Pod', 'payments-0'));
    r.deliver('add', event('DatabaseInstance', 'orders-db', {}, 'dbaas.platform.dev/v1alpha1'));
    await r.mirror.idle();
    expect(r.calls).toEqual([]);
  });

  it('a relist rebuilds the rings from the mirrors that exist: one gone while the watch was down no longer counts', async () => {
    const r = rig([candidate('orders-db')], { maxPerInstance: 2 });
    await r.mirror.start();
    r.deliver('add', event('Pod', 'orders-db-0', { lastTimestamp: '2026-12-01T10:00:00Z' }));
    r.deliver('add', event('Pod', 'orders-db-1', { lastTimestamp: '2026-12-01T10:01:00Z' }));
    await r.mirror.idle();
    const [first, second] = [...r.cluster.values()];
    // expired by kube while the watch was down: the relist lists only the other
    r.cluster.delete(first.metadata!.name!);
    r.relist([second]);
    r.deliver('add', event('Pod', 'orders-db-2', { lastTimestamp: '2026-12-01T10:02:00Z' }));
    await r.mirror.idle();
    expect(r.cluster.size).toBe(2);
    expect(r.calls.filter(c => c.startsWith('delete'))).toEqual([]);
  });

  it('a mirror deleted by kube (its TTL) leaves the ring, so it no longer counts toward the bound', async () => {
    const r = rig([candidate('orders-db')], { maxPerInstance: 2 });
    await r.mirror.start();
    r.deliver('add', event('Pod', 'orders-db-0', { lastTimestamp: '2026-12-01T10:00:00Z' }));
    r.deliver('add', event('Pod', 'orders-db-1', { lastTimestamp: '2026-12-01T10:01:00Z' }));
    await r.mirror.idle();
    const [first] = [...r.cluster.values()];
    r.cluster.delete(first.metadata!.name!);
    r.deliver('delete', first);
    r.deliver('add', event('Pod', 'orders-db-2', { lastTimestamp: '2026-12-01T10:02:00Z' }));
    await r.mirror.idle();
    // two left, none deleted by the mirror: the expired one made room
    expect(r.cluster.size).toBe(2);
    expect(r.calls.filter(c => c.startsWith('delete'))).toEqual([]);
  });

  it('says once that it may not write events, and stops trying', async () => {
    const forbidden = new KubeHttpError(403, { kind: 'Status', code: 403, reason: 'Forbidden', message: 'events is forbidden' } as never);
    const r = rig([candidate('orders-db')], { failCreate: () => forbidden });
    await r.mirror.start();
    r.deliver('add', event('Pod', 'orders-db-0'));
    await r.mirror.idle();
    r.deliver('add', event('Pod', 'orders-db-1'));
    await r.mirror.idle();
    expect(r.calls).toHaveLength(1);
    expect(r.warnings).toEqual([expect.stringContaining('Cannot write events (forbidden)')]);
  });

  it('forgets the mirrors of an instance that is deleted', async () => {
    const r = rig([candidate('orders-db')], { maxPerInstance: 1 });
    await r.mirror.start();
    r.deliver('add', event('Pod', 'orders-db-0'));
    await r.mirror.idle();
    r.deleteInstance('orders-db');
    r.cluster.clear();
    // the same event again writes again: nothing of the old instance is remembered
    r.deliver('update', event('Pod', 'orders-db-0'));
    await r.mirror.idle();
    expect(r.calls.filter(c => c.startsWith('create'))).toHaveLength(2);
  });
});
