import { afterEach, describe, expect, it } from '@jest/globals';
import type { KubeObject, ResourceType } from '../adapters/types';
import { resourceName } from '../kube/resourcePath';
import { InformerInstanceStore } from './InformerInstanceStore';
import type { InformerHooks, ResourceInformer } from './ResourceInformer';
import { STALE_CONDITION } from './staleCondition';
import {
  crdFor,
  fakeMariadbAdapter,
  fakeRedisAdapter,
  MARIADB_KIND,
  obj,
  REDIS_KIND,
  STATEFULSETS,
} from './testAdapters';
import { until } from './testKubeApi';
import type { InstanceEvent } from './types';

/** Plays kube-apiserver's list, watch, bookmarks and failures by hand. */
class HandDrivenInformer implements ResourceInformer {
  private readonly objects = new Map<string, KubeObject>();
  private readonly callbacks: Record<string, Array<(o?: any) => void>> = { add: [], update: [], delete: [], error: [] };

  constructor(readonly hooks: InformerHooks) {}

  on(verb: string, cb: (o?: any) => void): void {
    this.callbacks[verb].push(cb);
  }
  async start() {}
  async stop() {}
  get(name: string, namespace?: string) {
    return this.objects.get(`${namespace ?? ''}/${name}`);
  }
  list() {
    return [...this.objects.values()];
  }
  listedAt(listRv: string, ...items: KubeObject[]) {
    for (const o of items) {
      const key = `${o.metadata!.namespace ?? ''}/${o.metadata!.name}`;
      const had = this.objects.has(key);
      this.objects.set(key, o);
      this.callbacks[had ? 'update' : 'add'].forEach(cb => cb(o));
    }
    this.hooks.onListed(listRv);
  }
  bookmark(rv: string) {
    this.hooks.onProgress?.(rv);
  }
  fail(err: unknown) {
    this.callbacks.error.forEach(cb => cb(err));
  }
}

const settle = (ms = 30) => new Promise(r => setTimeout(r, ms));

async function synced() {
  const informers = new Map<string, HandDrivenInformer>();
  const store = new InformerInstanceStore({
    adapters: [fakeRedisAdapter, fakeMariadbAdapter],
    informerFactory: (type: ResourceType, hooks) => {
      const f = new HandDrivenInformer(hooks);
      informers.set(resourceName(type), f);
      return f;
    },
    batchWindowMs: 5,
    // restarts after a failure are not what these tests drive
    restartBackoff: { initialMs: 60_000, maxMs: 60_000 },
    staleAfterMs: 50,
  });
  const inf = (type: { group: string; plural: string }) => informers.get(resourceName(type))!;
  const crds = () => informers.get('customresourcedefinitions.apiextensions.k8s.io')!;
  store.start();
  crds().listedAt('100', crdFor(REDIS_KIND, '10'), crdFor(MARIADB_KIND, '11'));
  inf(STATEFULSETS).listedAt('100');
  inf(REDIS_KIND).listedAt('100', obj(REDIS_KIND, 'team-a', 'cache', '40', { spec: { replicas: 1 } }));
  inf(MARIADB_KIND).listedAt('100', obj(MARIADB_KIND, 'team-a', 'orders', '50'));
  await settle();
  expect(store.hasSynced()).toBe(true);
  const events: InstanceEvent[] = [];
  store.watch(undefined, e => events.push(e));
  const all = [crds(), inf(STATEFULSETS), inf(REDIS_KIND), inf(MARIADB_KIND)];
  return { store, inf, crds, events, all };
}

const staleOf = (store: InformerInstanceStore, name: string) =>
  store.get('team-a', name)?.status?.conditions?.find(c => c.type === STALE_CONDITION);

