/** The DatabaseBackup schemas (one object per backup run) and DatabaseEngine's backup capabilities. */
import { BACKUP_PHASES, DATABASE_BACKUP_KIND } from '@internal/plugin-databases-common';
import { META_NAMES, ref, refField } from './metaSchemas';
import { API_VERSION, gvk, KIND, schemaName, str } from './schemaBuilders';
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
      lastSuccessfulTime: str('When the last successful backup was taken, as the operator records it.', { format: 'date-time' }),
      lastFailedTime: str('When the last failed backup was taken, as the operator records it.', { format: 'date-time' }),
      firstRecoverabilityPoint: str('The earliest time a restore can go back to, as the operator records it.', { format: 'date-time' }),
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
        description: 'Conditions of the run.',
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
  [schemaName(`${DATABASE_BACKUP_KIND}List`)]: {
    type: 'object',
    description: 'DatabaseBackupList is a list of DatabaseBackup.',
    required: ['items'],
    properties: {
      apiVersion: API_VERSION,
      items: {
        type: 'array',
        description: 'Items is the list of DatabaseBackup.',
        items: { default: {}, allOf: [ref(schemaName(DATABASE_BACKUP_KIND))] },
      },
      kind: KIND,
      metadata: refField(META_NAMES.listMeta, 'Standard list metadata.'),
    },
    'x-kubernetes-group-version-kind': gvk(`${DATABASE_BACKUP_KIND}List`),
  },
};
