import type { BackupPhase, DatabaseBackup } from '@internal/plugin-databases-common';
import { recordedRuns } from './recordedRuns';
import { cloudnativePgSchedules } from './schedule';
import { invalid, notSupported, type FieldCause } from '../../writes/FieldCause';
import { backupMetadata } from '../shared/backupMetadata';
import { asArray, asRecord, asString, nameOf, pascalCase } from '../shared/read';
import { toBackup } from '../shared/toBackup';
import type { BackupSide, KubeObject, SourceKind } from '../types';

/**
 * CloudNativePG's backups (v1.30.0, ../shared/operators/cloudnative-pg):
 *
 * - A `Backup` is one run (`spec.cluster.name`, `spec.method`: `barmanObjectStore` (the CRD
 *   default, deprecated since 1.26 for the Barman Cloud plugin), `volumeSnapshot`, `plugin`
 *   with `spec.pluginConfiguration.name`, which the webhook requires for that method:
 *   internal/webhook/v1/backup_webhook.go). A `ScheduledBackup` creates Backups.
 * - No Job: barman and plugin backups run inside the instance manager of a Cluster pod, and
 *   volume snapshot backups are VolumeSnapshots whose readiness the operator reports itself
 *   (phase `finalizing`). So the Backup's status is the whole truth: nothing is related.
 * - `status.phase` (api/v1/backup_types.go BackupPhase): `pending`, `started`, `running`,
 *   `finalizing` (snapshots taken, waiting for `readyToUse`), `completed`, `failed`,
 *   `walArchivingFailing` (the instance manager will not take a base backup while WAL
 *   archiving fails: pkg/management/postgres/backup.go), `invalid backup definition`; no
 *   phase before the first reconcile. The controller stops at `completed` and `failed`
 *   (internal/controller/backup_controller.go). Also `error` (the failure's words),
 *   `startedAt`/`stoppedAt` (the backup tool's), `reconciliationStartedAt`/
 *   `reconciliationTerminatedAt` (the operator's), `backupId`, `destinationPath`, `method`,
 *   `online`, `snapshotBackupStatus.elements[].name` (the VolumeSnapshots).
 * - A new Cluster restores any completed Backup (`bootstrap.recovery.backup.name`), to a
 *   point in time with `recoveryTarget.targetTime` (given the WAL archive).
 */
export const CNPG_BACKUP: SourceKind = {
  group: 'postgresql.cnpg.io',
  version: 'v1',
  plural: 'backups',
  kind: 'Backup',
  topologies: [],
};

const OPERATOR = 'cloudnative-pg';

/** `spec.method` values (the CRD's enum), the operator's default first. */
export const CNPG_BACKUP_METHODS = ['barmanObjectStore', 'volumeSnapshot', 'plugin'] as const;

interface Verdict {
  phase: BackupPhase;
  reason: string;
  message?: string;
}

function verdictOf(status: Record<string, any>): Verdict {
  const error = asString(status.error);
  const withError = error ? { message: error } : {};
  const phase = asString(status.phase);
  switch (phase) {
    case undefined:
      return { phase: 'Pending', reason: 'WaitingForOperator', message: 'The operator has not started this backup yet' };
    case 'pending':
      return { phase: 'Pending', reason: 'Pending', ...withError };
    case 'started':
      return { phase: 'Running', reason: 'Started', ...withError };
    case 'running':
      return { phase: 'Running', reason: 'Running', ...withError };
    case 'finalizing':
      return { phase: 'Running', reason: 'Finalizing', message: error ?? 'Waiting for the volume snapshots to be ready to use' };
    case 'completed':
      return { phase: 'Succeeded', reason: 'Completed' };
    case 'failed':
      return { phase: 'Failed', reason: 'BackupFailed', ...withError };
    case 'walArchivingFailing':
      return {
        phase: 'Failed',
        reason: 'WalArchivingFailing',
        message: error ?? 'WAL archiving is not working on the instance: the backup was not taken',
      };
    case 'invalid backup definition':
      return { phase: 'Failed', reason: 'InvalidBackupDefinition', ...withError };
    default:
      return { phase: 'Unknown', reason: pascalCase(phase) || 'Unknown', ...withError };
  }
}

/** The object store path, or the VolumeSnapshots taken. */
function locationOf(status: Record<string, any>): string | undefined {
  const path = asString(status.destinationPath);
  if (path) return path;
  const snapshots = asRecord(status.snapshotBackupStatus) ?? {};
  const names = [
    ...asArray(snapshots.elements).map(e => asString(asRecord(e)?.name)),
    // before 1.21 the list was `snapshots: [names]`
    ...asArray(snapshots.snapshots).map(asString),
  ].filter((n): n is string => n !== undefined);
  return names.length > 0 ? names.map(n => `volumesnapshot/${n}`).join(', ') : undefined;
}

