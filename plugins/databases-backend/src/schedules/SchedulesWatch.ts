import type { DatabaseBackupSchedule, ScheduleChange } from '@internal/plugin-databases-common';
import type { Impersonation, KubeClusterClient } from '../kube/KubeClusterClient';
import { schedulePath } from '../kube/paths';
import { SelectedListWatch } from '../kube/SelectedListWatch';

const byName = (a: DatabaseBackupSchedule, b: DatabaseBackupSchedule) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');

/**
 * One instance's backup schedules as one user may read them, by name: selected by
 * `spec.instanceRef.name` on the apiserver (see SelectedListWatch), live as the backups are (a
 * schedule's last and next run move as it fires).
 */
export class SchedulesWatch extends SelectedListWatch<DatabaseBackupSchedule, ScheduleChange> {
  constructor(client: KubeClusterClient, as: Impersonation, of: { namespace: string; instance: string }, watchTimeoutSeconds = 300) {
    super(
      client,
      as,
      {
        path: schedulePath(of.namespace),
        fieldSelector: `spec.instanceRef.name=${of.instance}`,
        toItem: (o: DatabaseBackupSchedule) => o,
        order: byName,
        toChange: (type, schedule) => ({ type, schedule }),
      },
      watchTimeoutSeconds,
    );
  }
}
