import { describe, expect, it } from '@jest/globals';
import { RbacAuthorizer } from '../auth/RbacAuthorizer';
import { MemoryObjectStore } from '../store/MemoryObjectStore';
import { applyRbacObjects } from './applyRbacObjects';
import { bootstrapPolicy } from './bootstrapPolicy';
import { ClusterRoleAggregator } from './ClusterRoleAggregator';
import { RBAC_RESOURCES, RbacObjectIndex } from './RbacObjectIndex';
import type { ClusterRole, PolicyRule } from './types';
import { resourceRequest, userInfo } from './__testUtils__/requests';

const G = 'dbaas.platform.dev';
const AGG = 'rbac.authorization.k8s.io/aggregate-to-';

function clusterRole(
  name: string,
  labels: Record<string, string>,
  rules: PolicyRule[],
): ClusterRole {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name, labels },
    rules,
  };
}

function setup() {
  const store = new MemoryObjectStore();
  applyRbacObjects(store, bootstrapPolicy());
  const aggregator = new ClusterRoleAggregator(store);
  aggregator.start();
  const rulesOf = (name: string) =>
    (
      store.get(
        RBAC_RESOURCES.clusterroles,
        undefined,
        name,
      ) as unknown as ClusterRole
    ).rules ?? [];
  return { store, aggregator, rulesOf };
}

const viewRule: PolicyRule = {
  verbs: ['get', 'list', 'watch'],
  apiGroups: [G],
  resources: ['databaseinstances'],
};
const editRule: PolicyRule = {
  verbs: ['create', 'delete'],
  apiGroups: [G],
  resources: ['databaseinstances'],
};
const adminRule: PolicyRule = {
  verbs: ['get'],
  apiGroups: [G],
  resources: ['databaseinstances/connection'],
};

describe('ClusterRoleAggregator (the clusterrole-aggregation controller)', () => {
  it('fills the bootstrap view, edit and admin roles from the labelled roles, down the view → edit → admin chain', () => {
    const { store, rulesOf } = setup();
    // edit and admin include view's rules because view itself carries aggregate-to-edit, and edit aggregate-to-admin
    expect(rulesOf('view').length).toBeGreaterThan(0);
    expect(rulesOf('edit')).toEqual(expect.arrayContaining(rulesOf('view')));
    expect(rulesOf('admin')).toEqual(expect.arrayContaining(rulesOf('edit')));

    applyRbacObjects(store, [
      clusterRole('x-view', { [`${AGG}view`]: 'true' }, [viewRule]),
      clusterRole('x-edit', { [`${AGG}edit`]: 'true' }, [editRule]),
      clusterRole('x-admin', { [`${AGG}admin`]: 'true' }, [adminRule]),
    ]);
    expect(rulesOf('view')).toContainEqual(viewRule);
    expect(rulesOf('view')).not.toContainEqual(editRule);
    expect(rulesOf('edit')).toEqual(
      expect.arrayContaining([viewRule, editRule]),
    );
    expect(rulesOf('edit')).not.toContainEqual(adminRule);
    expect(rulesOf('admin')).toEqual(
      expect.arrayContaining([viewRule, editRule, adminRule]),
    );
  });

  it('takes rules away when a role loses its label or is deleted', () => {
    const { store, rulesOf } = setup();
    applyRbacObjects(store, [
      clusterRole('x-view', { [`${AGG}view`]: 'true' }, [viewRule]),
    ]);
    expect(rulesOf('admin')).toContainEqual(viewRule);
    applyRbacObjects(store, [clusterRole('x-view', {}, [viewRule])]);
    expect(rulesOf('view')).not.toContainEqual(viewRule);
    expect(rulesOf('admin')).not.toContainEqual(viewRule);
    applyRbacObjects(store, [
      clusterRole('x-view', { [`${AGG}view`]: 'true' }, [viewRule]),
    ]);
    store.delete(RBAC_RESOURCES.clusterroles, undefined, 'x-view');
    expect(rulesOf('edit')).not.toContainEqual(viewRule);
  });

  it('orders by selector then role name, keeps each rule once, skips itself, and honours matchExpressions', () => {
    const { store, rulesOf } = setup();
    const a: PolicyRule = { verbs: ['get'], apiGroups: [''], resources: ['a'] };
    const b: PolicyRule = { verbs: ['get'], apiGroups: [''], resources: ['b'] };
    applyRbacObjects(store, [
      clusterRole('zz', { tier: 'gold' }, [a, b]),
      clusterRole('aa', { tier: 'gold' }, [b]),
      clusterRole('silver', { tier: 'silver' }, [a]),
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'gold', labels: { tier: 'gold' } },
        aggregationRule: {
          clusterRoleSelectors: [
            {
              matchExpressions: [
                { key: 'tier', operator: 'In', values: ['gold'] },
              ],
            },
          ],
        },
        rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      },
    ]);
    // its own rules are replaced, not kept: an aggregated role is what it selects
    expect(rulesOf('gold')).toEqual([b, a]);
  });

  it('what aggregates is authorised through a binding to the aggregated role', () => {
    const { store } = setup();
    applyRbacObjects(store, [
      clusterRole('x-edit', { [`${AGG}edit`]: 'true' }, [editRule]),
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'team-a-edit', namespace: 'default' },
        roleRef: {
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'ClusterRole',
          name: 'edit',
        },
        subjects: [
          {
            kind: 'Group',
            apiGroup: 'rbac.authorization.k8s.io',
            name: 'team-a',
          },
        ],
      },
    ]);
    const index = RbacObjectIndex.watching(store);
    const authorizer = new RbacAuthorizer(index);
    const alice = userInfo('alice', 'team-a');
    expect(
      authorizer.authorize(
        alice,
        resourceRequest('create', G, 'databaseinstances', {
          namespace: 'default',
        }),
      ),
    ).toEqual({
      allowed: true,
      reason:
        'RBAC: allowed by RoleBinding "team-a-edit/default" of ClusterRole "edit" to Group "team-a"',
    });
    // edit is not admin
    expect(
      authorizer.authorize(
        alice,
        resourceRequest('create', 'rbac.authorization.k8s.io', 'rolebindings', {
          namespace: 'default',
        }),
      ).allowed,
    ).toBe(false);
    index.stop();
  });
});
