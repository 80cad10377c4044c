/**
 * CloudNativePG's `status.phase` vocabulary (api/v1/cluster_types.go at v1.30.0): human
 * sentences, not an enum, so they are matched exactly. Each known sentence says what kind of
 * fact it is; the shared phase table turns the fact into our phase. A sentence missing here is
 * reported as unrecognised and never becomes Ready.
 */

/** The one sentence for a reconciled, healthy cluster (`PhaseHealthy`). */
export const PHASE_HEALTHY = 'Cluster in healthy state';

/** The kind of fact a phase sentence is, with the PascalCase reason we report for it. */
export type PhaseMeaning =
  /** First creation work (it may also follow a scale-up; the rollout memory tells them apart). */
  | { fact: 'creating'; reason: string }
  /** A day-2 change being rolled out. */
  | { fact: 'changing'; reason: string }
  /** Serving, but not as it should: a failover. */
  | { fact: 'unhealthy'; reason: string }
  /** The operator cannot go on without someone acting. */
  | { fact: 'failed'; reason: string };

export const CLUSTER_PHASES: Readonly<Record<string, PhaseMeaning>> = {
  'Setting up primary': { fact: 'creating', reason: 'SettingUpPrimary' },
  'Creating a new replica': { fact: 'creating', reason: 'CreatingReplica' },
  'Waiting for the instances to become active': {
    fact: 'creating',
    reason: 'WaitingForInstances',
  },
  'Switchover in progress': {
    fact: 'changing',
    reason: 'Switchover',
  },
  'Upgrading cluster': { fact: 'changing', reason: 'UpgradingCluster' },
  'Upgrading Postgres major version': {
    fact: 'changing',
    reason: 'UpgradingMajorVersion',
  },
  // The rollout waits on the operator's own configuration (a delayed rollout), not on a fault.
  'Cluster upgrade delayed': { fact: 'changing', reason: 'UpgradeDelayed' },
  'Primary instance is being restarted in-place': {
    fact: 'changing',
    reason: 'RestartingPrimary',
  },
  'Primary instance is being restarted without a switchover': {
    fact: 'changing',
    reason: 'RestartingPrimary',
  },
  'Online upgrade in progress': { fact: 'changing', reason: 'OnlineUpgrade' },
  'Applying configuration': {
    fact: 'changing',
    reason: 'ApplyingConfiguration',
  },
  'Promoting to primary cluster': {
    fact: 'changing',
    reason: 'PromotingReplicaCluster',
  },
  'Failing over': { fact: 'unhealthy', reason: 'FailingOver' },
  // "User must issue a supervised switchover": nothing moves until someone acts.
  'Waiting for user action': { fact: 'failed', reason: 'WaitingForUserAction' },
  'Cluster cannot proceed to reconciliation due to an unknown plugin being required':
    {
      fact: 'failed',
      reason: 'UnknownPlugin',
    },
  'Cluster cannot proceed to reconciliation due to an error while interacting with plugins':
    { fact: 'failed', reason: 'PluginError' },
  'Cluster has incomplete or invalid image catalog': {
    fact: 'failed',
    reason: 'ImageCatalogError',
  },
  'Cluster is unrecoverable and needs manual intervention': {
    fact: 'failed',
    reason: 'Unrecoverable',
  },
  'Cluster cannot execute instance online upgrade due to missing architecture binary':
    {
      fact: 'failed',
      reason: 'ArchitectureBinaryMissing',
    },
  'Unable to create required cluster objects': {
    fact: 'failed',
    reason: 'CannotCreateClusterObjects',
  },
  'Invalid cluster definition': { fact: 'failed', reason: 'InvalidDefinition' },
};
