import { afterEach, describe, expect, it } from '@jest/globals';
import type { KubeObject, ResourceType } from '../adapters/types';
import { resourceName } from '../kube/resourcePath';
import { InformerInstanceStore } from './InformerInstanceStore';
import { FakeInformer, fakeInformers } from './testInformer';
import {
  crdFor,
  fakeMariadbAdapter,
  fakeRedisAdapter,
  MARIADB_KIND,
  obj,
  REDIS_KIND,
  STATEFULSETS,
} from './testAdapters';
import { ResourceVersionExpiredError, type InstanceEvent } from './types';

const settle = (ms = 30) => new Promise(r => setTimeout(r, ms));

function setup(
  options: { historyMaxEvents?: number; clusterResourceVersion?: () => Promise<string | undefined>; lateChangeMaxWaitMs?: number; syncsAfter?: Promise<void> } = {},
) {
  const informers = new Map<string, FakeInformer>();
  const created: string[] = [];
  let clock = Date.parse('2026-03-01T10:00:00Z');
  const store = new InformerInstanceStore({
    adapters: [fakeRedisAdapter, fakeMariadbAdapter],
    informerFactory: (type: ResourceType, hooks) => {
      const f = new FakeInformer(hooks);
      informers.set(resourceName(type), f);
      created.push(resourceName(type));
      return f;
    },
    batchWindowMs: 5,
    historyMaxEvents: options.historyMaxEvents,
    clusterResourceVersion: options.clusterResourceVersion,
    lateChangeMaxWaitMs: options.lateChangeMaxWaitMs,
    syncsAfter: options.syncsAfter,
    restartBackoff: { initialMs: 10, maxMs: 40 },
    now: () => clock,
  });
  const events: InstanceEvent[] = [];
  const inf = (type: { group: string; plural: string }) =>
    informers.get(resourceName(type))!;
  return {
    store,
    events,
    created,
    inf,
    crds: () =>
      informers.get('customresourcedefinitions.apiextensions.k8s.io')!,
    sts: () => inf(STATEFULSETS),
    tick: (ms: number) => (clock += ms),
  };
}

const redis = (name: string, rv: string, ns = 'team-a') =>
  obj(REDIS_KIND, ns, name, rv, { spec: { replicas: 1 } });
const sts = (name: string, rv: string, ready: number, ns = 'team-a') =>
  obj(STATEFULSETS, ns, name, rv, {
    spec: { replicas: 1 },
    status: { readyReplicas: ready },
  });
const mariadb = (name: string, rv: string, ready = true, ns = 'team-a') =>
  obj(MARIADB_KIND, ns, name, rv, {
    status: {
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
    },
  });

/** A store synced with both operators installed and the given objects listed. */
async function synced(
  opts: {
    redis?: KubeObject[];
    sts?: KubeObject[];
    mariadb?: KubeObject[];
    historyMaxEvents?: number;
    clusterResourceVersion?: () => Promise<string | undefined>;
    lateChangeMaxWaitMs?: number;
  } = {},
) {
  const t = setup(opts);
  t.store.start();
  t.crds().listed(crdFor(REDIS_KIND, '10'), crdFor(MARIADB_KIND, '11'));
  t.sts().listed(...(opts.sts ?? []));
  t.inf(REDIS_KIND).listed(...(opts.redis ?? []));
  t.inf(MARIADB_KIND).listed(...(opts.mariadb ?? []));
  await settle();
  expect(t.store.hasSynced()).toBe(true);
  t.store.watch(undefined, e => t.events.push(e));
  return t;
}

const summary = (events: InstanceEvent[]) =>
  events.map(
    e =>
      `${e.type} ${e.object.metadata.namespace}/${e.object.metadata.name} ${e.resourceVersion}`,
  );

