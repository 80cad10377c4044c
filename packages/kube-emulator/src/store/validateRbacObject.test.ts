import { describe, expect, it } from '@jest/globals';
import { RBAC_RESOURCES } from '../rbac/RbacObjectIndex';
import { MemoryObjectStore } from './MemoryObjectStore';

const V = 'rbac.authorization.k8s.io/v1';

function invalidMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect((e as { code?: number }).code).toBe(422);
    return (e as Error).message;
  }
  throw new Error('expected a 422');
}

describe('RBAC objects in the store: kube-apiserver validation and defaults', () => {
  it('accepts names kube allows (colons) and defaults the apiGroups of roleRef and subjects', () => {
    const store = new MemoryObjectStore();
    store.create(RBAC_RESOURCES.clusterroles, {
      apiVersion: V,
      kind: 'ClusterRole',
      metadata: { name: 'dbaas-apiserver:policy-reader' },
      rules: [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }],
    });
    const binding = store.create(RBAC_RESOURCES.rolebindings, {
      apiVersion: V,
      kind: 'RoleBinding',
      metadata: { name: 'b', namespace: 'default' },
      roleRef: { kind: 'ClusterRole', name: 'dbaas-apiserver:policy-reader' },
      subjects: [
        { kind: 'Group', name: 'team-a' },
        { kind: 'ServiceAccount', name: 'apiserver' },
      ],
    }) as any;
    expect(binding.roleRef.apiGroup).toBe('rbac.authorization.k8s.io');
    expect(binding.metadata.generation).toBeUndefined();
    expect(binding.subjects).toEqual([
      { kind: 'Group', name: 'team-a', apiGroup: 'rbac.authorization.k8s.io' },
      { kind: 'ServiceAccount', name: 'apiserver', apiGroup: '' },
    ]);
  });

  it('refuses rules kube refuses', () => {
    const store = new MemoryObjectStore();
    expect(
      invalidMessage(() =>
        store.create(RBAC_RESOURCES.roles, {
          metadata: { name: 'r', namespace: 'default' },
          rules: [
            { verbs: [], apiGroups: [''], resources: ['pods'] },
            { verbs: ['get'], nonResourceURLs: ['/metrics'] },
            { verbs: ['get'], resources: ['pods'] },
          ],
        }),
      ),
    ).toBe(
      'Role.rbac.authorization.k8s.io "r" is invalid: [rules[0].verbs: Required value: verbs must contain at least one value, ' +
        'rules[1].nonResourceURLs: Invalid value: []string{"/metrics"}: namespaced rules cannot apply to non-resource URLs, ' +
        'rules[2].apiGroups: Required value: resource rules must supply at least one api group]',
    );
    expect(
      invalidMessage(() =>
        store.create(RBAC_RESOURCES.clusterroles, {
          metadata: { name: 'c' },
          aggregationRule: { clusterRoleSelectors: [] },
          rules: [
            {
              verbs: ['get'],
              apiGroups: [''],
              resources: ['pods'],
              nonResourceURLs: ['/x'],
            },
          ],
        }),
      ),
    ).toBe(
      'ClusterRole.rbac.authorization.k8s.io "c" is invalid: [rules[0].nonResourceURLs: Invalid value: []string{"/x"}: rules cannot apply to both regular resources and non-resource URLs, ' +
        'aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil]',
    );
  });

  it('refuses bindings kube refuses, and a change of roleRef', () => {
    const store = new MemoryObjectStore();
    expect(
      invalidMessage(() =>
        store.create(RBAC_RESOURCES.clusterrolebindings, {
          metadata: { name: 'b' },
          roleRef: {
            apiGroup: 'rbac.authorization.k8s.io',
            kind: 'Role',
            name: 'r',
          },
          subjects: [
            { kind: 'ServiceAccount', name: 'sa' },
            { kind: 'Robot', name: 'x' },
          ],
        }),
      ),
    ).toBe(
      'ClusterRoleBinding.rbac.authorization.k8s.io "b" is invalid: [roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole", ' +
        'subjects[0].namespace: Required value, subjects[1].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"]',
    );
    const created = store.create(RBAC_RESOURCES.clusterrolebindings, {
      metadata: { name: 'b' },
      roleRef: {
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'ClusterRole',
        name: 'view',
      },
      subjects: [{ kind: 'User', name: 'alice' }],
    }) as any;
    expect(
      invalidMessage(() =>
        store.update(RBAC_RESOURCES.clusterrolebindings, {
          ...created,
          roleRef: { ...created.roleRef, name: 'admin' },
        }),
      ),
    ).toBe(
      'ClusterRoleBinding.rbac.authorization.k8s.io "b" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"admin"}: cannot change roleRef',
    );
  });
});
