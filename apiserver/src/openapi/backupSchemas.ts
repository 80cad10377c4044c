/** The DatabaseBackup schemas (one object per backup run) and DatabaseEngine's backup capabilities. */
import { BACKUP_PHASES, DATABASE_BACKUP_KIND, DATABASE_BACKUP_SCHEDULE_KIND } from '@internal/plugin-databases-common';
import { META_NAMES, ref, refField } from './metaSchemas';
import { API_VERSION, gvk, KIND, schemaName, str } from './schemaBuilders';
import { listSchema } from './listSchema';
import type { Schema } from './types';

const bool = (description: string): Schema => ({ type: 'boolean', description });

export const backupSchemas: Record<string, Schema> = {
  [schemaName('BackupCapabilities')]: {
    type: 'object',
    description: "What an engine's operator can do about backups; all false, with a reason, where it has no backup objects.",
    required: ['onDemand', 'schedule', 'restore', 'pointInTime'],
    properties: {
      onDemand: bool('A backup can be taken now (create a DatabaseBackup).'),
      schedule: bool('Backups can run on a schedule.'),
      restore: bool('A new instance can be created from a backup.'),
      pointInTime: bool('A restore can stop at a point in time.'),
      methods: { type: 'array', description: 'spec.method values the operator offers, the default first.', items: { type: 'string' } },
      reason: str('Why the engine has no backups.'),
      scheduleReason: str('Why schedules are refused where the engine has other backups (its operator keeps schedules where this API does not serve them).'),
    },
  },
  [schemaName('InstanceBackupStatus')]: {
    type: 'object',
    description: 'What an instance can do about backups now, and the last runs its operator records.',
    required: ['onDemand', 'schedule', 'restore', 'pointInTime'],
    properties: {
      onDemand: bool('A backup can be taken now.'),
      schedule: bool('Backups can run on a schedule.'),
      restore: bool('A new instance can be created from its backups.'),
      pointInTime: bool('A restore can stop at a point in time.'),
      methods: { type: 'array', description: 'spec.method values the operator offers, the default first.', items: { type: 'string' } },
      reason: str('Why the instance cannot be backed up now (its engine has no backups, or its operator object has no backup destination).'),
      scheduleReason: str('Why schedules are refused where the engine has other backups.'),
      lastSuccessfulTime: str('When the last successful backup ended: the newest of what the operator records on the instance, its DatabaseBackups that Succeeded and its schedules\' last successful runs.', { format: 'date-time' }),
      lastFailedTime: str('When the last failed backup ended, from the same sources as lastSuccessfulTime.', { format: 'date-time' }),
      firstRecoverabilityPoint: str('The earliest time a restore can go back to, as the operator records it.', { format: 'date-time' }),
      nextScheduleTime: str('When the next scheduled backup runs: the soonest of its DatabaseBackupSchedules that are not suspended.', { format: 'date-time' }),
    },
  },
  [schemaName('InstanceReference')]: {
    type: 'object',
    description: 'A DatabaseInstance in the same namespace.',
    required: ['name'],
    properties: { name: str('Name of the DatabaseInstance (of its operator object).') },
  },
  [schemaName('DatabaseBackupSpec')]: {
    type: 'object',
    description: 'Which instance is backed up, and how.',
    required: ['instanceRef'],
    properties: {
      instanceRef: refField(schemaName('InstanceReference'), 'The instance backed up.'),
      method: str(
        "How the backup is taken, where the operator has several ways (CloudNativePG: barmanObjectStore, volumeSnapshot, plugin; mysql-operator: one of the InnoDBCluster's backupProfiles). DatabaseEngine spec.backup.methods lists them.",
      ),
    },
  },
  [schemaName('DatabaseBackupStatus')]: {
    type: 'object',
    description: 'The observed state of one backup run.',
    required: ['phase', 'engine', 'restorable', 'source'],
    properties: {
      phase: str(
        "Phase of the run: Pending (not started yet), Running, Succeeded, Failed, Unknown (nothing the operator wrote decides it). Decided from the operator's object and the Job it runs, not from one completion flag alone.",
        { enum: [...BACKUP_PHASES] },
      ),
      reason: str('Why the run is in its phase, PascalCase.'),
      message: str("The operator's own words, where it has them."),
      engine: str('Engine of the instance backed up.'),
      startTime: str('When the run started (RFC 3339).', { format: 'date-time' }),
      completionTime: str('When the run ended (RFC 3339).', { format: 'date-time' }),
      size: str('Size of the backup as the operator reports it.'),
      location: str('Where the backup was written (a bucket path, a volume claim, a snapshot).'),
      restorable: bool('A new instance can be restored from this backup.'),
      source: refField(schemaName('SourceReference'), 'The operator object this backup run is a projection of.'),
      operatorStatus: {
        type: 'object',
        description: "The operator object's status, untouched, for humans and debugging.",
        'x-kubernetes-preserve-unknown-fields': true,
      },
      conditions: {
        type: 'array',
        description:
          "The run's conditions, as a Job's: Complete (True once it succeeded) or Failed (True once it failed); none while it runs. Decided from the run's phase, never copied from the operator (its own are in operatorStatus): `kubectl wait --for=condition=Complete` returns for a successful run only.",
        items: { default: {}, allOf: [ref(META_NAMES.condition)] },
        'x-kubernetes-list-map-keys': ['type'],
        'x-kubernetes-list-type': 'map',
      },
    },
  },
  [schemaName(DATABASE_BACKUP_KIND)]: {
    type: 'object',
    description:
      "DatabaseBackup is one backup run of a DatabaseInstance, a projection of the backup object of the instance's operator (mariadb-operator Backup, mysql-operator MySQLBackup, CloudNativePG Backup). Creating one backs the instance up now; deleting one deletes the operator's object only: no supported operator deletes the stored backup with it.",
    properties: {
      apiVersion: API_VERSION,
      kind: KIND,
      metadata: refField(META_NAMES.objectMeta, "Standard object's metadata. The name is the operator object's."),
      spec: refField(schemaName('DatabaseBackupSpec'), 'Which instance is backed up, and how.'),
      status: refField(schemaName('DatabaseBackupStatus'), 'Observed state of the run.'),
    },
    'x-kubernetes-group-version-kind': gvk(DATABASE_BACKUP_KIND),
  },
  ...listSchema(DATABASE_BACKUP_KIND),
  [schemaName('DatabaseBackupScheduleSpec')]: {
    type: 'object',
    description: 'Which instance is backed up, when, and how long its runs are kept.',
    required: ['instanceRef', 'schedule'],
    properties: {
      instanceRef: refField(schemaName('InstanceReference'), 'The instance backed up.'),
      schedule: str(
        'When, as a 5-field cron (minute hour day-of-month month day-of-week) in UTC, e.g. "0 3 * * *". Translated to each operator\'s format (CloudNativePG: 6 fields, seconds first). 6-field crons and descriptors are refused: a schedule runs at most once a minute.',
      ),
      suspend: bool('No new runs start while true; runs already started go on.'),
      retention: str(
        'How long the runs of this schedule are kept: days ("30d") or a duration in hours, minutes, seconds ("720h"). Only where the operator keeps backups per schedule (mariadb-operator spec.maxRetention, default 30 days); refused for CloudNativePG, whose retention is the Cluster\'s spec.backup.retentionPolicy.',
      ),
      method: str(
        'How the backups are taken, where the operator has several ways (CloudNativePG: barmanObjectStore, volumeSnapshot, plugin). DatabaseEngine spec.backup.methods lists them.',
      ),
    },
  },
  [schemaName('DatabaseBackupScheduleStatus')]: {
    type: 'object',
    description: 'The observed state of one schedule.',
    required: ['engine', 'source'],
    properties: {
      engine: str('Engine of the instance backed up.'),
      lastScheduleTime: str('When the last run was started (RFC 3339).', { format: 'date-time' }),
      nextScheduleTime: str('When the next run is due (RFC 3339); absent while suspended or not known.', { format: 'date-time' }),
      lastSuccessfulTime: str('When a run last succeeded, where the operator reports it.', { format: 'date-time' }),
      lastFailedTime: str('When a run last failed, where the operator reports it.', { format: 'date-time' }),
      reason: str('What the schedule is doing, PascalCase: Scheduled, Running, LastRunSucceeded, LastRunFailed, Suspended, WaitingForOperator, NotStarted, Error.'),
      message: str("The operator's own words, where it has them."),
      source: refField(schemaName('SourceReference'), 'The operator object this schedule is a projection of.'),
      operatorStatus: {
        type: 'object',
        description: "The operator object's status, untouched, for humans and debugging.",
        'x-kubernetes-preserve-unknown-fields': true,
      },
      conditions: {
        type: 'array',
        description: "The operator's conditions of the schedule.",
        items: { default: {}, allOf: [ref(META_NAMES.condition)] },
        'x-kubernetes-list-map-keys': ['type'],
        'x-kubernetes-list-type': 'map',
      },
    },
  },
  [schemaName(DATABASE_BACKUP_SCHEDULE_KIND)]: {
    type: 'object',
    description:
      "DatabaseBackupSchedule is one backup schedule of a DatabaseInstance, a projection of the schedule object of the instance's operator (mariadb-operator Backup with spec.schedule, CloudNativePG ScheduledBackup). Its runs are DatabaseBackups where the operator makes one object per run (CloudNativePG: <schedule>-<YYYYMMDDhhmmss>); mariadb-operator's runs are Jobs of its CronJob, shown in this schedule's status. A mysql-operator schedule is one entry of its InnoDBCluster's spec.backupSchedules[], named <cluster>-<entry>; its runs are MySQLBackups <cluster>-<entry><yymmddhhmmss>, served as DatabaseBackups.",
    properties: {
      apiVersion: API_VERSION,
      kind: KIND,
      metadata: refField(META_NAMES.objectMeta, "Standard object's metadata. The name is the operator object's."),
      spec: refField(schemaName('DatabaseBackupScheduleSpec'), 'Which instance is backed up, when, and how.'),
      status: refField(schemaName('DatabaseBackupScheduleStatus'), 'Observed state of the schedule.'),
    },
    'x-kubernetes-group-version-kind': gvk(DATABASE_BACKUP_SCHEDULE_KIND),
  },
  ...listSchema(DATABASE_BACKUP_SCHEDULE_KIND),
};
