import type { Condition, DatabaseEngineName, ObjectMeta, SourceRef } from './types';

export const DATABASE_BACKUP_KIND = 'DatabaseBackup';
export const DATABASE_BACKUP_PLURAL = 'databasebackups';
export const DATABASE_BACKUP_SINGULAR = 'databasebackup';
export const DATABASE_BACKUP_SHORT_NAMES = ['dbb'];

/** One lifecycle for every operator's backup runs (docs/backups.md). */
export type BackupPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';

export const BACKUP_PHASES: readonly BackupPhase[] = ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'];

/**
 * What an engine's operator can do about backups, as DatabaseEngine `spec.backup` lists it (the
 * portal greys out what is false before anyone clicks). `reason` says why an engine has none.
 */
export interface BackupCapabilities {
  /** A backup can be taken now (`kubectl create` of a DatabaseBackup). */
  onDemand: boolean;
  /** Backups can run on a schedule (DatabaseBackupSchedule). */
  schedule: boolean;
  /** A new instance can be created from a backup (`spec.restoreFrom`). */
  restore: boolean;
  /** A restore can stop at a point in time (`spec.restoreFrom.pointInTime`). */
  pointInTime: boolean;
  /** `spec.method` values the operator offers, the default first; absent where it has one way. */
  methods?: string[];
  /** Why the engine has no backups (its operator has no backup objects), when all are false. */
  reason?: string;
  /** Why schedules are refused where the engine has other backups (`schedule` false, the rest not). */
  scheduleReason?: string;
}

export interface DatabaseBackupSpec {
  /** The instance backed up, in the backup's namespace (the name of its operator object). */
  instanceRef: { name: string };
  /** How, where the operator has several ways (CloudNativePG: barmanObjectStore, volumeSnapshot, plugin). */
  method?: string;
}

export interface DatabaseBackupStatus {
  phase: BackupPhase;
  /** PascalCase, machine-readable. */
  reason?: string;
  /** The operator's own words, verbatim where it has them. */
  message?: string;
  engine: DatabaseEngineName;
  /** When the run started and ended (RFC 3339), where known. */
  startTime?: string;
  completionTime?: string;
  /** As the operator reports it, where it does. */
  size?: string;
  /** Where the backup was written (a bucket path, a claim, a snapshot), where known. */
  location?: string;
  /** A new instance can be restored from it (Succeeded, and the operator can restore from it). */
  restorable: boolean;
  /** The operator object this backup run is a projection of. */
  source: SourceRef;
  /** The raw upstream status, untouched. */
  operatorStatus?: unknown;
  conditions?: Condition[];
}

export interface DatabaseBackup {
  apiVersion: 'dbaas.platform.dev/v1alpha1';
  kind: 'DatabaseBackup';
  metadata: ObjectMeta;
  spec: DatabaseBackupSpec;
  status?: DatabaseBackupStatus;
}

/**
 * When a run counts as having happened (its end, else its start, else when it was asked for: a
 * run that failed before it started has only that): what "last backup" is measured by, in the
 * apiserver's `status.backup` and the portal alike.
 */
export function backupRunTime(b: DatabaseBackup): string | undefined {
  return b.status?.completionTime ?? b.status?.startTime ?? b.metadata.creationTimestamp;
}

export interface DatabaseBackupList {
  apiVersion: 'dbaas.platform.dev/v1alpha1';
  kind: 'DatabaseBackupList';
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items: DatabaseBackup[];
}

export const DATABASE_BACKUP_SCHEDULE_KIND = 'DatabaseBackupSchedule';
export const DATABASE_BACKUP_SCHEDULE_PLURAL = 'databasebackupschedules';
export const DATABASE_BACKUP_SCHEDULE_SINGULAR = 'databasebackupschedule';
export const DATABASE_BACKUP_SCHEDULE_SHORT_NAMES = ['dbbs'];

/**
 * One backup schedule of an instance (mariadb-operator `Backup` with `spec.schedule`,
 * CloudNativePG `ScheduledBackup`). Times are UTC.
 */
export interface DatabaseBackupScheduleSpec {
  /** The instance backed up, in the schedule's namespace (the name of its operator object). */
  instanceRef: { name: string };
  /**
   * When, as a 5-field cron (`minute hour day-of-month month day-of-week`, UTC), translated to
   * each operator's format (CloudNativePG: 6 fields, seconds first). A cron fires at most once
   * a minute.
   */
  schedule: string;
  /** No new runs while true (runs already started go on). */
  suspend?: boolean;
  /**
   * How long the runs of this schedule are kept (`30d`, `720h`), where the operator keeps them
   * per schedule (mariadb-operator `spec.maxRetention`); refused where it cannot.
   */
  retention?: string;
  /** How, where the operator has several ways (CloudNativePG: barmanObjectStore, volumeSnapshot, plugin). */
  method?: string;
}

export interface DatabaseBackupScheduleStatus {
  engine: DatabaseEngineName;
  /** When the last run was started (RFC 3339), as the operator reports it. */
  lastScheduleTime?: string;
  /** When the next run is due (RFC 3339); absent while suspended or not known. */
  nextScheduleTime?: string;
  /** When a run last succeeded / failed, where known. */
  lastSuccessfulTime?: string;
  lastFailedTime?: string;
  /** PascalCase: Scheduled, Running, Suspended, LastRunFailed, Error, ... */
  reason?: string;
  /** The operator's own words, verbatim where it has them. */
  message?: string;
  /** The operator object this schedule is a projection of. */
  source: SourceRef;
  /** The raw upstream status, untouched. */
  operatorStatus?: unknown;
  conditions?: Condition[];
}

export interface DatabaseBackupSchedule {
  apiVersion: 'dbaas.platform.dev/v1alpha1';
  kind: 'DatabaseBackupSchedule';
  metadata: ObjectMeta;
  spec: DatabaseBackupScheduleSpec;
  status?: DatabaseBackupScheduleStatus;
}

export interface DatabaseBackupScheduleList {
  apiVersion: 'dbaas.platform.dev/v1alpha1';
  kind: 'DatabaseBackupScheduleList';
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items: DatabaseBackupSchedule[];
}

/**
 * `DatabaseInstance.status.backup`: what this instance can do about backups now (its engine's
 * capabilities, narrowed by how its operator object is configured: a CloudNativePG Cluster without
 * a backup destination cannot be backed up) and the times its operator records on the instance's
 * object, where it records them (CloudNativePG). Every run is a DatabaseBackup.
 */
export interface InstanceBackupStatus extends BackupCapabilities {
  /** When the last backup that succeeded was taken, as the operator records it. */
  lastSuccessfulTime?: string;
  /** When the last backup that failed was taken, as the operator records it. */
  lastFailedTime?: string;
  /** The earliest time a restore can go back to, where the operator records it (point in time). */
  firstRecoverabilityPoint?: string;
  /** When the next scheduled backup runs: the soonest of its schedules that are not suspended. */
  nextScheduleTime?: string;
}
