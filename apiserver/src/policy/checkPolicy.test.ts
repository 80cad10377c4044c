import { describe, expect, it } from '@jest/globals';
import type {
  DatabaseInstance,
  DatabaseInstanceSpec,
} from '@internal/plugin-databases-common';
import { checkPolicy, ruleApplies, type PolicyCheckInput } from './checkPolicy';
import { parsePolicy } from './parsePolicy';
import type { LabelSelector, Policy } from './types';

/** A policy from its YAML text, as the platform team writes it. */
function policy(text: string): Policy {
  const result = parsePolicy(text);
  if ('errors' in result) throw new Error(result.errors.join('\n'));
  return result.policy;
}

function instance(
  name: string,
  spec: Partial<DatabaseInstanceSpec>,
  namespace = 'team-a',
): DatabaseInstance {
  return {
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseInstance',
    metadata: { name, namespace },
    spec: { engine: 'mariadb', ...spec },
  };
}

const spec = (s: Partial<DatabaseInstanceSpec>): DatabaseInstanceSpec => ({
  engine: 'mariadb',
  version: '11.4',
  topology: 'replication',
  replicas: 1,
  storage: { size: '10Gi' },
  resources: { requests: { cpu: '500m', memory: '1Gi' } },
  ...s,
});

function check(input: Partial<PolicyCheckInput> & { policy: Policy }) {
  return checkPolicy({
    namespace: 'team-a',
    namespaceLabels: {},
    name: 'orders-db',
    request: spec({}),
    current: [],
    ...input,
  });
}

describe('ruleApplies', () => {
  const bySelector = (namespaceSelector: LabelSelector) => ({
    name: 'r',
    namespaceSelector,
  });
  it.each([
    [
      'listed namespace',
      { name: 'r', namespaces: ['team-a', 'team-b'] },
      'team-b',
      {},
      true,
    ],
    [
      'unlisted namespace',
      { name: 'r', namespaces: ['team-a'] },
      'team-c',
      {},
      false,
    ],
    [
      'listed names ignore labels',
      { name: 'r', namespaces: ['team-a'] },
      'team-c',
      { tier: 'dev' },
      false,
    ],
    ['empty selector', bySelector({}), 'anything', {}, true],
    [
      'matchLabels equal',
      bySelector({ matchLabels: { tier: 'dev' } }),
      'x',
      { tier: 'dev', a: 'b' },
      true,
    ],
    [
      'matchLabels different value',
      bySelector({ matchLabels: { tier: 'dev' } }),
      'x',
      { tier: 'prod' },
      false,
    ],
    [
      'matchLabels absent key',
      bySelector({ matchLabels: { tier: 'dev' } }),
      'x',
      {},
      false,
    ],
    [
      'In matches',
      bySelector({
        matchExpressions: [
          { key: 'tier', operator: 'In', values: ['dev', 'test'] },
        ],
      }),
      'x',
      { tier: 'test' },
      true,
    ],
    [
      'In, other value',
      bySelector({
        matchExpressions: [{ key: 'tier', operator: 'In', values: ['dev'] }],
      }),
      'x',
      { tier: 'prod' },
      false,
    ],
    [
      'In, absent key',
      bySelector({
        matchExpressions: [{ key: 'tier', operator: 'In', values: ['dev'] }],
      }),
      'x',
      {},
      false,
    ],
    [
      'NotIn, other value',
      bySelector({
        matchExpressions: [
          { key: 'tier', operator: 'NotIn', values: ['prod'] },
        ],
      }),
      'x',
      { tier: 'dev' },
      true,
    ],
    [
      'NotIn, listed value',
      bySelector({
        matchExpressions: [
          { key: 'tier', operator: 'NotIn', values: ['prod'] },
        ],
      }),
      'x',
      { tier: 'prod' },
      false,
    ],
    [
      'NotIn, absent key',
      bySelector({
        matchExpressions: [
          { key: 'tier', operator: 'NotIn', values: ['prod'] },
        ],
      }),
      'x',
      {},
      true,
    ],
    [
      'Exists, present',
      bySelector({
        matchExpressions: [{ key: 'sandbox', operator: 'Exists' }],
      }),
      'x',
      { sandbox: '' },
      true,
    ],
    [
      'Exists, absent',
      bySelector({
        matchExpressions: [{ key: 'sandbox', operator: 'Exists' }],
      }),
      'x',
      {},
      false,
    ],
    [
      'DoesNotExist, absent',
      bySelector({
        matchExpressions: [{ key: 'sandbox', operator: 'DoesNotExist' }],
      }),
      'x',
      {},
      true,
    ],
    [
      'DoesNotExist, present',
      bySelector({
        matchExpressions: [{ key: 'sandbox', operator: 'DoesNotExist' }],
      }),
      'x',
      { sandbox: 'y' },
      false,
    ],
    [
      'labels and expressions must all hold',
      bySelector({
        matchLabels: { tier: 'dev' },
        matchExpressions: [{ key: 'sandbox', operator: 'Exists' }],
      }),
      'x',
      { tier: 'dev' },
      false,
    ],
    [
      'the implied name label',
      bySelector({
        matchExpressions: [
          {
            key: 'kubernetes.io/metadata.name',
            operator: 'In',
            values: ['team-a'],
          },
        ],
      }),
      'team-a',
      {},
      true,
    ],
    [
      'the implied name label, other namespace',
      bySelector({ matchLabels: { 'kubernetes.io/metadata.name': 'team-a' } }),
      'team-b',
      {},
      false,
    ],
  ])('%s', (_what, rule, namespace, labels, expected) => {
    expect(ruleApplies(rule as any, namespace, labels)).toBe(expected);
  });
});