describe('InformerInstanceStore', () => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  it('is synced only after the CRD, related and every installed kind informer listed', async () => {
    const t = setup();
    stop = () => t.store.stop();
    t.store.start();
    expect(t.created.sort()).toEqual([
      'customresourcedefinitions.apiextensions.k8s.io',
      'statefulsets.apps',
    ]);
    t.crds().listed(crdFor(REDIS_KIND, '10'));
    t.sts().listed(sts('orders', '20', 1));
    await settle();
    expect(t.store.hasSynced()).toBe(false); // redis informer started, not listed yet
    expect(t.inf(REDIS_KIND).running).toBe(true);
    expect(t.created).not.toContain(resourceName(MARIADB_KIND)); // not installed: never watched
    t.inf(REDIS_KIND).listed(redis('orders', '15'));
    await settle();
    expect(t.store.hasSynced()).toBe(true);
    expect(t.store.resourceVersion()).toBe('20');
  });

  it('with syncsAfter, is synced only once that is in too (the backup stores a first list must include)', async () => {
    let backupsIn = () => {};
    const t = setup({ syncsAfter: new Promise<void>(resolve => (backupsIn = resolve)) });
    stop = () => t.store.stop();
    t.store.start();
    t.crds().listed(crdFor(REDIS_KIND, '10'));
    t.sts().listed();
    t.inf(REDIS_KIND).listed(redis('orders', '15'));
    await settle();
    expect(t.store.hasSynced()).toBe(false);
    const whenSynced = t.store.whenSynced();
    backupsIn();
    await whenSynced;
    expect(t.store.list().map(i => i.metadata.name)).toEqual(['orders']);
  });

  it('starts its history at the lists\' resourceVersion, so a watch from before the sync gets 410 even with no instances', async () => {
    const t = setup();
    stop = () => t.store.stop();
    t.store.start();
    t.crds().listedAt('500', crdFor(REDIS_KIND, '10'));
    t.sts().listedAt('500');
    t.inf(REDIS_KIND).listedAt('500');
    await settle();
    expect(t.store.hasSynced()).toBe(true);
    expect(t.store.list()).toEqual([]);
    expect(t.store.resourceVersion()).toBe('500');
    // an instance deleted at RV 300 is not in our history: resuming from 1 must not pretend otherwise
    expect(() => t.store.watch('1', () => {})).toThrow(ResourceVersionExpiredError);
    expect(() => t.store.watch('500', () => {}).stop()).not.toThrow();
  });

  it('projects with the adapter and takes the largest RV among source and related objects', async () => {
    const t = await synced({
      redis: [redis('orders', '15'), redis('cache', '30')],
      sts: [sts('orders', '20', 1)],
    });
    stop = () => t.store.stop();
    expect(
      t.store
        .list()
        .map(i => [
          i.metadata.name,
          i.metadata.resourceVersion,
          i.status?.phase,
        ]),
    ).toEqual([
      ['cache', '30', 'Pending'],
      ['orders', '20', 'Ready'],
    ]);
    expect(t.store.get('team-a', 'orders')?.metadata.uid).toBe(
      'uid-redis-team-a-orders',
    );
  });

  it('re-projects an instance when its StatefulSet changes, and only that one', async () => {
    const t = await synced({
      redis: [redis('orders', '15'), redis('other', '16')],
      sts: [sts('orders', '20', 1)],
    });
    stop = () => t.store.stop();
    t.sts().upsert(sts('orders', '40', 0));
    t.sts().upsert(sts('unrelated', '41', 0));
    await settle();
    expect(summary(t.events)).toEqual(['MODIFIED team-a/orders 40']);
    expect(t.events[0].object.status?.phase).toBe('Updating') // the toy adapter says Provisioning; once Ready, that is a rollout (status/rolloutMemory.ts);
    expect(t.events[0].oldObject?.status?.phase).toBe('Ready');
    // related object deleted: the instance changes, with the deletion's RV
    t.sts().remove(sts('orders', '45', 0));
    await settle();
    expect(summary(t.events.slice(1))).toEqual(['MODIFIED team-a/orders 45']);
    expect(t.store.get('team-a', 'orders')?.status?.phase).toBe('Pending');
  });

  it('a related object\'s write that changes nothing served is no event and no new resourceVersion; the next change goes out past it', async () => {
    const t = await synced({ redis: [redis('orders', '15')], sts: [sts('orders', '20', 1)] });
    stop = () => t.store.stop();
    // a member's write (kubelet's status heartbeat, the operator's relabel) the projection does not show
    t.sts().upsert({ ...sts('orders', '30', 1), metadata: { ...sts('orders', '30', 1).metadata, labels: { touched: 'yes' } } });
    await settle();
    expect(summary(t.events)).toEqual([]);
    expect(t.store.get('team-a', 'orders')?.metadata.resourceVersion).toBe('20');
    t.sts().upsert(sts('orders', '31', 0));
    await settle();
    expect(summary(t.events)).toEqual(['MODIFIED team-a/orders 31']);
  });

  it('the apiserver\'s own ready-spec record changing alone is no event and no new resourceVersion', async () => {
    const t = await synced({ mariadb: [mariadb('orders', '15')] });
    stop = () => t.store.stop();
    const recorded = (rv: string, spec: string) =>
      obj(MARIADB_KIND, 'team-a', 'orders', rv, {
        metadata: {
          ...mariadb('orders', rv).metadata,
          annotations: { 'dbaas.platform.dev/ready-spec': spec },
        },
        status: mariadb('orders', rv).status,
      });
    t.inf(MARIADB_KIND).upsert(recorded('16', '{"replicas":1}'));
    await settle();
    expect(summary(t.events)).toEqual([]);
    expect(t.store.get('team-a', 'orders')?.metadata.resourceVersion).toBe('15');
    // writes go to the object as it is now
    expect(t.store.source('team-a', 'orders')?.object.metadata?.resourceVersion).toBe('16');
    expect(t.store.builtFromRv('team-a', 'orders')).toBe('16');
    // any other change is news again, at its own RV
    t.inf(MARIADB_KIND).upsert({ ...recorded('17', '{"replicas":1}'), spec: { replicas: 3 } });
    await settle();
    expect(summary(t.events)).toEqual(['MODIFIED team-a/orders 17']);
  });

  it('previews a would-be object with the instance\'s rollout memory, keeping nothing', async () => {
    const t = await synced({ mariadb: [mariadb('orders', '15')] });
    stop = () => t.store.stop();
    const wouldBe = { ...mariadb('orders', '15', false), spec: { replicas: 5 } };
    // the toy adapter calls it Provisioning; after Ready, that is a rollout
    expect(t.store.preview('team-a', 'orders', wouldBe)?.status?.phase).toBe('Updating');
    expect(t.store.get('team-a', 'orders')?.status?.phase).toBe('Ready');
    expect(t.store.preview('team-a', 'nothing', wouldBe)).toBeUndefined();
    expect(summary(t.events)).toEqual([]);
  });

  it('serves colliding names as <name>.<engine> with a condition, and back when the collision ends', async () => {
    const t = await synced({ redis: [redis('orders', '15')] });
    stop = () => t.store.stop();
    t.inf(MARIADB_KIND).upsert(mariadb('orders', '50'));
    await settle();
    expect(summary(t.events)).toEqual([
      'DELETED team-a/orders 50',
      'ADDED team-a/orders.redis 50',
      'ADDED team-a/orders.mariadb 50',
    ]);
    expect(t.store.list().map(i => i.metadata.name)).toEqual([
      'orders.mariadb',
      'orders.redis',
    ]);
    const conflict = t.store
      .get('team-a', 'orders.redis')!
      .status!.conditions!.find(c => c.type === 'NameConflict');
    expect(conflict).toMatchObject({ status: 'True' });
    expect(conflict!.message).toContain('orders.redis');
    // other namespaces are not affected
    t.inf(REDIS_KIND).upsert(redis('orders', '51', 'team-b'));
    await settle();
    expect(t.store.get('team-b', 'orders')).toBeDefined();

    t.events.length = 0;
    t.inf(MARIADB_KIND).remove(mariadb('orders', '60'));
    await settle();
    expect(summary(t.events)).toEqual([
      'DELETED team-a/orders.redis 60',
      'DELETED team-a/orders.mariadb 60',
      'ADDED team-a/orders 60',
    ]);
    expect(t.store.get('team-a', 'orders')!.status!.conditions ?? []).toEqual(
      [],
    );
  });

  it('gives writes the operator object behind a served name, and every claim on a raw name', async () => {
    const t = await synced({ redis: [redis('orders', '15')], mariadb: [mariadb('orders', '16'), mariadb('solo', '17')] });
    stop = () => t.store.stop();
    const solo = t.store.source('team-a', 'solo')!;
    expect(solo.object.metadata).toMatchObject({ name: 'solo', resourceVersion: '17' });
    expect([solo.adapter.engine, solo.kind.kind]).toEqual(['mariadb', 'MariaDB']);
    // colliding names are served engine-qualified; the source keeps the operator's own name
    expect(t.store.source('team-a', 'orders')).toBeUndefined();
    expect(t.store.source('team-a', 'orders.redis')!.object.metadata!.name).toBe('orders');
    expect(t.store.claims('team-a', 'orders').map(c => c.kind.kind).sort()).toEqual(['MariaDB', 'Redis']);
    expect(t.store.claims('team-a', 'solo').map(c => c.kind.kind)).toEqual(['MariaDB']);
    expect(t.store.claims('team-b', 'solo')).toEqual([]);
  });

  it('a delete then re-create with a new uid is DELETED + ADDED, never MODIFIED', async () => {
    const t = await synced({ redis: [redis('orders', '15')] });
    stop = () => t.store.stop();
    t.inf(REDIS_KIND).remove(redis('orders', '70'));
    const again = redis('orders', '71');
    again.metadata!.uid = 'uid-2';
    t.inf(REDIS_KIND).upsert(again);
    await settle();
    expect(t.events.map(e => `${e.type} ${e.object.metadata.uid}`)).toEqual([
      'DELETED uid-redis-team-a-orders',
      'ADDED uid-2',
    ]);
  });

  it('re-created within one batch: the new object\'s states follow its DELETED, each at an RV of its own, the current one last', async () => {
    const t = await synced({ redis: [redis('orders', '15')], sts: [sts('orders', '20', 1)] });
    stop = () => t.store.stop();
    const version = (rv: string, replicas: number, uid: string) => {
      const o = redis('orders', rv);
      o.metadata!.uid = uid;
      o.spec = { replicas };
      return o;
    };
    const replicasOf = (e: InstanceEvent) => `${e.type} ${e.resourceVersion} ${e.object.metadata.uid} ${e.object.spec.replicas}`;
    // nothing else changes: the new object's first state (a short phase) reaches watchers
    t.inf(REDIS_KIND).remove(redis('orders', '70'));
    t.inf(REDIS_KIND).upsert(version('71', 2, 'uid-2'));
    t.inf(REDIS_KIND).upsert(version('72', 1, 'uid-2'));
    await settle();
    expect(t.events.map(replicasOf)).toEqual(['DELETED 70 uid-redis-team-a-orders 1', 'ADDED 71 uid-2 2', 'MODIFIED 72 uid-2 1']);
    // its StatefulSet changed too, after the first two states: they are projected with it as it
    // is now, but each goes out at its own RV, not at the StatefulSet's; the StatefulSet's own
    // change then alters nothing served, so it is no event (no MODIFIED with nothing changed)
    t.events.length = 0;
    t.inf(REDIS_KIND).remove(version('80', 1, 'uid-2'));
    t.inf(REDIS_KIND).upsert(version('81', 2, 'uid-3'));
    t.inf(REDIS_KIND).upsert(version('82', 3, 'uid-3'));
    t.sts().upsert(sts('orders', '83', 0));
    await settle();
    expect(t.events.map(replicasOf)).toEqual(['DELETED 80 uid-2 1', 'ADDED 81 uid-3 2', 'MODIFIED 82 uid-3 3']);
    expect(t.events[2].object.status?.phase).toBe('Provisioning');
    expect(t.store.get('team-a', 'orders')).toEqual(t.events[2].object);
  });

  it('delivers events in non-decreasing RV order when informers deliver out of order', async () => {
    const t = await synced({
      redis: [redis('a', '15'), redis('b', '16')],
      mariadb: [mariadb('m', '17', false)],
    });
    stop = () => t.store.stop();
    t.inf(MARIADB_KIND).upsert(mariadb('m', '105', true));
    t.sts().upsert(sts('a', '103', 1));
    t.inf(REDIS_KIND).upsert(redis('b', '104'));
    await settle();
    expect(summary(t.events)).toEqual([
      'MODIFIED team-a/a 103',
      'MODIFIED team-a/b 104',
      'MODIFIED team-a/m 105',
    ]);
    // later than the batch window ("late"): it waits for a newer RV and goes out with it, so a
    // watcher that got 105 and resumes from there still gets it
    t.sts().upsert(sts('b', '101', 1));
    await settle();
    expect(summary(t.events.slice(3))).toEqual([]);
    t.inf(MARIADB_KIND).upsert(mariadb('m', '106', false));
    await settle();
    expect(summary(t.events.slice(3))).toEqual(['MODIFIED team-a/b 106', 'MODIFIED team-a/m 106']);
    const resumed: string[] = [];
    t.store.watch('105', e => resumed.push(`${e.object.metadata.name} ${e.resourceVersion}`));
    expect(resumed).toEqual(['b 106', 'm 106']);
    const rvs = t.events.map(e => BigInt(e.resourceVersion));
    expect(rvs.every((rv, i) => i === 0 || rv >= rvs[i - 1])).toBe(true);
  });

  it('a late change keeps its own state: it goes out at the next RV of its batch, and changes at that RV see the object as of it', async () => {
    const t = await synced({ redis: [redis('orders', '15')], sts: [sts('orders', '20', 1)] });
    stop = () => t.store.stop();
    const scaled = (rv: string, replicas: number) => ({ ...redis('orders', rv), spec: { replicas } });
    // the operator's StatefulSet write (101) arrives before the spec change (100) it answers
    t.sts().upsert(sts('orders', '101', 0));
    await settle();
    // the spec change, late, with the rest of the rollout; the informer already holds 103
    t.inf(REDIS_KIND).upsert(scaled('100', 2));
    t.sts().upsert(sts('orders', '102', 1));
    t.inf(REDIS_KIND).upsert(scaled('103', 3));
    await settle();
    const seen = t.events.map(e => `${e.resourceVersion} ${e.object.spec.replicas}`);
    // before: the late change was projected from the informer's current object (replicas 3), so
    // the intermediate state (replicas 2, the rollout's Updating) never reached a watcher
    expect(seen).toEqual(['101 1', '102 2', '103 3']);
    expect(t.store.get('team-a', 'orders')).toEqual(t.events[2].object);
  });

  /**
   * A store where b's StatefulSet change (101) arrives after a's newer change (105) went out: a
   * late change, held for a newer RV; `client` watches as a client does (it can be told to end).
   */
  async function withLateChange(clusterResourceVersion?: () => Promise<string | undefined>, lateChangeMaxWaitMs?: number) {
    const t = await synced({ redis: [redis('a', '15'), redis('b', '16')], clusterResourceVersion, lateChangeMaxWaitMs });
    const client = { events: [] as InstanceEvent[], expired: 0 };
    t.store.watch(undefined, e => client.events.push(e), () => client.expired++);
    t.inf(REDIS_KIND).upsert(redis('a', '105'));
    await settle();
    t.sts().upsert(sts('b', '101', 1));
    return { t, client };
  }

  /** Resolves once the store has applied `count` events (a held change goes out after ~1 s). */
  const eventsReach = (t: { events: InstanceEvent[]; store: InformerInstanceStore }, count: number) =>
    new Promise<void>(resolve => {
      const check = () => t.events.length >= count && resolve();
      t.store.onApplied(check);
      check();
    });

  it('a late change with no newer RV after a second: clients\' watches end (410) and they list again; the apiserver\'s own watchers get it at the last RV', async () => {
    const { t, client } = await withLateChange();
    stop = () => t.store.stop();
    await settle(300);
    expect(summary(t.events)).toEqual(['MODIFIED team-a/a 105']);
    await eventsReach(t, 2);
    expect(summary(t.events)).toEqual(['MODIFIED team-a/a 105', 'MODIFIED team-a/b 105']);
    // an informer ignores an update at an RV it holds: the client is told to list again instead
    expect(summary(client.events)).toEqual(['MODIFIED team-a/a 105']);
    expect(client.expired).toBe(1);
    // the list has the change; a watch from before the last RV is refused, from it goes on
    expect(t.store.get('team-a', 'b')?.status?.phase).toBe('Ready');
    expect(() => t.store.watch('104', () => undefined)).toThrow(ResourceVersionExpiredError);
    expect(() => t.store.watch('105', () => undefined)).not.toThrow();
  });

  it('a late change with no newer RV after a second goes out at the cluster\'s RV read then: no client lists again', async () => {
    let clusterRv = '105';
    const reads: string[] = [];
    const { t, client } = await withLateChange(async () => {
      reads.push(clusterRv);
      return clusterRv;
    });
    stop = () => t.store.stop();
    // a lease's renewal elsewhere moved the cluster on; no bookmark has told the informers yet
    clusterRv = '120';
    await eventsReach(t, 2);
    expect(reads).toEqual(['120']);
    expect(summary(client.events)).toEqual(['MODIFIED team-a/a 105', 'MODIFIED team-a/b 120']);
    expect(client.expired).toBe(0);
    const resumed: string[] = [];
    t.store.watch('105', e => resumed.push(`${e.object.metadata.name} ${e.resourceVersion}`));
    expect(resumed).toEqual(['b 120']);
  });

  it('a late change whose cluster RV read finds the cluster idle is read again each second: a move on the second read sends it at that RV, no client lists again', async () => {
    const reads: string[] = [];
    const { t, client } = await withLateChange(async () => {
      // idle at the first read; a lease renewed before the second
      reads.push(reads.length === 0 ? '105' : '107');
      return reads.at(-1);
    });
    stop = () => t.store.stop();
    await eventsReach(t, 2);
    expect(reads).toEqual(['105', '107']);
    expect(summary(client.events)).toEqual(['MODIFIED team-a/a 105', 'MODIFIED team-a/b 107']);
    expect(client.expired).toBe(0);
  });

  it('a late change whose cluster RV stays idle for the longest wait, or cannot be read: clients list again', async () => {
    const reads: string[] = [];
    const idle = async () => {
      reads.push('105');
      return '105';
    };
    for (const read of [idle, async () => Promise.reject(new Error('connection refused'))]) {
      const { t, client } = await withLateChange(read, 2000);
      await eventsReach(t, 2);
      t.store.stop();
      expect(summary(t.events)).toEqual(['MODIFIED team-a/a 105', 'MODIFIED team-a/b 105']);
      expect(client.expired).toBe(1);
    }
    // idle: read at 1 s and again at 2 s before giving up; unreadable: given up at once
    expect(reads).toEqual(['105', '105']);
  });

  it('sends a late change with the RV every informer has progressed past, without a newer change', async () => {
    const t = await synced({ redis: [redis('a', '15'), redis('b', '16')] });
    stop = () => t.store.stop();
    t.inf(REDIS_KIND).upsert(redis('a', '105'));
    await settle();
    t.sts().upsert(sts('b', '101', 1));
    await settle();
    // bookmarks: every informer has delivered everything up to 110
    for (const type of [REDIS_KIND, MARIADB_KIND, STATEFULSETS]) t.inf(type).hooks.onProgress?.('110');
    t.crds().hooks.onProgress?.('110');
    await settle();
    expect(summary(t.events)).toEqual(['MODIFIED team-a/a 105', 'MODIFIED team-a/b 110']);
  });

  it('replays history for a watch from an RV, and expires RVs older than the kept window', async () => {
    const t = await synced({ redis: [redis('a', '15')], historyMaxEvents: 3 });
    stop = () => t.store.stop();
    for (const rv of ['200', '201', '202', '203']) {
      t.inf(REDIS_KIND).upsert(redis('a', rv));
      await settle(10);
    }
    const replayed: string[] = [];
    t.store.watch('201', e => replayed.push(e.resourceVersion));
    expect(replayed).toEqual(['202', '203']);
    expect(() => t.store.watch('199', () => undefined)).toThrow(
      ResourceVersionExpiredError,
    );
    expect(() => t.store.watch('15', () => undefined)).toThrow(
      ResourceVersionExpiredError,
    );
    // live events follow the replay
    t.inf(REDIS_KIND).upsert(redis('a', '204'));
    await settle();
    expect(replayed).toEqual(['202', '203', '204']);
  });

  it('expires history by age', async () => {
    const t = await synced({ redis: [redis('a', '15')] });
    stop = () => t.store.stop();
    t.inf(REDIS_KIND).upsert(redis('a', '300'));
    await settle();
    expect(() => t.store.watch('20', () => undefined)).not.toThrow();
    t.tick(11 * 60_000);
    expect(() => t.store.watch('20', () => undefined)).toThrow(
      ResourceVersionExpiredError,
    );
    expect(() => t.store.watch('300', () => undefined)).not.toThrow();
  });

  it('picks up a CRD installed later, and drops its instances when it goes away', async () => {
    const t = setup();
    stop = () => t.store.stop();
    t.store.start();
    t.crds().listed(crdFor(REDIS_KIND, '10'));
    t.sts().listed();
    t.inf(REDIS_KIND).listed();
    await settle();
    t.store.watch(undefined, e => t.events.push(e));
    expect(
      t.store.engines().map(e => [e.metadata.name, e.status.installed]),
    ).toEqual([
      ['redis', true],
      ['mariadb', false],
    ]);
    t.crds().upsert(crdFor(MARIADB_KIND, '80', false)); // not established yet
    await settle();
    expect(t.created).not.toContain(resourceName(MARIADB_KIND));
    t.crds().upsert(crdFor(MARIADB_KIND, '81'));
    expect(t.inf(MARIADB_KIND).running).toBe(true);
    t.inf(MARIADB_KIND).listed(
      mariadb('db', '82'),
      mariadb('db2', '83', false),
    );
    await settle();
    expect(summary(t.events)).toEqual([
      'ADDED team-a/db 82',
      'ADDED team-a/db2 83',
    ]);
    const engine = t.store.engines().find(e => e.spec.engine === 'mariadb')!;
    expect(engine.status).toMatchObject({
      installed: true,
      instances: 2,
      phases: { Ready: 1, Provisioning: 1 },
    });

    t.crds().remove(crdFor(MARIADB_KIND, '90'));
    await settle();
    expect(t.inf(MARIADB_KIND).running).toBe(false);
    expect(summary(t.events.slice(2))).toEqual([
      'DELETED team-a/db 90',
      'DELETED team-a/db2 90',
    ]);
    expect(
      t.store.engines().find(e => e.spec.engine === 'mariadb')!.status
        .installed,
    ).toBe(false);
  });

  it('reports informer errors and restarts the informer with back-off', async () => {
    const t = await synced({});
    stop = () => t.store.stop();
    const informer = t.sts();
    const starts = informer.starts;
    informer.fail(
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), {}),
    );
    expect(t.store.problems()).toEqual([
      'informer statefulsets.apps/v1: connect ECONNREFUSED 127.0.0.1:6443',
    ]);
    await settle(20);
    expect(informer.starts).toBe(starts + 1);
    informer.fail(new Error('connect ECONNREFUSED 127.0.0.1:6443'));
    await settle(5);
    expect(informer.starts).toBe(starts + 1); // second delay is longer
    await settle(40);
    expect(informer.starts).toBe(starts + 2);
    informer.listed();
    expect(t.store.problems()).toEqual([]);
  });

  it('serves an instance in phase Unknown when the adapter cannot project it', async () => {
    const bad = redis('weird', '15');
    bad.spec.explode = true;
    const t = await synced({ redis: [bad], sts: [sts('weird', '16', 1)] });
    stop = () => t.store.stop();
    expect(t.store.get('team-a', 'weird')?.status).toMatchObject({
      phase: 'Unknown',
      reason: 'ProjectionFailed',
    });
  });
});

