import type { InstanceBackupStatus } from '@internal/plugin-databases-common';
import type { KubeObject } from '../types';

const time = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/**
 * The backup times CloudNativePG records on the Cluster's status (api/v1/cluster_types.go:
 * lastSuccessfulBackup, lastFailedBackup, firstRecoverabilityPoint; deprecated upstream for
 * backup plugins, which leave them unset: then nothing is said here).
 */
export function recordedRuns(cluster: KubeObject): Pick<InstanceBackupStatus, 'lastSuccessfulTime' | 'lastFailedTime' | 'firstRecoverabilityPoint'> {
  const status = cluster.status ?? {};
  const lastSuccessfulTime = time(status.lastSuccessfulBackup);
  const lastFailedTime = time(status.lastFailedBackup);
  const firstRecoverabilityPoint = time(status.firstRecoverabilityPoint);
  return {
    ...(lastSuccessfulTime && { lastSuccessfulTime }),
    ...(lastFailedTime && { lastFailedTime }),
    ...(firstRecoverabilityPoint && { firstRecoverabilityPoint }),
  };
}
