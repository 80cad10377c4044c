import { describe, expect, it } from '@jest/globals';
import { parsePolicy, policyFromConfigMap } from './parsePolicy';

const GOOD = `
rules:
  - name: team-a-quota
    namespaces: [team-a, team-b]
    engines: [mariadb, mysql]
    topologies:
      mariadb: [standalone, replication]
    versions:
      mariadb: ">=10.11 <12"
    max:
      instances: 5
      replicas: 9
      replicasPerInstance: 3
      cpu: 4
      memory: 16Gi
      storage: 100Gi
  - name: dev
    namespaceSelector:
      matchLabels: { tier: dev }
      matchExpressions:
        - { key: app.kubernetes.io/part-of, operator: NotIn, values: [payments] }
        - { key: sandbox, operator: Exists }
`;

function errorsOf(text: string): string[] {
  const result = parsePolicy(text);
  if (!('errors' in result)) throw new Error('expected errors');
  return result.errors;
}

describe('parsePolicy', () => {
  it('turns a valid document into typed rules', () => {
    const result = parsePolicy(GOOD);
    if (!('policy' in result)) throw new Error(result.errors.join('\n'));
    const [quota, dev] = result.policy.rules;
    expect(quota.name).toBe('team-a-quota');
    expect(quota.namespaces).toEqual(['team-a', 'team-b']);
    expect(quota.engines).toEqual(['mariadb', 'mysql']);
    expect(quota.topologies).toEqual({
      mariadb: ['standalone', 'replication'],
    });
    expect(quota.versions?.mariadb?.text).toBe('>=10.11 <12');
    expect(quota.max?.instances).toBe(5);
    expect(quota.max?.replicas).toBe(9);
    expect(quota.max?.replicasPerInstance).toBe(3);
    expect(quota.max?.cpu?.nanos).toBe(4_000_000_000n);
    expect(quota.max?.memory?.nanos).toBe(16n * 1024n ** 3n * 1_000_000_000n);
    expect(quota.max?.storage?.text).toBe('100Gi');
    expect(dev.namespaces).toBeUndefined();
    expect(dev.namespaceSelector?.matchLabels).toEqual({ tier: 'dev' });
    expect(dev.namespaceSelector?.matchExpressions).toHaveLength(2);
    expect(dev.max).toBeUndefined();
  });

  it('accepts an empty rule list (no limits)', () => {
    expect(parsePolicy('rules: []')).toEqual({ policy: { rules: [] } });
  });

  const rule = (extra: string) =>
    `rules:\n  - name: r\n    namespaces: [a]\n${extra}`;

  it.each([
    [
      'broken YAML',
      'rules: [\n  - name: x',
      /^invalid YAML at line \d+, column \d+/,
    ],
    ['duplicate YAML keys', 'rules: []\nrules: []', /^invalid YAML.*unique/i],
    ['an empty document', '', /must be a mapping with the key "rules"/],
    [
      'a list at the top',
      '- name: x',
      /must be a mapping with the key "rules"/,
    ],
    ['no rules key', 'rule: []', /^rules: required$/],
    [
      'an unknown top-level key',
      'rules: []\nlimits: {}',
      /^limits: unknown key$/,
    ],
    ['rules not a list', 'rules: {}', /^rules: must be array$/],
    [
      'a rule without a name',
      'rules:\n  - namespaces: [a]',
      /^rules\[0\]\.name: required$/,
    ],
    [
      'an empty name',
      'rules:\n  - name: ""\n    namespaces: [a]',
      /^rules\[0\]\.name: /,
    ],
    [
      'an unknown rule key',
      rule('    maxx: {}'),
      /^rules\[0\]\.maxx: unknown key$/,
    ],
    [
      'an unknown engine',
      rule('    engines: [mariadb, postgres]'),
      /^rules\[0\]\.engines\[1\]: "postgres" is not one of mariadb, mysql, redis/,
    ],
    [
      'topologies of an unknown engine',
      rule('    topologies: { postgres: [standalone] }'),
      /^rules\[0\]\.topologies\.postgres: unknown key$/,
    ],
    [
      'an unknown topology',
      rule('    topologies: { redis: [galera2] }'),
      /^rules\[0\]\.topologies\.redis\[0\]: "galera2" is not one of/,
    ],
    [
      'topologies not a list',
      rule('    topologies: { redis: standalone }'),
      /^rules\[0\]\.topologies\.redis: must be array$/,
    ],
    [
      'a bad version range',
      rule('    versions: { mariadb: "~11.4" }'),
      /^rules\[0\]\.versions\.mariadb: "~11.4" is not a version comparator/,
    ],
    [
      'a version range that is a number',
      rule('    versions: { mariadb: 11.4 }'),
      /^rules\[0\]\.versions\.mariadb: must be string$/,
    ],
    [
      'an unknown limit',
      rule('    max: { disks: 3 }'),
      /^rules\[0\]\.max\.disks: unknown key$/,
    ],
    [
      'a fractional count',
      rule('    max: { replicas: 1.5 }'),
      /^rules\[0\]\.max\.replicas: must be integer$/,
    ],
    [
      'a negative count',
      rule('    max: { instances: -1 }'),
      /^rules\[0\]\.max\.instances: must be >= 0$/,
    ],
    [
      'a bad quantity',
      rule('    max: { storage: 10 GB }'),
      /^rules\[0\]\.max\.storage: "10 GB" is not a quantity/,
    ],
    [
      'a negative quantity',
      rule('    max: { memory: -1Gi }'),
      /^rules\[0\]\.max\.memory: must not be negative$/,
    ],
    [
      'a quantity of the wrong type',
      rule('    max: { cpu: [4] }'),
      /^rules\[0\]\.max\.cpu: must be string or number$/,
    ],
    [
      'both namespaces and a selector',
      rule('    namespaceSelector: {}'),
      /^rules\[0\]: set exactly one of namespaces or namespaceSelector/,
    ],
    [
      'neither namespaces nor a selector',
      'rules:\n  - name: r',
      /^rules\[0\]: set exactly one of namespaces or namespaceSelector/,
    ],
    [
      'an empty namespaces list',
      'rules:\n  - name: r\n    namespaces: []',
      /^rules\[0\]\.namespaces: /,
    ],
    [
      'a non-string label value',
      'rules:\n  - name: r\n    namespaceSelector: { matchLabels: { tier: 1 } }',
      /^rules\[0\]\.namespaceSelector\.matchLabels\.tier: must be string$/,
    ],
    [
      'a dotted label key with a bad value',
      'rules:\n  - name: r\n    namespaceSelector: { matchLabels: { "app.kubernetes.io/name": [x] } }',
      /^rules\[0\]\.namespaceSelector\.matchLabels\["app\.kubernetes\.io\/name"\]: must be string$/,
    ],
    [
      'an unknown operator',
      'rules:\n  - name: r\n    namespaceSelector: { matchExpressions: [{ key: a, operator: Equals }] }',
      /^rules\[0\]\.namespaceSelector\.matchExpressions\[0\]\.operator: "Equals" is not one of In, NotIn, Exists, DoesNotExist$/,
    ],
    [
      'In without values',
      'rules:\n  - name: r\n    namespaceSelector: { matchExpressions: [{ key: a, operator: In }] }',
      /^rules\[0\]\.namespaceSelector\.matchExpressions\[0\]\.values: must be non-empty for operator In$/,
    ],
    [
      'Exists with values',
      'rules:\n  - name: r\n    namespaceSelector: { matchExpressions: [{ key: a, operator: Exists, values: [x] }] }',
      /^rules\[0\]\.namespaceSelector\.matchExpressions\[0\]\.values: must be empty for operator Exists$/,
    ],
    [
      'an expression without a key',
      'rules:\n  - name: r\n    namespaceSelector: { matchExpressions: [{ operator: Exists }] }',
      /^rules\[0\]\.namespaceSelector\.matchExpressions\[0\]\.key: required$/,
    ],
    [
      'duplicate rule names',
      'rules:\n  - { name: r, namespaces: [a] }\n  - { name: r, namespaces: [b] }',
      /^rules\[1\]\.name: duplicate rule name "r" \(also rules\[0\]\)$/,
    ],
  ])('refuses %s, naming the key', (_what, text, expected) => {
    const errors = errorsOf(text);
    expect(errors).toEqual(
      expect.arrayContaining([expect.stringMatching(expected)]),
    );
  });

  it('reports every problem at once', () => {
    const errors = errorsOf(
      'rules:\n  - name: r\n    namespaces: [a]\n    engines: [postgres]\n    max: { replicas: x, disks: 1 }',
    );
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^rules\[0\]\.engines\[0\]: /),
        expect.stringMatching(/^rules\[0\]\.max\.replicas: must be integer$/),
        expect.stringMatching(/^rules\[0\]\.max\.disks: unknown key$/),
      ]),
    );
  });

  it('reports all post-schema problems of all rules', () => {
    const errors = errorsOf(
      'rules:\n  - { name: a, namespaces: [x], max: { cpu: lots } }\n  - { name: b, namespaces: [y], versions: { redis: "" } }',
    );
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^rules\[0\]\.max\.cpu: /);
    expect(errors[1]).toMatch(
      /^rules\[1\]\.versions\.redis: must not be empty$/,
    );
  });
});

describe('policyFromConfigMap', () => {
  it('means no rules when there is no ConfigMap', () => {
    expect(policyFromConfigMap(undefined)).toEqual({ policy: { rules: [] } });
  });

  it('refuses a ConfigMap without policy.yaml, listing the keys it has', () => {
    expect(policyFromConfigMap({ 'policy.yml': 'rules: []' })).toEqual({
      errors: ['missing key policy.yaml (found: policy.yml)'],
    });
  });

  it('prefixes parse errors with the key', () => {
    const result = policyFromConfigMap({ 'policy.yaml': 'rules: []\nx: 1' });
    expect(result).toEqual({ errors: ['policy.yaml: x: unknown key'] });
  });
});
