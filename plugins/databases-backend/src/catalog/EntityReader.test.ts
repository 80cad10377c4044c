import type { AuthService, BackstageCredentials, PermissionsService } from '@backstage/backend-plugin-api';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import { AuthorizeResult, type PolicyDecision } from '@backstage/plugin-permission-common';
import { describe, expect, it } from '@jest/globals';
import { EntityReader } from './EntityReader';

const user = (ref: string, expiresAt: number) =>
  ({ $$type: '@backstage/BackstageCredentials', principal: { type: 'user', userEntityRef: ref }, expiresAt: new Date(expiresAt) }) as BackstageCredentials;
const SERVICE = { $$type: '@backstage/BackstageCredentials', principal: { type: 'service', subject: 'plugin:databases' } } as BackstageCredentials;
const ORDERS = { apiVersion: 'backstage.io/v1alpha1', kind: 'Component', metadata: { name: 'orders', namespace: 'default' } };

/** A catalog that has `orders` and records who asked; permissions answering `decision` as it is at call time. */
function fakes(decision: { current: PolicyDecision }) {
  const catalogCalls: Array<{ refs: string[]; fields?: string[]; as: BackstageCredentials }> = [];
  const asked: Array<{ permission: string; as: BackstageCredentials }> = [];
  const catalog = {
    async getEntitiesByRefs(request: { entityRefs: string[]; fields?: string[] }, options: { credentials: BackstageCredentials }) {
      catalogCalls.push({ refs: request.entityRefs, fields: request.fields, as: options.credentials });
      return { items: request.entityRefs.map(r => (r === 'component:default/orders' ? ORDERS : undefined)) };
    },
  } as unknown as CatalogService;
  const permissions = {
    async authorizeConditional(queries: Array<{ permission: { name: string } }>, options: { credentials: BackstageCredentials }) {
      asked.push({ permission: queries[0].permission.name, as: options.credentials });
      return [decision.current];
    },
  } as unknown as PermissionsService;
  const auth = { getOwnServiceCredentials: async () => SERVICE } as unknown as AuthService;
  return { catalog, permissions, auth, catalogCalls, asked };
}

describe('EntityReader', () => {
  it('reads as the plugin when the user may read every entity, asking for the decision once per sign-in and TTL', async () => {
    let t = 1_000_000;
    const decision = { current: { result: AuthorizeResult.ALLOW } as PolicyDecision };
    const f = fakes(decision);
    const reader = new EntityReader({ ...f, ttlMs: 10_000, now: () => t });
    const alice = user('user:default/alice', t + 3_600_000);
    expect(await reader.read('component:default/orders', alice, ['metadata.name'])).toEqual(ORDERS);
    expect(await reader.read('component:default/ghost', alice)).toBeUndefined();
    expect(f.asked).toEqual([{ permission: 'catalog.entity.read', as: alice }]);
    expect(f.catalogCalls.map(c => c.as)).toEqual([SERVICE, SERVICE]);
    expect(f.catalogCalls[0]).toMatchObject({ refs: ['component:default/orders'], fields: ['metadata.name'] });
    // the policy now denies: alice's decision is reused until the TTL passes, then asked again
    decision.current = { result: AuthorizeResult.DENY };
    t += 9_000;
    expect(await reader.read('component:default/orders', alice)).toEqual(ORDERS);
    t += 2_000;
    expect(await reader.read('component:default/orders', alice)).toBeUndefined();
    expect(f.asked).toHaveLength(2);
  });

  it('does not ask the catalog for a user who may read no entity', async () => {
    const f = fakes({ current: { result: AuthorizeResult.DENY } });
    const reader = new EntityReader({ ...f, ttlMs: 10_000 });
    expect(await reader.read('component:default/orders', user('user:default/dave', Date.now() + 60_000))).toBeUndefined();
    expect(f.catalogCalls).toEqual([]);
  });

  it('reads as the user when the decision is conditional, so the catalog applies the conditions', async () => {
    const conditional = {
      result: AuthorizeResult.CONDITIONAL,
      pluginId: 'catalog',
      resourceType: 'catalog-entity',
      conditions: { rule: 'IS_ENTITY_OWNER', resourceType: 'catalog-entity', params: { claims: ['group:default/team-b'] } },
    } as PolicyDecision;
    const f = fakes({ current: conditional });
    const reader = new EntityReader({ ...f, ttlMs: 10_000 });
    const bob = user('user:default/bob', Date.now() + 60_000);
    expect(await reader.read('component:default/orders', bob)).toEqual(ORDERS);
    expect(f.catalogCalls.map(c => c.as)).toEqual([bob]);
  });

  it('does not reuse one user\'s decision for another, nor a failed ask', async () => {
    const decision = { current: { result: AuthorizeResult.ALLOW } as PolicyDecision };
    const f = fakes(decision);
    const permissions = f.permissions;
    let fail = true;
    const flaky = {
      authorizeConditional: async (...args: Parameters<PermissionsService['authorizeConditional']>) => {
        if (fail) {
          fail = false;
          throw new Error('permission backend unavailable');
        }
        return permissions.authorizeConditional(...args);
      },
    } as unknown as PermissionsService;
    const reader = new EntityReader({ ...f, permissions: flaky, ttlMs: 10_000 });
    const alice = user('user:default/alice', Date.now() + 60_000);
    await expect(reader.read('component:default/orders', alice)).rejects.toThrow('permission backend unavailable');
    expect(await reader.read('component:default/orders', alice)).toEqual(ORDERS);
    decision.current = { result: AuthorizeResult.DENY };
    expect(await reader.read('component:default/orders', user('user:default/dave', Date.now() + 60_000))).toBeUndefined();
    expect(f.asked.map(a => (a.as.principal as any).userEntityRef)).toEqual(['user:default/alice', 'user:default/dave']);
  });
});
