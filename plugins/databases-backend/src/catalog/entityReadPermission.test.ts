import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createBackendModule } from '@backstage/backend-plugin-api';
import { mockCredentials, startTestBackend } from '@backstage/backend-test-utils';
import { catalogConditions, createCatalogConditionalDecision } from '@backstage/plugin-catalog-backend/alpha';
import { catalogEntityReadPermission } from '@backstage/plugin-catalog-common/alpha';
import { AuthorizeResult, isPermission, type PolicyDecision } from '@backstage/plugin-permission-common';
import type { PolicyQuery, PolicyQueryUser } from '@backstage/plugin-permission-node';
import { policyExtensionPoint } from '@backstage/plugin-permission-node/alpha';
import { startSystem, type System } from '@internal/e2e';
import { startPermissionedBackend } from '../__testUtils__/startPermissionedBackend';

jest.setTimeout(90_000);

const alice = mockCredentials.user.header('user:default/alice');
const bob = mockCredentials.user.header('user:default/bob');
const dave = mockCredentials.user.header('user:default/dave');

/**
 * Catalog reads: alice may read every entity, bob only what his teams own (a condition only the
 * catalog can apply), dave none. Every databases permission is allowed: what is tested here is
 * which entities' databases a user may look up.
 */
const policyModule = createBackendModule({
  pluginId: 'permission',
  moduleId: 'test-policy',
  register(reg) {
    reg.registerInit({
      deps: { policy: policyExtensionPoint },
      async init({ policy }) {
        policy.setPolicy({
          async handle(req: PolicyQuery, user?: PolicyQueryUser): Promise<PolicyDecision> {
            if (!isPermission(req.permission, catalogEntityReadPermission)) return { result: AuthorizeResult.ALLOW };
            const who = user?.info.userEntityRef;
            if (who === 'user:default/dave') return { result: AuthorizeResult.DENY };
            if (who === 'user:default/bob') {
              return createCatalogConditionalDecision(req.permission, catalogConditions.isEntityOwner({ claims: user!.info.ownershipEntityRefs }));
            }
            return { result: AuthorizeResult.ALLOW };
          },
        });
      },
    });
  },
});

/**
 * The entity routes against the real catalog and permission backends (permissions enabled, the
 * real permissions client): a user gets an entity's databases only for an entity the catalog
 * would show them, whichever way the entity is read.
 */
describe('entity routes follow the catalog read permission (real catalog and permission backends)', () => {
  let system: System;
  let backend: Awaited<ReturnType<typeof startTestBackend>>;

  const entityInstances = (who: string, name: string) =>
    request(backend.server).get(`/api/databases/entities/component/default/${name}/instances`).set('Authorization', who);

  beforeAll(async () => {
    system = await startSystem({ seed: true });
    system.emulator.operators.settle();
    backend = await startPermissionedBackend(system, policyModule);
    // ownership (bob's condition) needs the catalog's relations: wait until search's are stitched
    const deadline = Date.now() + 40_000;
    for (;;) {
      const res = await request(backend.server).get('/api/catalog/entities/by-name/component/default/search').set('Authorization', alice);
      if (res.status === 200 && res.body.relations?.some((r: any) => r.type === 'ownedBy')) break;
      if (Date.now() > deadline) throw new Error(`the catalog did not process the example entities: ${res.status} ${JSON.stringify(res.body)}`);
      await new Promise(r => setTimeout(r, 250));
    }
  });

  afterAll(async () => {
    await backend?.stop();
    await system?.stop();
  });

  it('a user who may read every entity gets any component\'s databases', async () => {
    for (const [name, expected] of [['orders', ['orders-cache', 'orders-db']], ['search', ['search', 'search-logs']]] as const) {
      const res = await entityInstances(alice, name);
      expect(res.status).toBe(200);
      // alice's cluster RBAC is team-a's namespace: search's databases (team-b) are not hers to list
      const names = res.body.items.map((i: any) => i.instance.metadata.name).sort();
      expect(names).toEqual(name === 'orders' ? expected : []);
      expect(res.body.entityRef).toBe(`component:default/${name}`);
    }
    expect((await entityInstances(alice, 'ghost')).status).toBe(404);
  });

  it('a conditional decision is applied by the catalog: bob gets his team\'s component, not another team\'s', async () => {
    const own = await entityInstances(bob, 'search');
    expect(own.status).toBe(200);
    expect(own.body.items.map((i: any) => i.instance.metadata.name).sort()).toEqual(['search', 'search-logs']);
    const other = await entityInstances(bob, 'orders');
    expect(other.status).toBe(404);
    expect(other.body.error).toMatchObject({ name: 'NotFoundError', message: 'entity component:default/orders not found in the catalog' });
    const byQuery = await request(backend.server).get('/api/databases/instances?entity=component:default/orders').set('Authorization', bob);
    expect(byQuery.status).toBe(404);
  });

  it('a user who may read no entity gets no entity\'s databases, and cannot tell one that exists from one that does not', async () => {
    const existing = await entityInstances(dave, 'orders');
    const missing = await entityInstances(dave, 'ghost');
    expect([existing.status, missing.status]).toEqual([404, 404]);
    expect(existing.body.error.name).toBe(missing.body.error.name);
    const byQuery = await request(backend.server).get('/api/databases/instances?entity=component:default/search').set('Authorization', dave);
    expect(byQuery.status).toBe(404);
  });
});
