import { describe, expect, it } from '@jest/globals';
import type { RequestInfo, UserInfo } from '../api/types';
import { parseAuthConfig } from './parseAuthConfig';
import { RbacAuthorizer } from './RbacAuthorizer';

function res(
  verb: string,
  apiGroup: string,
  resource: string,
  namespace = '',
  name = '',
  subresource = '',
): RequestInfo {
  return {
    isResourceRequest: true,
    path: '',
    verb,
    apiGroup,
    apiVersion: 'v1',
    namespace,
    resource,
    subresource,
    name,
    parts: [],
  };
}
function url(verb: string, path: string): RequestInfo {
  return {
    isResourceRequest: false,
    path,
    verb,
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    parts: [],
  };
}
function user(username: string, ...groups: string[]): UserInfo {
  return { username, groups };
}

const config = parseAuthConfig(`
rules:
  - name: team-a-edit
    groups: [team-a]
    namespaces: [team-a]
    verbs: [get, list, create]
    apiGroups: [dbaas.platform.dev]
    resources: [databaseinstances]
  - name: alice-connection
    users: [alice]
    namespaces: [team-a]
    verbs: [get]
    apiGroups: [dbaas.platform.dev]
    resources: [databaseinstances/connection]
    resourceNames: [orders-db]
  - name: scaler
    users: [scaler]
    verbs: ["*"]
    apiGroups: ["*"]
    resources: ["*/scale"]
  - name: viewer
    groups: [viewers]
    verbs: [get, list, watch]
    apiGroups: [""]
    resources: ["*"]
  - name: metrics
    users: [prometheus]
    verbs: [get]
    nonResourceURLs: [/metrics, /debug/*]
  - name: sa-reader
    users: [system:serviceaccount:ns:reader]
    verbs: [list]
    apiGroups: [""]
    resources: [secrets]
`);
const authorizer = RbacAuthorizer.fromConfig(config);
const alice = user('alice', 'team-a', 'system:authenticated');

// The auth file's `rules:` shorthand, evaluated as the RBAC objects it stands for.
describe('RbacAuthorizer over the auth-file shorthand', () => {
  it.each<[string, UserInfo, RequestInfo, boolean]>([
    [
      'group rule in its namespace',
      alice,
      res('list', 'dbaas.platform.dev', 'databaseinstances', 'team-a'),
      true,
    ],
    [
      'group rule, other namespace',
      alice,
      res('list', 'dbaas.platform.dev', 'databaseinstances', 'team-b'),
      false,
    ],
    [
      'namespaced rule never covers all namespaces',
      alice,
      res('list', 'dbaas.platform.dev', 'databaseinstances'),
      false,
    ],
    [
      'verb not granted',
      alice,
      res('delete', 'dbaas.platform.dev', 'databaseinstances', 'team-a', 'x'),
      false,
    ],
    [
      'other group',
      alice,
      res('get', 'other.dev', 'databaseinstances', 'team-a', 'x'),
      false,
    ],
    [
      'resource rule does not cover a subresource',
      alice,
      res(
        'get',
        'dbaas.platform.dev',
        'databaseinstances',
        'team-a',
        'orders-db',
        'connection',
      ),
      true,
    ],
    [
      'subresource with another name',
      alice,
      res(
        'get',
        'dbaas.platform.dev',
        'databaseinstances',
        'team-a',
        'other',
        'connection',
      ),
      false,
    ],
    [
      'subresource for another user of the group',
      user('ann', 'team-a'),
      res(
        'get',
        'dbaas.platform.dev',
        'databaseinstances',
        'team-a',
        'orders-db',
        'connection',
      ),
      false,
    ],
    [
      '*/scale matches any scale subresource',
      user('scaler'),
      res('update', 'apps', 'deployments', 'x', 'd', 'scale'),
      true,
    ],
    [
      '*/scale does not match the resource',
      user('scaler'),
      res('update', 'apps', 'deployments', 'x', 'd'),
      false,
    ],
    [
      '"*" resources in the core group, cluster-wide',
      user('v', 'viewers'),
      res('get', '', 'nodes', '', 'n1'),
      true,
    ],
    [
      '"*" resources do not extend to other groups',
      user('v', 'viewers'),
      res('get', 'apps', 'deployments', 'x', 'd'),
      false,
    ],
    [
      'non-resource exact URL',
      user('prometheus'),
      url('get', '/metrics'),
      true,
    ],
    [
      'non-resource prefix URL',
      user('prometheus'),
      url('get', '/debug/pprof/heap'),
      true,
    ],
    ['non-resource other URL', user('prometheus'), url('get', '/logs'), false],
    [
      'non-resource wrong verb',
      user('prometheus'),
      url('post', '/metrics'),
      false,
    ],
    [
      'resource rule never matches a URL',
      user('alice', 'team-a'),
      url('get', '/apis/dbaas.platform.dev/v1alpha1/databaseinstances'),
      false,
    ],
    [
      'bootstrap discovery for authenticated users',
      alice,
      url('get', '/apis/dbaas.platform.dev/v1alpha1'),
      true,
    ],
    [
      'no discovery for the unauthenticated',
      user('system:anonymous', 'system:unauthenticated'),
      url('get', '/apis'),
      false,
    ],
    [
      'health for the unauthenticated',
      user('system:anonymous', 'system:unauthenticated'),
      url('get', '/readyz'),
      true,
    ],
    [
      'self access reviews for every authenticated user',
      alice,
      res('create', 'authorization.k8s.io', 'selfsubjectaccessreviews'),
      true,
    ],
    [
      'system:masters may do anything',
      user('root', 'system:masters'),
      res('delete', 'x', 'y', 'z', 'w'),
      true,
    ],
    [
      'unknown user',
      user('mallory'),
      res('get', '', 'pods', 'default', 'p'),
      false,
    ],
  ])('%s', (_, who, info, allowed) => {
    expect(authorizer.authorize(who, info).allowed).toBe(allowed);
  });

  it.each<[string, UserInfo, RequestInfo, string]>([
    [
      'RoleBinding to a group',
      alice,
      res('list', 'dbaas.platform.dev', 'databaseinstances', 'team-a'),
      'RBAC: allowed by RoleBinding "team-a-edit/team-a" of Role "team-a-edit" to Group "team-a"',
    ],
    [
      'ClusterRoleBinding to a user',
      user('prometheus'),
      url('get', '/metrics'),
      'RBAC: allowed by ClusterRoleBinding "metrics" of ClusterRole "metrics" to User "prometheus"',
    ],
    [
      'service account subject',
      user('system:serviceaccount:ns:reader'),
      res('list', '', 'secrets', 'ns'),
      'RBAC: allowed by ClusterRoleBinding "sa-reader" of ClusterRole "sa-reader" to ServiceAccount "reader/ns"',
    ],
  ])('reason: %s', (_, who, info, reason) => {
    expect(authorizer.authorize(who, info)).toEqual({ allowed: true, reason });
  });

  it('gives an empty reason on deny, like RBAC', () => {
    expect(
      authorizer.authorize(
        user('mallory'),
        res('get', '', 'pods', 'default', 'p'),
      ),
    ).toEqual({ allowed: false, reason: '' });
  });

  it('can run without the bootstrap policy', () => {
    const bare = RbacAuthorizer.fromConfig(
      { rules: [] },
      { bootstrapPolicy: false },
    );
    expect(bare.authorize(alice, url('get', '/apis')).allowed).toBe(false);
  });
});