describe('checkPolicy: no limits', () => {
  it('allows anything without rules', () => {
    expect(check({ policy: { rules: [] } })).toBeUndefined();
  });

  it('ignores rules of other namespaces', () => {
    const p = policy(
      'rules:\n  - { name: r, namespaces: [team-b], engines: [], max: { instances: 0 } }',
    );
    expect(check({ policy: p })).toBeUndefined();
  });
});

describe('checkPolicy: limits on create', () => {
  // Two instances already in team-a: 3 × (250m, 2Gi, 10Gi) and 1 × (1, 4Gi, 15Gi) = 4 replicas,
  // 1750m CPU, 10Gi memory, 45Gi storage. One in another namespace that must not count.
  const current = [
    instance('a', {
      replicas: 3,
      storage: { size: '10Gi' },
      resources: { requests: { cpu: '250m', memory: '2Gi' } },
    }),
    instance('b', {
      replicas: 1,
      storage: { size: '15Gi' },
      resources: { requests: { cpu: '1', memory: '4Gi' } },
    }),
    instance('elsewhere', { replicas: 9, storage: { size: '1Ti' } }, 'team-b'),
  ];
  // The request: 1 × (500m, 1Gi, 10Gi) (see `spec`).
  it.each([
    ['instances', '3', undefined],
    [
      'instances',
      '2',
      'exceeded policy: q, requested: instances=1, used: instances=2, limited: instances=2',
    ],
    ['replicas', '5', undefined],
    [
      'replicas',
      '4',
      'exceeded policy: q, requested: replicas=1, used: replicas=4, limited: replicas=4',
    ],
    ['replicasPerInstance', '1', undefined],
    [
      'replicasPerInstance',
      '0',
      'exceeded policy: q, requested: replicasPerInstance=1, used: replicasPerInstance=0, limited: replicasPerInstance=0',
    ],
    ['cpu', '2250m', undefined],
    [
      'cpu',
      '2',
      'exceeded policy: q, requested: cpu=500m, used: cpu=1750m, limited: cpu=2',
    ],
    ['memory', '11Gi', undefined],
    [
      'memory',
      '10.5Gi',
      'exceeded policy: q, requested: memory=1Gi, used: memory=10Gi, limited: memory=10752Mi',
    ],
    ['storage', '55Gi', undefined],
    [
      'storage',
      '50Gi',
      'exceeded policy: q, requested: storage=10Gi, used: storage=45Gi, limited: storage=50Gi',
    ],
  ])('max.%s = %s', (limit, value, message) => {
    const p = policy(
      `rules:\n  - { name: q, namespaces: [team-a], max: { ${limit}: "${value}" } }`.replace(
        /"(\d+)"/,
        '$1',
      ),
    );
    const violation = check({ policy: p, current });
    expect(violation?.message).toBe(message);
    const who = violation && {
      kind: violation.kind,
      rule: violation.rule,
      name: violation.name,
      namespace: violation.namespace,
    };
    expect(who).toEqual(
      message
        ? {
            kind: 'QuotaExceeded',
            rule: 'q',
            name: 'orders-db',
            namespace: 'team-a',
          }
        : undefined,
    );
  });

  it('counts CPU and memory as request × replicas, storage as size × replicas', () => {
    const p = policy(
      'rules:\n  - { name: q, namespaces: [team-a], max: { cpu: 2, memory: 3Gi, storage: 30Gi } }',
    );
    const request = spec({
      replicas: 3,
      storage: { size: '10Gi' },
      resources: { requests: { cpu: '700m', memory: '1Gi' } },
    });
    expect(check({ policy: p, request })?.message).toBe(
      'exceeded policy: q, requested: cpu=2100m, used: cpu=0, limited: cpu=2',
    );
  });

  it('counts the limit when a replica has no request', () => {
    const p = policy(
      'rules:\n  - { name: q, namespaces: [team-a], max: { memory: 4Gi } }',
    );
    const request = spec({
      replicas: 2,
      resources: { limits: { memory: '3Gi' } },
    });
    expect(check({ policy: p, request })?.message).toBe(
      'exceeded policy: q, requested: memory=6Gi, used: memory=0, limited: memory=4Gi',
    );
  });

  it('lists every exceeded limit of the rule, sorted as ResourceQuota sorts them', () => {
    const p = policy(
      'rules:\n  - { name: q, namespaces: [team-a], max: { storage: 50Gi, cpu: 2, instances: 10 } }',
    );
    expect(check({ policy: p, current })?.message).toBe(
      'exceeded policy: q, requested: cpu=500m,storage=10Gi, used: cpu=1750m,storage=45Gi, limited: cpu=2,storage=50Gi',
    );
  });

  it('refuses a request that leaves out an amount the rule limits', () => {
    const p = policy(
      'rules:\n  - { name: q, namespaces: [team-a], max: { cpu: 8, memory: 8Gi, storage: 1Ti } }',
    );
    const request = spec({
      resources: { requests: { memory: '1Gi' } },
      storage: {},
    });
    expect(check({ policy: p, request })).toMatchObject({
      kind: 'MustSpecify',
      fields: ['resources.requests.cpu', 'storage.size'],
      message:
        'failed policy: q: must specify resources.requests.cpu, storage.size',
    });
  });

  it('does not count the instance itself twice when it is already listed', () => {
    const p = policy(
      'rules:\n  - { name: q, namespaces: [team-a], max: { instances: 1 } }',
    );
    expect(
      check({ policy: p, current: [instance('orders-db', {})] }),
    ).toBeUndefined();
  });
});

