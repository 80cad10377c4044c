import { describe, expect, it } from '@jest/globals';
import { toStatusError } from './toStatusError';
import type { PolicyViolation } from './types';

const violation: PolicyViolation = {
  kind: 'QuotaExceeded',
  rule: 'team-a-quota',
  name: 'orders-db',
  namespace: 'team-a',
  exceeded: [
    { limit: 'storage', requested: '10Gi', used: '45Gi', limited: '50Gi' },
  ],
  message:
    'exceeded policy: team-a-quota, requested: storage=10Gi, used: storage=45Gi, limited: storage=50Gi',
};

describe('toStatusError', () => {
  it('is a 403 Forbidden Status worded as kube words a quota refusal', () => {
    const err = toStatusError(violation);
    expect(err.code).toBe(403);
    expect(err.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      message:
        'databaseinstances.dbaas.platform.dev "orders-db" is forbidden: exceeded policy: team-a-quota, requested: storage=10Gi, used: storage=45Gi, limited: storage=50Gi',
      details: {
        name: 'orders-db',
        group: 'dbaas.platform.dev',
        kind: 'databaseinstances',
      },
    });
  });

  it('leaves the name out while the server has not generated one', () => {
    const err = toStatusError({ ...violation, name: '' });
    expect(err.message).toMatch(
      /^databaseinstances\.dbaas\.platform\.dev is forbidden: exceeded policy/,
    );
    expect(err.status.details).toEqual({
      group: 'dbaas.platform.dev',
      kind: 'databaseinstances',
    });
  });
});
