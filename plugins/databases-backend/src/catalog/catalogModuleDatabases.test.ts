import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mockServices, startTestBackend } from '@backstage/backend-test-utils';
import { startSystem, type System } from '@internal/e2e';
import catalogPlugin from '@backstage/plugin-catalog-backend';
import { databasesPlugin } from '../plugin';
import { catalogModuleDatabases } from './catalogModuleDatabases';
import { emulatorCluster } from '../__testUtils__/emulatorCluster';
import { exampleCatalogConfig } from '../__testUtils__/exampleCatalog';

jest.setTimeout(90_000);

/**
 * The real catalog backend with our entity provider module, fed by the plugin's watch of the
 * emulator through the aggregated apiserver: instances become Resource entities in the catalog
 * graph, and follow the cluster.
 */
describe('catalog module: DatabaseInstances as catalog Resources (real catalog backend)', () => {
  let system: System;
  let backend: Awaited<ReturnType<typeof startTestBackend>>;

  /** Polls the catalog until `check` holds for the answer of `query`, or the deadline passes. */
  async function catalogUntil(query: string, check: (items: any[]) => boolean, timeoutMs = 40_000): Promise<any[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await request(backend.server).get(`/api/catalog/entities/by-query?${query}`);
      const items = res.status === 200 ? res.body.items : [];
      if (check(items) || Date.now() > deadline) return items;
      await new Promise(r => setTimeout(r, 250));
    }
  }

  beforeAll(async () => {
    system = await startSystem({ seed: true });
    system.emulator.operators.settle();
    backend = await startTestBackend({
      features: [
        catalogPlugin,
        catalogModuleDatabases,
        databasesPlugin,
        mockServices.rootConfig.factory({
          data: {
            catalog: exampleCatalogConfig(),
            databases: { clusters: [emulatorCluster(system)] },
          },
        }),
      ],
    });
  });

  afterAll(async () => {
    await backend?.stop();
    await system?.stop();
  });

  it('emits every instance as a Resource of type database, owned by its team and dependencyOf its component', async () => {
    const expected = system.apiserver.store.list().length;
    expect(expected).toBeGreaterThan(3);
    const resources = await catalogUntil(
      'filter=kind=resource,spec.type=database',
      items => items.length === expected && items.every(e => e.relations?.length),
    );
    expect(resources).toHaveLength(expected);
    const ordersDb = resources.find(e => e.metadata.name === 'local-team-a-orders-db');
    expect(ordersDb).toMatchObject({
      spec: { type: 'database', owner: 'group:default/team-a', dependencyOf: ['component:default/orders'] },
      metadata: { annotations: { 'dbaas.platform.dev/instance': 'local:team-a/orders-db' } },
    });
    // the catalog resolved the relations in both directions
    expect(ordersDb.relations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'ownedBy', targetRef: 'group:default/team-a' }),
        expect.objectContaining({ type: 'dependencyOf', targetRef: 'component:default/orders' }),
      ]),
    );
    const [orders] = await catalogUntil('filter=kind=component,metadata.name=orders', items =>
      items[0]?.relations?.some((r: any) => r.type === 'dependsOn' && r.targetRef === 'resource:default/local-team-a-orders-db'),
    );
    expect(orders.relations).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'dependsOn', targetRef: 'resource:default/local-team-a-orders-db' })]),
    );
  });

  it('follows the cluster: a new instance appears, a deleted one disappears', async () => {
    const ns = 'team-a';
    system.emulator.store.create(
      { group: 'redis.redis.opstreelabs.in', version: 'v1beta2', plural: 'redis' },
      {
        apiVersion: 'redis.redis.opstreelabs.in/v1beta2',
        kind: 'Redis',
        metadata: { name: 'catalog-cache', namespace: ns, labels: { 'backstage.io/kubernetes-id': 'orders' } },
        spec: { kubernetesConfig: { image: 'quay.io/opstree/redis:v7.0.15' } },
      },
    );
    const appeared = await catalogUntil('filter=kind=resource,metadata.name=local-team-a-catalog-cache', items => items.length === 1);
    expect(appeared).toHaveLength(1);
    expect(appeared[0].spec).toMatchObject({ type: 'database', dependencyOf: ['component:default/orders'] });

    system.emulator.store.delete({ group: 'redis.redis.opstreelabs.in', version: 'v1beta2', plural: 'redis' }, ns, 'catalog-cache');
    const gone = await catalogUntil('filter=kind=resource,metadata.name=local-team-a-catalog-cache', items => items.length === 0);
    expect(gone).toEqual([]);
  });
});