describe('checkPolicy: limits on update (only the increase counts)', () => {
  const before = spec({
    replicas: 3,
    storage: { size: '10Gi' },
    resources: { requests: { cpu: '1', memory: '2Gi' } },
  });
  // The instance itself and one other (1 × 500m, 1Gi, 10Gi): 4 replicas, 3500m, 7Gi, 40Gi.
  const current = [instance('orders-db', before), instance('other', spec({}))];
  const update = (request: DatabaseInstanceSpec, max: string) =>
    check({
      policy: policy(
        `rules:\n  - { name: q, namespaces: [team-a], max: { ${max} } }`,
      ),
      request,
      previous: before,
      current,
    });

  it.each([
    [
      'scale-up within the limit',
      spec({ ...before, replicas: 4 }),
      'replicas: 5',
      undefined,
    ],
    [
      'scale-up over the total',
      spec({ ...before, replicas: 5 }),
      'replicas: 5',
      'exceeded policy: q, requested: replicas=2, used: replicas=4, limited: replicas=5',
    ],
    [
      'scale-up over the per-instance cap',
      spec({ ...before, replicas: 4 }),
      'replicasPerInstance: 3',
      'exceeded policy: q, requested: replicasPerInstance=4, used: replicasPerInstance=3, limited: replicasPerInstance=3',
    ],
    [
      'scale-up multiplies storage',
      spec({ ...before, replicas: 4 }),
      'storage: 45Gi',
      'exceeded policy: q, requested: storage=10Gi, used: storage=40Gi, limited: storage=45Gi',
    ],
    [
      'storage growth',
      spec({ ...before, storage: { size: '12Gi' } }),
      'storage: 45Gi',
      'exceeded policy: q, requested: storage=6Gi, used: storage=40Gi, limited: storage=45Gi',
    ],
    [
      'cpu growth',
      spec({
        ...before,
        resources: { requests: { cpu: '1200m', memory: '2Gi' } },
      }),
      'cpu: 4',
      'exceeded policy: q, requested: cpu=600m, used: cpu=3500m, limited: cpu=4',
    ],
    [
      'memory growth within the limit',
      spec({ ...before, resources: { requests: { cpu: '1', memory: '3Gi' } } }),
      'memory: 10Gi',
      undefined,
    ],
    [
      'an update never adds an instance',
      spec({ ...before, version: '11.8' }),
      'instances: 2',
      undefined,
    ],
    // Already over limits set after it was created: changes that add nothing pass.
    [
      'unchanged usage over every limit',
      spec({ ...before, version: '11.8' }),
      'instances: 0, replicas: 1, replicasPerInstance: 1, cpu: 1m, memory: 1Mi, storage: 1Gi',
      undefined,
    ],
    [
      'a scale-down over the limit',
      spec({ ...before, replicas: 2 }),
      'replicas: 1, storage: 1Gi',
      undefined,
    ],
    [
      'a scale-down that grows storage per replica',
      spec({ ...before, replicas: 2, storage: { size: '14Gi' } }),
      'storage: 1Gi',
      undefined,
    ],
  ])('%s', (_what, request, max, message) => {
    expect(update(request, max)?.message).toBe(message);
  });

  it('lets an update keep leaving out an amount it never had, but not drop one it had', () => {
    const withoutCpu = spec({ resources: { requests: { memory: '1Gi' } } });
    const p = policy(
      'rules:\n  - { name: q, namespaces: [team-a], max: { cpu: 8 } }',
    );
    expect(
      check({
        policy: p,
        request: { ...withoutCpu, replicas: 2 },
        previous: withoutCpu,
      }),
    ).toBeUndefined();
    expect(
      check({ policy: p, request: withoutCpu, previous: spec({}) })?.kind,
    ).toBe('MustSpecify');
  });
});

