import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createBackendModule } from '@backstage/backend-plugin-api';
import { mockCredentials, startTestBackend } from '@backstage/backend-test-utils';
import { catalogEntityReadPermission } from '@backstage/plugin-catalog-common/alpha';
import { AuthorizeResult, isPermission, type PolicyDecision } from '@backstage/plugin-permission-common';
import type { PolicyQuery, PolicyQueryUser } from '@backstage/plugin-permission-node';
import { policyExtensionPoint } from '@backstage/plugin-permission-node/alpha';
import { startSystem, type System } from '@internal/e2e';
import { catalogModuleDatabases } from './catalogModuleDatabases';
import { databasesCatalogAccessServiceRef } from './databasesCatalogAccessServiceRef';
import { ANNOTATION_SCOPE } from './instanceToEntity';
import { startPermissionedBackend } from '../__testUtils__/startPermissionedBackend';

jest.setTimeout(120_000);

const alice = mockCredentials.user.header('user:default/alice');
const carol = mockCredentials.user.header('user:default/carol');
const dave = mockCredentials.user.header('user:default/dave');

/** The one line an app's policy adds (as packages/backend does), and nothing else: allow the rest. */
const policyModule = createBackendModule({
  pluginId: 'permission',
  moduleId: 'test-policy',
  register(reg) {
    reg.registerInit({
      deps: { policy: policyExtensionPoint, catalogAccess: databasesCatalogAccessServiceRef },
      async init({ policy, catalogAccess }) {
        policy.setPolicy({
          async handle(req: PolicyQuery, user?: PolicyQueryUser): Promise<PolicyDecision> {
            if (isPermission(req.permission, catalogEntityReadPermission)) return catalogAccess.decision(req.permission, user);
            return { result: AuthorizeResult.ALLOW };
          },
        });
      },
    });
  },
});

/**
 * The catalog shows a database entity only to someone whose Kubernetes RBAC lets them get its
 * instance: the real catalog applies the conditional decision in its own queries (lists, by-query,
 * by-name), the real permission backend evaluates the policy, the emulator answers the reviews.
 */
describe('catalog reads of database entities follow Kubernetes RBAC (real catalog and permission backends)', () => {
  let system: System;
  let backend: Awaited<ReturnType<typeof startTestBackend>>;
  const databases = async (who: string) => {
    const res = await request(backend.server).get('/api/catalog/entities/by-query?filter=kind=resource,spec.type=database&limit=500').set('Authorization', who);
    expect(res.status).toBe(200);
    return res.body.items as any[];
  };
  const namespaces = (items: any[]) => [...new Set(items.map(e => e.metadata.annotations[ANNOTATION_SCOPE]))].sort();

  beforeAll(async () => {
    system = await startSystem({ seed: true });
    system.emulator.operators.settle();
    backend = await startPermissionedBackend(system, policyModule, [catalogModuleDatabases]);
    // every instance is an entity once the provider ran: carol (cluster-wide view) sees them all
    const expected = system.apiserver.store.list().length;
    const deadline = Date.now() + 60_000;
    while ((await databases(carol)).length < expected) {
      if (Date.now() > deadline) throw new Error(`the catalog did not show carol the ${expected} database entities`);
      await new Promise(r => setTimeout(r, 250));
    }
  });

  afterAll(async () => {
    await backend?.stop();
    await system?.stop();
  });

  it('a team member sees only the databases of the namespace RBAC gives them; everyone sees the other entities', async () => {
    expect(namespaces(await databases(alice))).toEqual(['local:team-a']);
    expect(namespaces(await databases(carol))).toEqual(['local:team-a', 'local:team-b', 'local:team-c']);
    expect(await databases(dave)).toEqual([]);
    const components = await request(backend.server).get('/api/catalog/entities/by-query?filter=kind=component').set('Authorization', dave);
    expect(components.body.items.length).toBeGreaterThan(0);
  });

  it('a database entity outside the user\'s RBAC is not found by name either', async () => {
    const other = (await databases(carol)).find(e => e.metadata.annotations[ANNOTATION_SCOPE] === 'local:team-b')!;
    const path = `/api/catalog/entities/by-name/resource/default/${other.metadata.name}`;
    expect((await request(backend.server).get(path).set('Authorization', carol)).status).toBe(200);
    expect((await request(backend.server).get(path).set('Authorization', alice)).status).toBe(404);
    expect((await request(backend.server).get(path).set('Authorization', dave)).status).toBe(404);
  });
});
