import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { kubeConfigForServer } from '../kube/createKubeConfig';
import {
  kubeInformerFactory,
  stripBulkyFields,
} from '../kube/kubeInformerFactory';
import { CRD_TYPE } from './crdServesKind';
import { InformerInstanceStore } from './InformerInstanceStore';
import {
  crdFor,
  fakeMariadbAdapter,
  fakeRedisAdapter,
  MARIADB_KIND,
  obj,
  REDIS_KIND,
  STATEFULSETS,
} from './testAdapters';
import type { InstanceEvent } from './types';
import { FakeKubeApi, until } from './testKubeApi';

describe('InformerInstanceStore over client-node informers', () => {
  // each case its own fake cluster and store: they pass alone and in any order
  let api: FakeKubeApi;
  let store: InformerInstanceStore;
  let events: InstanceEvent[];

  beforeEach(async () => {
    api = new FakeKubeApi([STATEFULSETS], [REDIS_KIND, MARIADB_KIND]);
    events = [];
    await new Promise<void>(r => api.server.listen(0, '127.0.0.1', r));
    api.put(CRD_TYPE, crdFor(REDIS_KIND, '0'));
    api.put(
      STATEFULSETS,
      obj(STATEFULSETS, 'team-a', 'orders', '0', {
        spec: { replicas: 1 },
        status: { readyReplicas: 1 },
      }),
    );
    api.put(
      REDIS_KIND,
      obj(REDIS_KIND, 'team-a', 'orders', '0', {
        spec: { replicas: 1 },
        metadata: {
          name: 'orders',
          namespace: 'team-a',
          uid: 'u-orders',
          managedFields: [{ manager: 'kubectl' }],
        },
      }),
    );
    store = new InformerInstanceStore({
      adapters: [fakeRedisAdapter, fakeMariadbAdapter],
      informerFactory: kubeInformerFactory(kubeConfigForServer(api.url())),
      batchWindowMs: 10,
      restartBackoff: { initialMs: 50, maxMs: 200 },
    });
    store.start();
    await until(() => store.hasSynced(), 'sync');
    await until(
      () => api.watching(STATEFULSETS) > 0 && api.watching(REDIS_KIND) > 0,
      'watches',
    );
    store.watch(store.resourceVersion(), e => events.push(e));
  });

  afterEach(async () => {
    store.stop();
    api.server.closeAllConnections();
    await new Promise(r => api.server.close(r));
  });

  /** Installs the MariaDB CRD and creates a MariaDB named like the Redis: returns its RV. */
  async function collide(): Promise<string> {
    api.put(CRD_TYPE, crdFor(MARIADB_KIND, '0'));
    await until(() => api.watching(MARIADB_KIND) > 0, 'mariadb watch');
    const rv = api.put(
      MARIADB_KIND,
      obj(MARIADB_KIND, 'team-a', 'orders', '0', {
        status: { conditions: [{ type: 'Ready', status: 'True' }] },
      }),
    );
    await until(() => events.length >= 3, 'collision events');
    return rv;
  }

  it('syncs, projects, and never asks for a kind whose CRD is absent', () => {
    expect(store.hasSynced()).toBe(true);
    const orders = store.get('team-a', 'orders')!;
    expect(orders.status?.phase).toBe('Ready');
    expect(orders.metadata.resourceVersion).toBe('103'); // the Redis object, newer than its StatefulSet (102)
    expect(store.resourceVersion()).toBe('103');
    expect(api.requests.filter(r => r.includes('mariadbs'))).toEqual([]);
  });

  it('follows watch events of related objects', async () => {
    const rv = api.put(
      STATEFULSETS,
      obj(STATEFULSETS, 'team-a', 'orders', '0', {
        spec: { replicas: 1 },
        status: { readyReplicas: 0 },
      }),
    );
    await until(() => events.length > 0, 'event');
    expect(events[0]).toMatchObject({
      type: 'MODIFIED',
      resourceVersion: rv,
      object: { status: { phase: 'Updating' /* once Ready: a rollout, see status/rolloutMemory.ts */ } },
    });
  });

  it('picks up a CRD created later without restart, with collision naming', async () => {
    const rv = await collide();
    expect(
      store.engines().find(e => e.spec.engine === 'mariadb')?.status.installed,
    ).toBe(true);
    expect(
      events.map(
        e => `${e.type} ${e.object.metadata.name} ${e.resourceVersion}`,
      ),
    ).toEqual([
      `DELETED orders ${rv}`,
      `ADDED orders.redis ${rv}`,
      `ADDED orders.mariadb ${rv}`,
    ]);
  });

  it('drops the kind when its CRD is deleted', async () => {
    await collide();
    events.length = 0;
    const rv = api.remove(CRD_TYPE, crdFor(MARIADB_KIND, '0'));
    await until(() => events.length >= 3, 'rename back');
    expect(
      events.map(
        e => `${e.type} ${e.object.metadata.name} ${e.resourceVersion}`,
      ),
    ).toEqual([
      `DELETED orders.redis ${rv}`,
      `DELETED orders.mariadb ${rv}`,
      `ADDED orders ${rv}`,
    ]);
    expect(
      store.engines().find(e => e.spec.engine === 'mariadb')?.status.installed,
    ).toBe(false);
  });

  it('strips managedFields and last-applied before caching', () => {
    const stripped = stripBulkyFields({
      metadata: {
        name: 'x',
        managedFields: [{}],
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration': '{}',
          keep: 'me',
        },
      },
    });
    expect(stripped.metadata).toEqual({
      name: 'x',
      annotations: { keep: 'me' },
    });
  });
});