describe('checkPolicy: engines, topologies and versions', () => {
  const p = policy(`
rules:
  - name: x
    namespaces: [team-a]
    engines: [mariadb, mysql]
    topologies: { mariadb: [standalone, replication] }
    versions: { mariadb: ">=10.11 <12", mysql: "8.0 || >=8.4" }
`);
  it.each([
    ['an allowed create', spec({}), undefined, undefined],
    [
      'an engine not allowed',
      spec({ engine: 'redis', version: '7.2', topology: 'standalone' }),
      undefined,
      'engine "redis" is not allowed in namespace team-a by policy rule "x"; allowed: mariadb, mysql',
    ],
    [
      'a topology not allowed',
      spec({ topology: 'galera', replicas: 3 }),
      undefined,
      'topology "galera" of engine mariadb is not allowed in namespace team-a by policy rule "x"; allowed: standalone, replication',
    ],
    [
      'no topology where topologies are limited',
      spec({ topology: undefined }),
      undefined,
      'topology (unset) of engine mariadb is not allowed in namespace team-a by policy rule "x"; allowed: standalone, replication',
    ],
    [
      'a version below the range',
      spec({ version: '10.6' }),
      undefined,
      'version "10.6" of engine mariadb is not allowed in namespace team-a by policy rule "x"; allowed: >=10.11 <12',
    ],
    [
      'a version above the range',
      spec({ version: '12.0.2' }),
      undefined,
      'version "12.0.2" of engine mariadb is not allowed in namespace team-a by policy rule "x"; allowed: >=10.11 <12',
    ],
    [
      'no version where versions are limited',
      spec({ version: undefined }),
      undefined,
      'version (unset) of engine mariadb is not allowed in namespace team-a by policy rule "x"; allowed: >=10.11 <12',
    ],
    [
      'an allowed version of another engine',
      spec({ engine: 'mysql', version: '8.0.36', topology: 'innodbcluster' }),
      undefined,
      undefined,
    ],
    [
      'a refused version of another engine',
      spec({ engine: 'mysql', version: '8.1', topology: 'innodbcluster' }),
      undefined,
      'version "8.1" of engine mysql is not allowed in namespace team-a by policy rule "x"; allowed: 8.0 || >=8.4',
    ],
    [
      'an upgrade out of the range',
      spec({ version: '12.1' }),
      spec({ version: '11.4' }),
      'version "12.1" of engine mariadb is not allowed in namespace team-a by policy rule "x"; allowed: >=10.11 <12',
    ],
    [
      'an update keeping a version the policy no longer allows',
      spec({ version: '10.6', replicas: 2 }),
      spec({ version: '10.6' }),
      undefined,
    ],
    [
      'an update keeping a topology the policy no longer allows',
      spec({ topology: 'galera', replicas: 5 }),
      spec({ topology: 'galera', replicas: 3 }),
      undefined,
    ],
    [
      'an update of an instance of an engine no longer allowed',
      spec({ engine: 'redis', version: '7.2', replicas: 2 }),
      spec({ engine: 'redis', version: '7.2' }),
      undefined,
    ],
  ])('%s', (_what, request, previous, message) => {
    const violation = check({ policy: p, request, previous });
    expect(violation?.message).toBe(message);
  });

  it('names what was refused and what is allowed', () => {
    expect(
      check({ policy: p, request: spec({ version: '10.6' }) }),
    ).toMatchObject({
      kind: 'VersionNotAllowed',
      rule: 'x',
      engine: 'mariadb',
      value: '10.6',
      allowed: '>=10.11 <12',
    });
  });

  it('refuses every engine with an empty list', () => {
    const none = policy(
      'rules:\n  - { name: frozen, namespaces: [team-a], engines: [] }',
    );
    expect(check({ policy: none })?.message).toBe(
      'engine "mariadb" is not allowed in namespace team-a by policy rule "frozen"; allowed: (none)',
    );
  });
});

describe('checkPolicy: several rules', () => {
  const p = policy(`
rules:
  - name: everyone
    namespaceSelector: {}
    max: { replicasPerInstance: 5 }
  - name: dev-namespaces
    namespaceSelector: { matchLabels: { tier: dev } }
    engines: [redis]
  - name: team-a-quota
    namespaces: [team-a]
    max: { storage: 15Gi }
`);
  it('applies every matching rule; each must pass', () => {
    expect(check({ policy: p })).toBeUndefined();
    expect(
      check({
        policy: p,
        request: spec({ replicas: 6, storage: { size: '1Gi' } }),
      })?.rule,
    ).toBe('everyone');
    expect(check({ policy: p, request: spec({ replicas: 2 }) })?.rule).toBe(
      'team-a-quota',
    );
    expect(check({ policy: p, namespaceLabels: { tier: 'dev' } })?.rule).toBe(
      'dev-namespaces',
    );
    expect(
      check({ policy: p, namespace: 'team-b', request: spec({ replicas: 2 }) }),
    ).toBeUndefined();
  });
});
