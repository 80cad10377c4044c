import { describe, it, expect } from '@jest/globals';
import type { DatabaseInstance } from '@internal/plugin-databases-common';
import { cloudnativePgFindings } from './findings';

// phase sentences of api/v1/cluster_types.go; derived, not captured
const cluster = (status: Record<string, unknown>) => ({
  apiVersion: 'postgresql.cnpg.io/v1',
  kind: 'Cluster',
  metadata: { name: 'pg', namespace: 'team-a' },
  spec: {},
  status,
});
const instance = {} as DatabaseInstance;
const objects = [
  {
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'Cluster',
    name: 'pg',
    namespace: 'team-a',
  },
];

describe('cloudnativePgFindings', () => {
  it('waiting for user action, with the reason and how to promote', () => {
    expect(
      cloudnativePgFindings(
        cluster({ phase: 'Waiting for user action' }),
        instance,
      ),
    ).toEqual([
      {
        reason: 'WaitingForUserAction',
        severity: 'Error',
        message: 'CloudNativePG is waiting for user action',
        hint: 'With primaryUpdateStrategy: supervised the primary is only updated by a switchover you start: kubectl cnpg promote -n team-a pg <replica instance> (or set primaryUpdateStrategy: unsupervised).',
        objects,
      },
    ]);
  });

  it('unrecoverable, with the operator reason and the repair', () => {
    expect(
      cloudnativePgFindings(
        cluster({
          phase: 'Cluster is unrecoverable and needs manual intervention',
          phaseReason: 'PVC pg-2 lost',
        }),
        instance,
      ),
    ).toEqual([
      {
        reason: 'Unrecoverable',
        severity: 'Error',
        message:
          'CloudNativePG cannot recover the cluster by itself: PVC pg-2 lost',
        hint: "Read kubectl cnpg status -n team-a pg; usually an instance's volume is lost: delete that instance's PVC and pod so the operator clones it from the primary, or restore from a backup.",
        objects,
      },
    ]);
    expect(
      cloudnativePgFindings(
        cluster({
          phase: 'Cluster is unrecoverable and needs manual intervention',
        }),
        instance,
      )[0].message,
    ).toBe('CloudNativePG cannot recover the cluster by itself');
  });

  it.each(['Cluster in healthy state', 'Setting up primary', 'Failing over'])(
    '"%s" needs nobody to act',
    phase => {
      expect(cloudnativePgFindings(cluster({ phase }), instance)).toEqual([]);
    },
  );
});
