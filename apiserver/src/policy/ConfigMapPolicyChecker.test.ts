import { describe, expect, it } from '@jest/globals';
import type { DatabaseInstanceSpec } from '@internal/plugin-databases-common';
import { ConfigMapPolicyChecker } from './ConfigMapPolicyChecker';
import { StaticNamespaceLabels } from './NamespaceLabels';
import { parsePolicy } from './parsePolicy';

const spec = (replicas: number): DatabaseInstanceSpec => ({
  engine: 'mariadb',
  topology: 'galera',
  replicas,
  version: '11.4',
  storage: { size: '10Gi' },
});

function policyFrom(yaml: string) {
  const parsed = parsePolicy(yaml);
  if (!('policy' in parsed)) throw new Error(parsed.errors.join('; '));
  return parsed.policy;
}

describe('ConfigMapPolicyChecker', () => {
  const policy = policyFrom(`
rules:
  - name: teams
    namespaceSelector: { matchLabels: { tier: team } }
    max: { replicas: 3 }
`);
  const user = { username: 'alice', groups: [] };

  it('applies selector rules with the namespace labels and answers a 403 naming the limit', () => {
    const checker = new ConfigMapPolicyChecker(
      { require: () => policy },
      new StaticNamespaceLabels({ 'team-a': { tier: 'team' } }),
    );
    const refused = checker.check({ namespace: 'team-a', name: 'x', spec: spec(5), user, current: [] });
    expect(refused?.code).toBe(403);
    expect(refused?.status.reason).toBe('Forbidden');
    expect(refused?.message).toContain('teams');
    expect(checker.check({ namespace: 'team-a', name: 'x', spec: spec(3), user, current: [] })).toBeUndefined();
  });

  it('does not apply a selector rule to a namespace without the label', () => {
    const checker = new ConfigMapPolicyChecker({ require: () => policy }, new StaticNamespaceLabels({}));
    expect(checker.check({ namespace: 'other', name: 'x', spec: spec(5), user, current: [] })).toBeUndefined();
  });
});
