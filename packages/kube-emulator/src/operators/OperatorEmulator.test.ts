import { afterEach, describe, expect, it, jest } from '@jest/globals';
import {
  StoreError,
  type ResourceKey,
  type StoredObject,
} from '../store/types';
import { OperatorEmulator } from './OperatorEmulator';
import { fakeCluster } from './__testutils__/fakeCluster';
import { FakeObjectStore } from './__testutils__/FakeObjectStore';
import { harness, NS } from './__testutils__/harness';
import { ELASTICSEARCH_KIND } from './eck/eckOperator';
import { MARIADB_KIND } from './mariadb-operator/mariadbOperator';
import { RABBITMQCLUSTER_KIND } from './rabbitmq-cluster-operator/rabbitmqOperator';

const es = { version: '9.4.3', nodeSets: [{ name: 'default', count: 1 }] };
const mariadb = { image: 'mariadb:11.4.2', replicas: 1 };

describe('OperatorEmulator', () => {
  let running: OperatorEmulator | undefined;
  afterEach(() => running?.stop());

  it('leaves new objects without status while paused, and reconciles them after resume', () => {
    const h = harness();
    h.emulator.pause();
    h.create(MARIADB_KIND, 'a', mariadb);
    expect(h.emulator.tick()).toBe(0);
    expect(h.get(MARIADB_KIND, 'a').status).toBeUndefined();
    expect(h.names('statefulsets')).toEqual([]);
    h.emulator.resume();
    h.emulator.settle();
    expect((h.get(MARIADB_KIND, 'a').status as any).conditions[0].status).toBe(
      'True',
    );
  });

  it('stops reconciling a stalled object only, keeping whatever status it has', () => {
    const h = harness();
    h.create(MARIADB_KIND, 'stuck', mariadb);
    h.create(MARIADB_KIND, 'fine', mariadb);
    h.emulator.setHealth(
      { kind: 'MariaDB', namespace: NS, name: 'stuck' },
      'stalled',
    );
    h.emulator.settle();
    expect(h.get(MARIADB_KIND, 'stuck').status).toBeUndefined();
    expect(h.sts('stuck')).toBeUndefined();
    expect(h.get(MARIADB_KIND, 'fine').status).toBeDefined();
    expect(
      h.emulator.health({ kind: 'MariaDB', namespace: NS, name: 'stuck' }),
    ).toEqual({ mode: 'stalled' });
    h.emulator.setHealth(
      {
        group: 'k8s.mariadb.com',
        kind: 'MariaDB',
        namespace: NS,
        name: 'stuck',
      },
      'ready',
    );
    h.emulator.settle();
    expect(h.get(MARIADB_KIND, 'stuck').status).toBeDefined();
  });

  it('holds an object in provisioning until released', () => {
    const h = harness();
    h.create(ELASTICSEARCH_KIND, 'slow', {
      ...es,
      nodeSets: [{ name: 'default', count: 3 }],
    });
    h.emulator.setHealth(
      { kind: 'Elasticsearch', namespace: NS, name: 'slow' },
      'provisioning',
    );
    h.emulator.settle();
    expect(h.get(ELASTICSEARCH_KIND, 'slow').status).toMatchObject({
      phase: 'ApplyingChanges',
      availableNodes: 2,
    });
    h.emulator.setHealth(
      { kind: 'Elasticsearch', namespace: NS, name: 'slow' },
      'ready',
    );
    h.emulator.settle();
    expect(h.get(ELASTICSEARCH_KIND, 'slow').status).toMatchObject({
      phase: 'Ready',
      availableNodes: 3,
    });
  });

  it('holds an object in updating until released', () => {
    const h = harness();
    h.create(MARIADB_KIND, 'a', { ...mariadb, replicas: 3 });
    h.emulator.settle();
    h.emulator.setHealth(
      { kind: 'MariaDB', namespace: NS, name: 'a' },
      'updating',
    );
    h.emulator.settle();
    expect(
      (h.get(MARIADB_KIND, 'a').status as any).conditions[0],
    ).toMatchObject({ reason: 'Updating' });
    expect(h.sts('a')?.status).toMatchObject({ updatedReplicas: 2 });
    h.emulator.setHealth(
      { kind: 'MariaDB', namespace: NS, name: 'a' },
      'ready',
    );
    h.emulator.settle();
    expect(
      (h.get(MARIADB_KIND, 'a').status as any).conditions[0],
    ).toMatchObject({ reason: 'StatefulSetReady' });
  });

  it.each([
    [{ kind: 'Postgres', namespace: NS, name: 'x' }, /not emulated/],
    [
      { group: 'rabbitmq.com', kind: 'MariaDB', namespace: NS, name: 'x' },
      /not emulated/,
    ],
  ])('refuses setHealth for %j', (ref, message) => {
    const h = harness();
    expect(() => h.emulator.setHealth(ref, 'failed')).toThrow(message);
  });

  it('skips kinds whose CRD is not installed', () => {
    const store = new FakeObjectStore();
    const emulator = new OperatorEmulator({
      store,
      logger: {
        warn: () => {
          throw new Error('no warning expected');
        },
      },
    });
    expect(emulator.tick()).toBe(0);
  });

  it('re-reads and retries a status write that hits a 409 Conflict', () => {
    class RacyStore extends FakeObjectStore {
      races = 1;
      update(
        key: ResourceKey,
        obj: Record<string, unknown>,
        opts?: { subresource?: 'status' },
      ): StoredObject {
        if (
          opts?.subresource === 'status' &&
          (obj as any).kind === 'MariaDB' &&
          this.races > 0
        ) {
          this.races--;
          // Someone else writes first: the operator's resourceVersion is now stale.
          const current = this.get(
            key,
            (obj as any).metadata.namespace,
            (obj as any).metadata.name,
          )!;
          super.update(key, {
            ...current,
            metadata: { ...current.metadata, labels: { touched: 'yes' } },
          });
        }
        return super.update(key, obj, opts);
      }
    }
    const store = new RacyStore();
    for (const def of fakeCluster().resources()) store.defineResource(def);
    const emulator = new OperatorEmulator({
      store,
      logger: {
        warn: (m, f) => {
          throw new Error(`${m} ${JSON.stringify(f)}`);
        },
      },
    });
    store.create(MARIADB_KIND, {
      apiVersion: 'k8s.mariadb.com/v1alpha1',
      kind: 'MariaDB',
      metadata: { name: 'a', namespace: NS },
      spec: mariadb,
    });
    emulator.tick();
    expect(store.races).toBe(0);
    const obj = store.get(MARIADB_KIND, NS, 'a')!;
    expect(obj.status).toBeDefined();
    expect(obj.metadata.labels).toEqual({ touched: 'yes' });
  });

  it('logs a failing reconcile once and keeps going', () => {
    class BrokenStore extends FakeObjectStore {
      create(key: ResourceKey, obj: Record<string, unknown>): StoredObject {
        if (key.plural === 'services')
          throw new StoreError(500, 'InternalError', 'disk full');
        return super.create(key, obj);
      }
    }
    const store = new BrokenStore();
    for (const def of fakeCluster().resources()) store.defineResource(def);
    const warn = jest.fn();
    const emulator = new OperatorEmulator({ store, logger: { warn } });
    store.create(MARIADB_KIND, {
      apiVersion: 'k8s.mariadb.com/v1alpha1',
      kind: 'MariaDB',
      metadata: { name: 'a', namespace: NS },
      spec: mariadb,
    });
    store.create(ELASTICSEARCH_KIND, {
      apiVersion: 'elasticsearch.k8s.elastic.co/v1',
      kind: 'Elasticsearch',
      metadata: { name: 'b', namespace: NS },
      spec: es,
    });
    expect(() => emulator.tick()).not.toThrow();
    emulator.tick();
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls.map(c => (c[1] as any).object).sort()).toEqual([
      `elasticsearch.k8s.elastic.co/Elasticsearch/${NS}/b`,
      `k8s.mariadb.com/MariaDB/${NS}/a`,
    ]);
  });

  it('runs on its own once started: reacts to creates, reaches ready, cleans up after deletes', async () => {
    const store = fakeCluster();
    running = new OperatorEmulator({ store, stepMs: 20 });
    running.start();
    store.create(RABBITMQCLUSTER_KIND, {
      apiVersion: 'rabbitmq.com/v1beta1',
      kind: 'RabbitmqCluster',
      metadata: { name: 'q', namespace: NS },
      spec: { replicas: 2 },
    });
    const until = async (pred: () => boolean) => {
      const deadline = Date.now() + 5000;
      while (!pred()) {
        if (Date.now() > deadline) throw new Error('timed out');
        await new Promise(r => setTimeout(r, 10));
      }
    };
    const reconcileSuccess = () =>
      (
        (store.get(RABBITMQCLUSTER_KIND, NS, 'q')?.status as any)?.conditions ??
        []
      ).every((c: any) => c.status === 'True') &&
      (
        (store.get(RABBITMQCLUSTER_KIND, NS, 'q')?.status as any)?.conditions ??
        []
      ).length === 4;
    await until(reconcileSuccess);
    store.delete(RABBITMQCLUSTER_KIND, NS, 'q');
    await until(() => !store.get(RABBITMQCLUSTER_KIND, NS, 'q'));
    expect(
      store.list({ group: 'apps', version: 'v1', plural: 'statefulsets' }, NS),
    ).toEqual([]);
    running.stop();
    const before = store.currentRV();
    store.create(MARIADB_KIND, {
      apiVersion: 'k8s.mariadb.com/v1alpha1',
      kind: 'MariaDB',
      metadata: { name: 'late', namespace: NS },
      spec: mariadb,
    });
    await new Promise(r => setTimeout(r, 80));
    // Stopped: nothing but our own create happened.
    expect(store.currentRV()).toBe(before + 1);
  });

  it('garbage-collects dependents of an object recreated under the same name', () => {
    const h = harness();
    const first = h.create(ELASTICSEARCH_KIND, 'search', es);
    h.emulator.settle();
    h.store.delete(ELASTICSEARCH_KIND, NS, 'search');
    const second = h.create(ELASTICSEARCH_KIND, 'search', es);
    h.emulator.settle();
    expect(h.owned(first)).toEqual([]);
    expect(h.owned(second)).toContain('statefulsets/search-es-default');
  });
});
