import { describe, it, expect } from '@jest/globals';
import type { DatabaseInstance } from '@internal/plugin-databases-common';
import { mysqlFindings } from './findings';

// status.cluster.status values of diagnose.py's ClusterDiagStatus; derived, not captured
const cluster = (diagnosis?: Record<string, unknown>) => ({
  apiVersion: 'mysql.oracle.com/v2',
  kind: 'InnoDBCluster',
  metadata: { name: 'shop', namespace: 'team-a' },
  spec: {},
  ...(diagnosis && { status: { cluster: diagnosis } }),
});
const instance = {} as DatabaseInstance;
const objects = [
  {
    apiVersion: 'mysql.oracle.com/v2',
    kind: 'InnoDBCluster',
    name: 'shop',
    namespace: 'team-a',
  },
];

describe('mysqlFindings', () => {
  it('no quorum, with the online count and the mysqlsh call for this cluster', () => {
    expect(
      mysqlFindings(
        cluster({ status: 'NO_QUORUM', onlineInstances: 1 }),
        instance,
      ),
    ).toEqual([
      {
        reason: 'NoQuorum',
        severity: 'Error',
        message:
          'Cluster status NO_QUORUM: the InnoDB Cluster has no quorum: fewer than half of its members can reach each other, so it takes no writes (1 online)',
        hint: "If the unreachable members are gone for good, restore quorum from the reachable ones: in mysqlsh connected to a reachable member, dba.getCluster('shop').forceQuorumUsingPartitionOf('<member>'). Otherwise bring the members back (kubectl get pods -l mysql.oracle.com/cluster=shop).",
        objects,
      },
    ]);
  });

  it('an uncertain diagnosis says the operator could not reach every member; no count without one', () => {
    const [f] = mysqlFindings(
      cluster({ status: 'OFFLINE_UNCERTAIN' }),
      instance,
    );
    expect(f.reason).toBe('ClusterOffline');
    expect(f.message).toBe(
      'Cluster status OFFLINE_UNCERTAIN: every member of the InnoDB Cluster is offline; the operator could not reach every member to be sure',
    );
    expect(f.hint).toContain("dba.rebootClusterFromCompleteOutage('shop')");
  });

  it('split brain', () => {
    expect(
      mysqlFindings(cluster({ status: 'SPLIT_BRAIN' }), instance)[0],
    ).toMatchObject({
      reason: 'SplitBrain',
      message:
        'Cluster status SPLIT_BRAIN: the InnoDB Cluster is split: two groups of members each act as the cluster',
    });
  });

  it.each([
    ['ONLINE'],
    ['ONLINE_PARTIAL'],
    ['INITIALIZING'],
    ['NO_QUORUM_X'],
    ['X_OFFLINE'],
  ])('%s needs nobody to act', diag => {
    expect(mysqlFindings(cluster({ status: diag }), instance)).toEqual([]);
  });

  it('no status at all is no finding', () => {
    expect(mysqlFindings(cluster(), instance)).toEqual([]);
  });
});
