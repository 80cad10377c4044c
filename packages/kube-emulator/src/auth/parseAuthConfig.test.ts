import { describe, expect, it } from '@jest/globals';
import {
  AuthConfigError,
  DEFAULT_AUTH_CONFIG_PATH,
  loadAuthConfig,
  parseAuthConfig,
} from './parseAuthConfig';

function problemsOf(text: string): string[] {
  try {
    parseAuthConfig(text);
  } catch (e) {
    expect(e).toBeInstanceOf(AuthConfigError);
    return (e as AuthConfigError).problems;
  }
  throw new Error('expected the config to be rejected');
}

describe('parseAuthConfig', () => {
  it('parses users, service accounts and rules', () => {
    const config = parseAuthConfig(`
users:
  - { name: alice, groups: [team-a], tokens: [t1], certCN: alice-cert, uid: "42" }
serviceAccounts:
  - { namespace: ns, name: sa, tokens: [t2] }
rules:
  - name: r1
    users: [alice]
    namespaces: [team-a]
    verbs: [get]
    apiGroups: [""]
    resources: [pods/log]
  - name: r2
    groups: [g]
    verbs: [get]
    nonResourceURLs: [/healthz, /apis/*]
`);
    expect(config.users).toEqual([
      {
        name: 'alice',
        groups: ['team-a'],
        tokens: ['t1'],
        certCN: 'alice-cert',
        uid: '42',
      },
    ]);
    expect(config.serviceAccounts).toEqual([
      { namespace: 'ns', name: 'sa', tokens: ['t2'] },
    ]);
    expect(config.rules).toHaveLength(2);
    expect(config.rules[0]).toMatchObject({
      namespaces: ['team-a'],
      apiGroups: [''],
      resources: ['pods/log'],
    });
    expect(config.rules[1]).toMatchObject({
      namespaces: '*',
      nonResourceURLs: ['/healthz', '/apis/*'],
    });
  });

  it('expands impersonate shorthands into impersonate-verb rules', () => {
    const config = parseAuthConfig(`
rules:
  - name: imp
    users: [backend]
    impersonate:
      users: ["*"]
      groups: [team-a]
      uids: ["1"]
      serviceAccounts: [team-a/*, ns/sa]
      userExtras: { scopes: [openid] }
`);
    const summary = config.rules.map(r => [
      r.apiGroups[0],
      r.resources[0],
      r.resourceNames,
      r.namespaces,
      r.verbs,
    ]);
    expect(summary).toEqual([
      ['', 'users', [], '*', ['impersonate']],
      ['', 'groups', ['team-a'], '*', ['impersonate']],
      ['authentication.k8s.io', 'uids', ['1'], '*', ['impersonate']],
      ['', 'serviceaccounts', [], ['team-a'], ['impersonate']],
      ['', 'serviceaccounts', ['sa'], ['ns'], ['impersonate']],
      [
        'authentication.k8s.io',
        'userextras/scopes',
        ['openid'],
        '*',
        ['impersonate'],
      ],
    ]);
  });

  it.each([
    ['unknown top-level key', 'userz: []', '$.userz: unknown key'],
    [
      'user without name',
      'users: [{ groups: [a] }]',
      'users[0].name: is required',
    ],
    [
      'groups not a list',
      'users: [{ name: a, groups: a }]',
      'users[0].groups: must be a list of strings',
    ],
    [
      'unknown user key',
      'users: [{ name: a, token: x }]',
      'users[0].token: unknown key',
    ],
    [
      'duplicate token',
      'users: [{ name: a, tokens: [x] }, { name: b, tokens: [x] }]',
      'users[1].tokens[0]: token already used by users[0]',
    ],
    [
      'rule without subjects',
      'rules: [{ name: r, verbs: [get], apiGroups: [""], resources: [pods] }]',
      'rules[0]: needs at least one of users, groups',
    ],
    [
      'rule without verbs',
      'rules: [{ name: r, users: [a], apiGroups: [""], resources: [pods] }]',
      'rules[0].verbs: is required',
    ],
    [
      'rule without apiGroups',
      'rules: [{ name: r, users: [a], verbs: [get], resources: [pods] }]',
      'rules[0].apiGroups: is required',
    ],
    [
      'rule without target',
      'rules: [{ name: r, users: [a], verbs: [get] }]',
      'rules[0]: needs resources',
    ],
    [
      'non-resource URL in a namespace',
      'rules: [{ name: r, users: [a], verbs: [get], namespaces: [x], nonResourceURLs: [/x] }]',
      'rules[0].namespaces: nonResourceURLs rules are cluster-wide',
    ],
    [
      'non-resource URL without slash',
      'rules: [{ name: r, users: [a], verbs: [get], nonResourceURLs: [x] }]',
      'rules[0].nonResourceURLs[0]: must start with "/"',
    ],
    [
      'impersonate mixed with verbs',
      'rules: [{ name: r, users: [a], verbs: [get], impersonate: { users: ["*"] } }]',
      'rules[0].impersonate: cannot be combined',
    ],
    [
      'bad service account ref',
      'rules: [{ name: r, users: [a], impersonate: { serviceAccounts: [sa] } }]',
      'rules[0].impersonate.serviceAccounts[0]: must be',
    ],
    [
      'empty impersonate',
      'rules: [{ name: r, users: [a], impersonate: {} }]',
      'rules[0].impersonate: must grant at least one',
    ],
    ['invalid YAML', 'users: [', 'not valid YAML'],
  ])('rejects %s naming the key', (_, text, expected) => {
    expect(problemsOf(text).join('\n')).toContain(expected);
  });

  it('reports every problem at once', () => {
    expect(
      problemsOf('users: [{ groups: 1 }]\nrules: [{ name: r }]').length,
    ).toBeGreaterThanOrEqual(3);
  });

  it('accepts an empty file', () => {
    expect(parseAuthConfig('')).toEqual({
      users: [],
      serviceAccounts: [],
      rules: [],
      rbac: [],
    });
  });

  it('takes RBAC objects as they are and checks only what they are', () => {
    const binding = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'b', namespace: 'team-a' },
      roleRef: {
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'ClusterRole',
        name: 'view',
      },
      subjects: [{ kind: 'Group', name: 'team-a' }],
    };
    expect(parseAuthConfig(JSON.stringify({ rbac: [binding] })).rbac).toEqual([
      binding,
    ]);
    expect(
      problemsOf(
        JSON.stringify({
          rbac: [{ apiVersion: 'v1', kind: 'Secret', metadata: {} }, 'x'],
        }),
      ),
    ).toEqual([
      'rbac[0].apiVersion: must be rbac.authorization.k8s.io/v1',
      'rbac[0].kind: must be one of ClusterRole, Role, ClusterRoleBinding, RoleBinding',
      'rbac[0].metadata.name: is required',
      'rbac[1]: must be a mapping',
    ]);
  });

  it('ships a valid default file for the demo', async () => {
    const config = await loadAuthConfig(DEFAULT_AUTH_CONFIG_PATH);
    expect(config.users.map(u => u.name)).toEqual(
      expect.arrayContaining(['admin', 'alice', 'bob']),
    );
    expect(
      config.serviceAccounts.map(s => `${s.namespace}/${s.name}`),
    ).toContain('dbaas-system/apiserver');
    // the apiserver's permissions come from the Helm chart, never from this file
    expect(
      config.rules.filter(r => r.users.some(u => u.includes(':dbaas-system:'))),
    ).toEqual([]);
    expect(JSON.stringify(config.rbac)).not.toContain('dbaas-system');
  });
});