describe('a related type an operator CRD defines (mariadb-operator Restores)', () => {
  const RESTORES = { group: 'k8s.mariadb.com', version: 'v1alpha1', plural: 'restores', kind: 'Restore', topologies: [] };

  it('is watched only while its CRD serves it: the store syncs on a cluster without it, and watches it once it is installed', async () => {
    const { informers, factory } = fakeInformers();
    const store = new InformerInstanceStore({
      adapters: [{ ...fakeMariadbAdapter, relatedTypes: [...fakeMariadbAdapter.relatedTypes, RESTORES] }],
      informerFactory: factory,
      batchWindowMs: 5,
      restartBackoff: { initialMs: 10, maxMs: 40 },
    });
    store.start();
    const crds = informers.get('customresourcedefinitions.apiextensions.k8s.io')!;
    crds.listed(crdFor(MARIADB_KIND, '10'));
    for (const [name, informer] of informers) if (name !== 'customresourcedefinitions.apiextensions.k8s.io') informer.listed();
    await settle();
    expect(informers.has(resourceName(RESTORES))).toBe(false);
    expect(store.hasSynced()).toBe(true);
    crds.upsert(crdFor(RESTORES, '12'));
    await settle();
    expect(informers.get(resourceName(RESTORES))?.running).toBe(true);
    // and no longer once the CRD is gone
    crds.remove(crdFor(RESTORES, '13'));
    await settle();
    expect(informers.get(resourceName(RESTORES))?.running).toBe(false);
    store.stop();
  });
});
