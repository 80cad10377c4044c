import { describe, expect, it } from '@jest/globals';
import { RbacAuthorizer } from '../auth/RbacAuthorizer';
import { MemoryObjectStore } from '../store/MemoryObjectStore';
import { RBAC_RESOURCES, RbacObjectIndex } from './RbacObjectIndex';
import type { RbacObject, Subject } from './types';
import {
  nonResourceRequest,
  resourceRequest,
  userInfo,
} from './__testUtils__/requests';

const G = 'dbaas.platform.dev';
const V = 'rbac.authorization.k8s.io/v1';
const group = (name: string): Subject => ({
  kind: 'Group',
  apiGroup: 'rbac.authorization.k8s.io',
  name,
});
const ref = (kind: 'Role' | 'ClusterRole', name: string) => ({
  apiGroup: 'rbac.authorization.k8s.io',
  kind,
  name,
});

const objects: RbacObject[] = [
  {
    apiVersion: V,
    kind: 'ClusterRole',
    metadata: { name: 'databases-view' },
    rules: [
      {
        verbs: ['get', 'list', 'watch'],
        apiGroups: [G],
        resources: ['databaseinstances', 'databaseengines'],
      },
    ],
  },
  {
    apiVersion: V,
    kind: 'ClusterRole',
    metadata: { name: 'probe' },
    rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz/*'] }],
  },
  // a RoleBinding to a ClusterRole: the role's rules, in team-a only
  {
    apiVersion: V,
    kind: 'RoleBinding',
    metadata: { name: 'team-a-view', namespace: 'team-a' },
    roleRef: ref('ClusterRole', 'databases-view'),
    subjects: [group('team-a')],
  },
  // a ClusterRoleBinding: every namespace and the cluster scope
  {
    apiVersion: V,
    kind: 'ClusterRoleBinding',
    metadata: { name: 'viewers' },
    roleRef: ref('ClusterRole', 'databases-view'),
    subjects: [group('viewers')],
  },
  {
    apiVersion: V,
    kind: 'ClusterRoleBinding',
    metadata: { name: 'probes' },
    roleRef: ref('ClusterRole', 'probe'),
    subjects: [
      { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'kubelet' },
    ],
  },
  // a Role is found in the binding's namespace only
  {
    apiVersion: V,
    kind: 'Role',
    metadata: { name: 'policy-reader', namespace: 'dbaas-system' },
    rules: [
      {
        verbs: ['get'],
        apiGroups: [''],
        resources: ['configmaps'],
        resourceNames: ['dbaas-policy'],
      },
    ],
  },
  {
    apiVersion: V,
    kind: 'RoleBinding',
    metadata: { name: 'policy-reader', namespace: 'dbaas-system' },
    roleRef: ref('Role', 'policy-reader'),
    // a ServiceAccount subject without a namespace is one of the binding's namespace
    subjects: [{ kind: 'ServiceAccount', name: 'apiserver' }],
  },
  {
    apiVersion: V,
    kind: 'RoleBinding',
    metadata: { name: 'policy-reader', namespace: 'team-a' },
    roleRef: ref('Role', 'policy-reader'),
    subjects: [group('team-a')],
  },
  {
    apiVersion: V,
    kind: 'ClusterRoleBinding',
    metadata: { name: 'dangling' },
    roleRef: ref('ClusterRole', 'gone'),
    subjects: [group('team-a')],
  },
  // a ClusterRoleBinding's ServiceAccount needs its namespace: without one it binds nobody
  {
    apiVersion: V,
    kind: 'ClusterRoleBinding',
    metadata: { name: 'sa-without-namespace' },
    roleRef: ref('ClusterRole', 'databases-view'),
    subjects: [{ kind: 'ServiceAccount', name: 'apiserver' }],
  },
];

const authorizer = new RbacAuthorizer(RbacObjectIndex.of(objects));
const alice = userInfo('alice', 'team-a', 'system:authenticated');
const carol = userInfo('carol', 'viewers', 'system:authenticated');
const apiserver = userInfo(
  'system:serviceaccount:dbaas-system:apiserver',
  'system:serviceaccounts',
  'system:authenticated',
);
const list = (namespace?: string) =>
  resourceRequest('list', G, 'databaseinstances', { namespace });

describe('RBAC evaluation over Roles, ClusterRoles and their bindings', () => {
  it('a RoleBinding to a ClusterRole grants its rules in the binding namespace only', () => {
    expect(authorizer.authorize(alice, list('team-a'))).toEqual({
      allowed: true,
      reason:
        'RBAC: allowed by RoleBinding "team-a-view/team-a" of ClusterRole "databases-view" to Group "team-a"',
    });
    expect(authorizer.authorize(alice, list('team-b')).allowed).toBe(false);
    // neither across all namespaces nor cluster-scoped kinds
    expect(authorizer.authorize(alice, list()).allowed).toBe(false);
    expect(
      authorizer.authorize(alice, resourceRequest('list', G, 'databaseengines'))
        .allowed,
    ).toBe(false);
  });

  it('a ClusterRoleBinding grants in every namespace and at the cluster scope', () => {
    for (const request of [
      list('team-a'),
      list('team-b'),
      list(),
      resourceRequest('get', G, 'databaseengines', { name: 'redis' }),
    ])
      expect(authorizer.authorize(carol, request)).toEqual({
        allowed: true,
        reason:
          'RBAC: allowed by ClusterRoleBinding "viewers" of ClusterRole "databases-view" to Group "viewers"',
      });
  });

  it('a Role is looked up in the binding namespace, and a namespace-less ServiceAccount subject is of that namespace', () => {
    const policy = resourceRequest('get', '', 'configmaps', {
      namespace: 'dbaas-system',
      name: 'dbaas-policy',
    });
    expect(authorizer.authorize(apiserver, policy)).toEqual({
      allowed: true,
      reason:
        'RBAC: allowed by RoleBinding "policy-reader/dbaas-system" of Role "policy-reader" to ServiceAccount "apiserver/dbaas-system"',
    });
    expect(
      authorizer.authorize(apiserver, { ...policy, name: 'other' }).allowed,
    ).toBe(false);
    expect(
      authorizer.authorize(apiserver, { ...policy, namespace: 'team-a' })
        .allowed,
    ).toBe(false);
    // the ClusterRoleBinding naming the ServiceAccount without a namespace binds nobody
    expect(authorizer.authorize(apiserver, list()).allowed).toBe(false);
  });

  it('a binding to a Role of another namespace, or to a missing role, is reported in the deny reason', () => {
    expect(
      authorizer.authorize(
        alice,
        resourceRequest('get', '', 'configmaps', {
          namespace: 'team-a',
          name: 'dbaas-policy',
        }),
      ),
    ).toEqual({
      allowed: false,
      reason:
        'RBAC: [clusterrole.rbac.authorization.k8s.io "gone" not found, role.rbac.authorization.k8s.io "policy-reader" not found]',
    });
    expect(authorizer.authorize(alice, list())).toEqual({
      allowed: false,
      reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found',
    });
    expect(authorizer.authorize(userInfo('mallory'), list())).toEqual({
      allowed: false,
      reason: '',
    });
  });

  it('user subjects, non-resource rules', () => {
    expect(
      authorizer.authorize(
        userInfo('kubelet'),
        nonResourceRequest('get', '/healthz/etcd'),
      ),
    ).toEqual({
      allowed: true,
      reason:
        'RBAC: allowed by ClusterRoleBinding "probes" of ClusterRole "probe" to User "kubelet"',
    });
    expect(
      authorizer.authorize(
        userInfo('kubelet2'),
        nonResourceRequest('get', '/healthz/etcd'),
      ).allowed,
    ).toBe(false);
  });

  it('system:masters is allowed without any rule', () => {
    expect(
      authorizer.authorize(
        userInfo('root', 'system:masters'),
        resourceRequest('delete', 'x', 'y', { namespace: 'z', name: 'w' }),
      ),
    ).toEqual({
      allowed: true,
      reason: '',
    });
  });

  it('lists the rules of a user in a namespace, resource and non-resource apart', () => {
    expect(authorizer.rulesFor(alice, 'team-a')).toEqual({
      resourceRules: [
        {
          verbs: ['get', 'list', 'watch'],
          apiGroups: [G],
          resources: ['databaseinstances', 'databaseengines'],
        },
      ],
      nonResourceRules: [],
      evaluationError:
        '[clusterrole.rbac.authorization.k8s.io "gone" not found, role.rbac.authorization.k8s.io "policy-reader" not found]',
    });
    expect(authorizer.rulesFor(userInfo('kubelet'), 'default')).toEqual({
      resourceRules: [],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz/*'] }],
      evaluationError: '',
    });
  });

  it('follows the store: a binding written applies to the next request, a deleted role no longer', () => {
    const store = new MemoryObjectStore();
    store.create(RBAC_RESOURCES.clusterroles, objects[0] as any);
    const index = RbacObjectIndex.watching(store);
    const live = new RbacAuthorizer(index);
    expect(live.authorize(carol, list()).allowed).toBe(false);
    store.create(RBAC_RESOURCES.clusterrolebindings, objects[3] as any);
    expect(live.authorize(carol, list()).allowed).toBe(true);
    store.delete(RBAC_RESOURCES.clusterroles, undefined, 'databases-view');
    expect(live.authorize(carol, list())).toEqual({
      allowed: false,
      reason:
        'RBAC: clusterrole.rbac.authorization.k8s.io "databases-view" not found',
    });
    index.stop();
  });
});
