import type { DatabaseBackupSchedule } from '@internal/plugin-databases-common';
import { scheduleAdapterOf, scheduleAdapters, type AdapterWithSchedules } from './backupRunAdapters';
import { ProjectedStore, type ProjectedSource, type ProjectedStoreOptions } from './ProjectedStore';
import { projectSchedule } from './projectSchedule';

/** The operator object behind a served DatabaseBackupSchedule, with the adapter that reads it. */
export type ScheduleSource = ProjectedSource<AdapterWithSchedules>;

/**
 * Every backup schedule this API serves (mariadb-operator Backups with `spec.schedule`,
 * CloudNativePG ScheduledBackups), as DatabaseBackupSchedules: informers over the schedule
 * kinds and the CronJobs they own, through the instance store's machinery (ProjectedStore).
 */
export class ScheduleStore extends ProjectedStore<DatabaseBackupSchedule, AdapterWithSchedules> {
  constructor(options: ProjectedStoreOptions) {
    super(options, { sides: scheduleAdapters, project: projectSchedule, adapterOf: scheduleAdapterOf });
  }
}
