import type {
  DatabaseInstance,
  DiagnosisFinding,
} from '@internal/plugin-databases-common';
import {
  asNumber,
  asRecord,
  asString,
  nameOf,
  objectRefOf,
} from '../shared/read';
import type { KubeObject } from '../types';

/** Diagnoses (status.cluster.status, the operator's diagnose.py) that need someone to act. */
const OUTAGES: Record<
  string,
  { message: string; hint: (name: string) => string }
> = {
  NO_QUORUM: {
    message:
      'the InnoDB Cluster has no quorum: fewer than half of its members can reach each other, so it takes no writes',
    hint: name =>
      `If the unreachable members are gone for good, restore quorum from the reachable ones: in mysqlsh connected to a reachable member, dba.getCluster('${name}').forceQuorumUsingPartitionOf('<member>'). Otherwise bring the members back (kubectl get pods -l mysql.oracle.com/cluster=${name}).`,
  },
  OFFLINE: {
    message: 'every member of the InnoDB Cluster is offline',
    hint: name =>
      `The operator reboots a cluster after a complete outage by itself; if it stays offline, run dba.rebootClusterFromCompleteOutage('${name}') in mysqlsh on the member with the most transactions.`,
  },
  SPLIT_BRAIN: {
    message:
      'the InnoDB Cluster is split: two groups of members each act as the cluster',
    hint: () =>
      'Stop the clients, keep the partition with the most transactions (forceQuorumUsingPartitionOf), then rejoin the others with cluster.rejoinInstance().',
  },
};

const REASONS: Record<string, string> = {
  NO_QUORUM: 'NoQuorum',
  OFFLINE: 'ClusterOffline',
  SPLIT_BRAIN: 'SplitBrain',
};

/** What an InnoDB Cluster's own diagnosis says that needs someone to act. */
export function mysqlFindings(
  source: KubeObject,
  _instance: DatabaseInstance,
): DiagnosisFinding[] {
  const cluster = asRecord(asRecord(source.status)?.cluster) ?? {};
  const diag = asString(cluster.status) ?? '';
  const outage = OUTAGES[diag.replace(/_UNCERTAIN$/, '')];
  if (!outage) return [];
  const name = nameOf(source);
  const online = asNumber(cluster.onlineInstances);
  return [
    {
      reason: REASONS[diag.replace(/_UNCERTAIN$/, '')],
      severity: 'Error',
      message: `Cluster status ${diag}: ${outage.message}${online !== undefined ? ` (${online} online)` : ''}${
        diag.endsWith('_UNCERTAIN')
          ? '; the operator could not reach every member to be sure'
          : ''
      }`,
      hint: outage.hint(name),
      objects: [objectRefOf(source)],
    },
  ];
}