/** The enabled plugin of the Cluster marked `isWALArchiver` (the one that takes its backups). */
export function walArchiverPlugin(target: KubeObject): string | undefined {
  return asArray(asRecord(target.spec)?.plugins)
    .map(asRecord)
    .find(p => p && p.isWALArchiver === true && p.enabled !== false && asString(p.name))?.name;
}

/** What the Cluster lacks for `method`, or undefined when it is configured for it. */
function missingFor(method: string, target: KubeObject): string | undefined {
  const backup = asRecord(asRecord(target.spec)?.backup);
  const cluster = `Cluster ${nameOf(target)}`;
  switch (method) {
    case 'barmanObjectStore':
      return asRecord(backup?.barmanObjectStore)
        ? undefined
        : `${cluster} has no spec.backup.barmanObjectStore (the object store barman writes to)`;
    case 'volumeSnapshot':
      return asRecord(backup?.volumeSnapshot)
        ? undefined
        : `${cluster} has no spec.backup.volumeSnapshot (the VolumeSnapshotClass to use)`;
    default:
      return walArchiverPlugin(target)
        ? undefined
        : `${cluster} has no enabled plugin in spec.plugins marked isWALArchiver (such as barman-cloud.cloudnative-pg.io)`;
  }
}

/**
 * The method of a request: the one asked for, else the first the Cluster is configured for
 * (in CNPG_BACKUP_METHODS' order), else the operator's default (which validate refuses,
 * saying what the Cluster lacks). A Cluster set up with the Barman Cloud plugin only gets
 * `plugin` rather than the in-tree default it cannot run.
 */
export function cnpgMethodFor(method: string | undefined, target: KubeObject): string {
  if (method !== undefined) return method;
  return CNPG_BACKUP_METHODS.find(m => missingFor(m, target) === undefined) ?? CNPG_BACKUP_METHODS[0];
}

export const cloudnativePgBackups: BackupSide = {
  recordedRuns,
  capabilities: {
    onDemand: true,
    schedule: true,
    restore: true,
    pointInTime: true,
    methods: [...CNPG_BACKUP_METHODS],
  },
  kinds: [CNPG_BACKUP],
  relatedTypes: [],
  relatedRefs: () => [],
  project(source, kind) {
    const spec = asRecord(source.spec) ?? {};
    const status = asRecord(source.status) ?? {};
    const verdict = verdictOf(status);
    const terminal = verdict.phase === 'Succeeded' || verdict.phase === 'Failed';
    const startTime = asString(status.startedAt) ?? asString(status.reconciliationStartedAt);
    const completionTime =
      asString(status.stoppedAt) ?? (terminal ? asString(status.reconciliationTerminatedAt) : undefined);
    return toBackup({
      operator: OPERATOR,
      engine: 'postgresql',
      kind,
      source,
      instanceName: asString(asRecord(spec.cluster)?.name) ?? '',
      // the CRD defaults spec.method, so it is only absent on objects not stored by a cluster
      method: asString(spec.method) ?? asString(status.method) ?? CNPG_BACKUP_METHODS[0],
      ...verdict,
      ...(startTime && { startTime }),
      ...(completionTime && { completionTime }),
      location: locationOf(status),
      restorableByOperator: true,
    });
  },
  validate(spec, target): FieldCause[] {
    const method = cnpgMethodFor(spec.method, target);
    if (!(CNPG_BACKUP_METHODS as readonly string[]).includes(method))
      return [notSupported('spec.method', method, CNPG_BACKUP_METHODS)];
    const missing = missingFor(method, target);
    return missing ? [invalid('spec.method', method, missing)] : [];
  },
  // a getter: schedule.ts reads this module's helpers, so its side exists only once both loaded
  get schedules() {
    return cloudnativePgSchedules;
  },
  toOperatorObject(backup: DatabaseBackup, target, options) {
    const method = cnpgMethodFor(backup.spec.method, target);
    const plugin = method === 'plugin' ? walArchiverPlugin(target) : undefined;
    return {
      apiVersion: `${CNPG_BACKUP.group}/${CNPG_BACKUP.version}`,
      kind: CNPG_BACKUP.kind,
      metadata: backupMetadata(backup, options),
      spec: {
        cluster: { name: nameOf(target) || backup.spec.instanceRef.name },
        method,
        // required with method plugin (backup_webhook.go): the Cluster's backup plugin
        ...(plugin && { pluginConfiguration: { name: plugin } }),
      },
    };
  },
};