describe('InformerInstanceStore under faults', () => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  it('marks the instances of a failing watch Stale once it has failed for staleAfterMs, with one event each way', async () => {
    const t = await synced();
    stop = () => t.store.stop();
    t.inf(REDIS_KIND).fail(Object.assign(new Error('Service Unavailable'), { statusCode: 503 }));
    const failedAt = Date.now();
    await settle(20);
    expect(staleOf(t.store, 'cache')).toBeUndefined(); // a blip is no news
    // Stale comes staleAfterMs later, waited for: on a loaded machine (CI's once) the event loop
    // can run the stale timer and a test's sleep in one turn, before the batch that applies it
    await until(() => staleOf(t.store, 'cache') !== undefined, 'cache Stale');
    expect(Date.now() - failedAt).toBeGreaterThanOrEqual(50);
    expect(staleOf(t.store, 'cache')).toMatchObject({ status: 'True', reason: 'WatchInterrupted' });
    expect(staleOf(t.store, 'orders')).toBeUndefined(); // the MariaDB watch is fine
    expect(t.store.staleSince()).toBeDefined();
    expect(t.store.watchHealth()).toMatchObject({ failing: 1, total: 4 });
    expect(t.events.map(e => `${e.type} ${e.object.metadata.name}`)).toEqual(['MODIFIED cache']);

    // the watch comes back (a re-list) but the cluster has not moved past the RV the Stale
    // version went out with: a client would ignore a change at an RV it holds, so it waits
    t.inf(REDIS_KIND).listedAt('100', obj(REDIS_KIND, 'team-a', 'cache', '40', { spec: { replicas: 1 } }));
    await settle();
    expect(staleOf(t.store, 'cache')).toBeDefined();
    // the next bookmarks carry a newer RV: current again, told to watchers at that RV
    for (const informer of t.all) informer.bookmark('130');
    await settle();
    expect(staleOf(t.store, 'cache')).toBeUndefined();
    expect(t.store.staleSince()).toBeUndefined();
    expect(t.events.map(e => `${e.type} ${e.object.metadata.name} ${e.resourceVersion}`)).toEqual(['MODIFIED cache 100', 'MODIFIED cache 130']);
    expect(t.events[1].object).toEqual(t.store.get('team-a', 'cache'));
  });

  it('clears Stale in the same batch as the changes a resumed watch replays, at their RV', async () => {
    const t = await synced();
    stop = () => t.store.stop();
    t.inf(MARIADB_KIND).fail(new Error('connect ECONNREFUSED'));
    await until(() => staleOf(t.store, 'orders') !== undefined, 'orders Stale');
    t.inf(MARIADB_KIND).hooks.onWatching?.(); // the resumed watch is open again…
    t.inf(MARIADB_KIND).listedAt('140', obj(MARIADB_KIND, 'team-a', 'orders', '140', { spec: { replicas: 3 } })); // …and replays a change
    await settle();
    expect(staleOf(t.store, 'orders')).toBeUndefined();
    expect(t.events.map(e => `${e.type} ${e.object.metadata.name} ${e.resourceVersion}`)).toEqual(['MODIFIED orders 100', 'MODIFIED orders 140']);
    expect(t.store.get('team-a', 'orders')?.spec.replicas).toBe(3);
  });

  it('marks every instance Stale when the CRD watch fails (a CRD change could be missed)', async () => {
    const t = await synced();
    stop = () => t.store.stop();
    t.crds().fail(new Error('connect ECONNREFUSED'));
    await until(() => staleOf(t.store, 'cache') !== undefined && staleOf(t.store, 'orders') !== undefined, 'both Stale');
    // one more watch failing later changes nothing the watchers see
    const before = t.events.length;
    t.inf(MARIADB_KIND).fail(new Error('connect ECONNREFUSED'));
    await settle(120);
    expect(t.events.length).toBe(before);
  });

  it('moves its resourceVersion to the progress every watch has reached (bookmarks), never past the slowest', async () => {
    const t = await synced();
    stop = () => t.store.stop();
    expect(t.store.resourceVersion()).toBe('100');
    for (const informer of t.all) informer.bookmark('300');
    await settle();
    expect(t.store.resourceVersion()).toBe('300');
    t.crds().bookmark('400');
    t.inf(REDIS_KIND).bookmark('450');
    await settle();
    expect(t.store.resourceVersion()).toBe('300'); // the MariaDB and StatefulSet watches are only at 300
    // a client holding a recent RV resumes without a 410 and without replayed events
    const replayed: InstanceEvent[] = [];
    t.store.watch('300', e => replayed.push(e)).stop();
    expect(replayed).toEqual([]);
    expect(t.events).toEqual([]);
  });
});
