import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CustomObjectsApi, KubeConfig, makeInformer, type KubernetesObject } from '@kubernetes/client-node';
import { startSystem, type System } from '../support/startSystem';

const GROUP = 'dbaas.platform.dev';
const VERSION = 'v1alpha1';
const MARIADBS = { group: 'k8s.mariadb.com', version: 'v1alpha1', plural: 'mariadbs' };
const REDIS = { group: 'redis.redis.opstreelabs.in', version: 'v1beta2', plural: 'redis' };

let describeState: () => string = () => '';

async function eventually(cond: () => boolean | Promise<boolean>, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`condition ${cond} not met in time; ${describeState()}`);
    await new Promise(r => setTimeout(r, 50));
  }
}

describe('a @kubernetes/client-node informer through the aggregation layer', () => {
  let system: System;
  let kc: KubeConfig;

  beforeAll(async () => {
    // A short watch history, so a quiet selector-filtered informer falls behind it.
    system = await startSystem({ seed: true, apiserver: { watchHistorySize: 100 } });
    system.emulator.operators.settle();
    kc = new KubeConfig();
    kc.loadFromString(system.emulator.kubeconfig('admin'));
  }, 120_000);

  afterAll(async () => {
    await system?.stop();
  });

  it('lists, watches add/update/delete, and recovers from 410 Expired by re-listing', async () => {
    const api = kc.makeApiClient(CustomObjectsApi);
    let lists = 0;
    const path = `/apis/${GROUP}/${VERSION}/namespaces/team-c/databaseinstances`;
    const informer = makeInformer<KubernetesObject>(kc, path, async () => {
      lists++;
      return api.listNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: 'team-c', plural: 'databaseinstances' });
    });
    const seen: string[] = [];
    const errors: unknown[] = [];
    informer.on('add', o => seen.push(`add:${o.metadata!.name}`));
    informer.on('update', o => seen.push(`update:${o.metadata!.name}:${(o as any).status?.phase}`));
    informer.on('delete', o => seen.push(`delete:${o.metadata!.name}`));
    informer.on('error', e => errors.push(e));
    await informer.start();
    describeState = () =>
      `seen ${JSON.stringify(seen)} errors ${errors.map(String)} lists ${lists} apiserver phase ${
        system.apiserver.store.get('team-c', 'adopted')?.status?.phase
      } watches ${system.apiserver.app.control.activeWatches()} emulator ${JSON.stringify(
        system.emulator.store.get(MARIADBS, 'team-c', 'adopted')?.status,
      )} rv ${system.emulator.store.currentRV()} / ${system.apiserver.store.resourceVersion()}`;
    const names = () => informer.list('team-c').map(o => o.metadata!.name).sort();
    try {
      // the demo's team-c, as the apiserver serves it (the seed may grow an engine)
      const seeded = system.apiserver.store.list().filter(i => i.metadata.namespace === 'team-c').map(i => i.metadata.name!).sort();
      expect(seeded.length).toBeGreaterThanOrEqual(3);
      await eventually(() => names().length === seeded.length);
      expect(names()).toEqual(seeded);

      // add: a MariaDB created straight on the operator's CRD (adoption needs nothing), seen
      // Pending while the operator has not acted yet
      system.emulator.operators.pause();
      system.emulator.store.create(MARIADBS, {
        apiVersion: 'k8s.mariadb.com/v1alpha1',
        kind: 'MariaDB',
        metadata: { name: 'adopted', namespace: 'team-c' },
        spec: { replicas: 1, storage: { size: '1Gi' } },
      });
      await eventually(() => seen.includes('add:adopted'));
      expect((informer.get('adopted', 'team-c') as any).status.phase).toBe('Pending');
      // update: the emulated operator brings it to Ready
      system.emulator.operators.resume();
      system.emulator.operators.settle();
      await eventually(() => seen.includes('update:adopted:Ready'));
      // delete
      system.emulator.store.delete(MARIADBS, 'team-c', 'adopted');
      system.emulator.operators.settle();
      await eventually(() => seen.includes('delete:adopted'));

      // 120 new instances elsewhere push the informer's resourceVersion out of the 100-event
      // history (distinct objects: the cache may coalesce rapid changes of one object).
      system.emulator.operators.pause();
      for (let i = 0; i < 120; i++) {
        system.emulator.store.create(REDIS, {
          apiVersion: 'redis.redis.opstreelabs.in/v1beta2',
          kind: 'Redis',
          metadata: { name: `churn-${i}`, namespace: 'team-b' },
          spec: { kubernetesConfig: { image: 'quay.io/opstree/redis:v7.0.15' } },
        });
      }
      system.emulator.operators.resume();
      const target = BigInt(system.emulator.store.currentRV());
      await eventually(() => BigInt(system.apiserver.store.resourceVersion()) >= target);
      const listsBefore = lists;
      // The watch ends (as at a timeout or a replica restart); the resume RV is now too old.
      system.apiserver.app.control.endWatches();
      await eventually(() => lists > listsBefore);

      // still live after the relist
      system.emulator.operators.setHealth({ group: 'k8s.mariadb.com', kind: 'MariaDB', namespace: 'team-c', name: 'notifications-archive' }, 'ready');
      system.emulator.operators.settle();
      await eventually(() => seen.includes('update:notifications-archive:Ready'));
      expect(errors).toEqual([]);

      // the informer's cache equals the truth
      const truth = (await api.listNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: 'team-c', plural: 'databaseinstances' })) as any;
      const byName = (items: readonly any[]) =>
        Object.fromEntries(items.map(o => [o.metadata.name, `${o.metadata.resourceVersion}/${o.status?.phase}`]));
      await eventually(() => JSON.stringify(byName(informer.list('team-c'))) === JSON.stringify(byName(truth.items)));
    } finally {
      await informer.stop();
    }
  }, 120_000);
});
