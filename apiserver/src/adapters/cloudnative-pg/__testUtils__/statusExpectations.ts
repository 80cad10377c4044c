import type {
  AwaitingAdapter,
  StatusExpectations,
} from '../../__testUtils__/statusExpectation';

const CNPG = 'postgresql.cnpg.io/v1';
const awaitingPostgres = (kind: 'Backup'): AwaitingAdapter => ({
  awaitingAdapter: 'CloudNativePG Backup: judged by the backups API (issue 22)',
  apiVersion: CNPG,
  kind,
});

/** How each of ../shared/operators/cloudnative-pg/status/* must be served. */
export const statusExpectations: StatusExpectations = {
  'cloudnative-pg/status/backup-completed.e2e.yaml': awaitingPostgres('Backup'),
  'cloudnative-pg/status/backup-running.e2e.yaml': awaitingPostgres('Backup'),
  'cloudnative-pg/status/backup-started-scheduled-plugin.e2e.yaml':
    awaitingPostgres('Backup'),
  'cloudnative-pg/status/cluster-healthy-phase-but-ready-false.issue-4209.status.yaml':
    {
      // Phase healthy, Ready=False: one of them is stale (Ready is a function of the phase).
      phase: 'Unknown',
      reason: 'PhaseAndReadyDisagree',
      // Header: a newly created cluster; the instance count is not in the paste (CRD default 1).
      wrap: { apiVersion: CNPG, kind: 'Cluster', spec: { instances: 1 } },
    },
  'cloudnative-pg/status/cluster-healthy-reconciliation-disabled.argocd-fixture.yaml':
    {
      // The status is frozen: healthy then, nothing known now.
      phase: 'Paused',
      reason: 'ReconciliationDisabled',
    },
  'cloudnative-pg/status/cluster-healthy.argocd-fixture.yaml': {
    phase: 'Ready',
    reason: 'AllReplicasReady',
    message: 'Cluster in healthy state',
  },
  'cloudnative-pg/status/cluster-healthy.e2e.yaml': {
    // Partial object: no spec, so instances is the CRD default 1; 2 are ready.
    phase: 'Ready',
    reason: 'AllReplicasReady',
    message: 'Cluster in healthy state',
  },
  'cloudnative-pg/status/cluster-hibernated.argocd-fixture.yaml': {
    // Phase healthy and Ready=True with no pods: only the hibernation condition tells.
    phase: 'Paused',
    reason: 'Hibernated',
    message: 'Cluster has been hibernated',
  },
  'cloudnative-pg/status/cluster-not-ready-archiving-and-backup-failing.docs.status.yaml':
    {
      // Serving (no phase says otherwise) but WAL archiving fails: recovery is at risk.
      phase: 'Degraded',
      reason: 'ContinuousArchivingFailing',
      message:
        'unexpected failure invoking barman-cloud-wal-archive: exit status 2',
      wrap: { apiVersion: CNPG, kind: 'Cluster', spec: { instances: 3 } },
    },
  'cloudnative-pg/status/cluster-provisioning-setting-up-primary.argocd-fixture.yaml':
    {
      phase: 'Provisioning',
      reason: 'SettingUpPrimary',
      message: 'Creating primary instance cluster-example-1',
    },
  'cloudnative-pg/status/cluster-switchover-in-progress.argocd-action-fixture.yaml':
    {
      phase: 'Updating',
      reason: 'Switchover',
      message: 'Switching over to cluster-example-2',
    },

  // eck,
};
