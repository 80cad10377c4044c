import type { BackupPhase, DatabaseBackup } from '@internal/plugin-databases-common';
import { forbidden } from '../../writes/FieldCause';
import { backupMetadata } from '../shared/backupMetadata';
import { jobState } from '../shared/jobState';
import { jobType } from '../shared/jobType';
import { ownedBy } from '../shared/ownedBy';
import {
  asRecord,
  asString,
  findCondition,
  nameOf,
  namespaceOf,
  pascalCase,
  type UpstreamConditionLike,
} from '../shared/read';
import { toBackup } from '../shared/toBackup';
import type { BackupSide, KubeObject, RelatedLookup, SourceKind } from '../types';
import { backupObject, isScheduled, MARIADB_BACKUP } from './backupObject';
import { scheduleOf, scheduleRef, SCHEDULED_RUN } from './scheduledRun';
import { mariadbSchedules } from './schedule';

/**
 * mariadb-operator's backups (v26.6.0, ../shared/operators/mariadb-operator):
 *
 * - A `Backup` without `spec.schedule` is one run. The Backup controller
 *   (internal/controller/backup_controller.go, pkg/controller/batch/controller.go) creates a
 *   Job of the Backup's name in its namespace, controlled by the Backup (cleanupJobs reads
 *   metav1.GetControllerOf(job).Kind == "Backup"), labelled only with `spec.inheritMetadata`
 *   (pkg/builder/batch_builder.go BuildBackupJob: metadata.NewMetadataBuilder(key)
 *   .WithMetadata(backup.Spec.InheritMetadata)). With `storage.persistentVolumeClaim` it also
 *   creates a PVC of the Backup's name (reconcileStorage).
 * - A `Backup` with `spec.schedule` is one object for the whole series: the controller keeps a
 *   CronJob of the Backup's name, and each run is a Job that CronJob creates. The Backup is
 *   served as a DatabaseBackupSchedule (schedule.ts); each of those Jobs as a run (scheduledRun.ts).
 * - `status` holds only `conditions`; the one condition is `Complete`
 *   (pkg/condition/complete.go). For a Job: SetCompleteWithJob writes `Complete=True` reason
 *   `JobComplete` "Success", `Complete=False` `JobRunning` "Running" / `JobSuspended`, and, the
 *   trap, `Complete=True` reason `JobFailed` "Failed" for a FAILED Job: the completion flag
 *   alone says a failed backup is complete. For a CronJob: SetCompleteWithCronJob writes
 *   `CronJobScheduled` "Scheduled", `CronJobRunning`, `CronJobScheduled` "Failed" (sic: the
 *   failed reason's constant has the scheduled one's value; all False) and `CronJobSuccess` (True). Before a Job exists the controller writes `Complete=False` reason
 *   `Failed` with its error ("MariaDB not ready" while `mariaDbRef.waitForIt`) and retries.
 * - Once a one-off Backup is complete, cleanupJobs deletes its Job beyond the history limits
 *   (`successfulJobsHistoryLimit` / `failedJobsHistoryLimit`, 5 each): the Job may be gone,
 *   and then the condition's reason (never its status) decides.
 *
 * Restore (`Restore.spec.backupRef`, MariaDB `spec.bootstrapFrom.backupRef`) restores from
 * a Backup object, scheduled or not: each run is restorable. It picks "the closest backup
 * before" `targetRecoveryTime` among the files the Backup wrote: not a point-in-time recovery
 * (hence `pointInTime: false`).
 */
export { MARIADB_BACKUP };

/**
 * Every Job of the cluster: the operator puts no label of its own on a Backup's Job (see
 * above), so no selector can narrow them; slim keeps a few fields of each, and ownedBy
 * checks that a Job of the Backup's name is the Backup's.
 */
const JOBS = jobType();

const OPERATOR = 'mariadb-operator';


interface Verdict {
  phase: BackupPhase;
  reason: string;
  message?: string;
  startTime?: string;
  completionTime?: string;
}

const opMessage = (c: UpstreamConditionLike | undefined) => asString(c?.message);

/** A run's Job decides its phase (`operatorMessage`: what the operator said of it, if anything). */
function jobVerdict(job: KubeObject, operatorMessage?: string): Verdict {
  const state = jobState(job);
  const times = {
    ...(state.startTime && { startTime: state.startTime }),
    ...(state.completionTime && { completionTime: state.completionTime }),
  };
  const message = state.message ?? operatorMessage;
  const withMessage = message ? { message } : {};
  switch (state.phase) {
    case 'Failed':
      return { phase: 'Failed', reason: pascalCase(state.reason), ...withMessage, ...times };
    case 'Succeeded':
      return { phase: 'Succeeded', reason: 'JobComplete', ...withMessage, ...times };
    case 'Suspended':
      return { phase: 'Pending', reason: 'JobSuspended', ...withMessage, ...times };
    default:
      return { phase: state.phase, reason: state.reason, ...withMessage, ...times };
  }
}

/** One on-demand run: its Job decides; without it, the Complete condition's reason does. */
function onDemandVerdict(source: KubeObject, related: RelatedLookup): Verdict {
  const complete = findCondition(source.status, 'Complete');
  const candidate = related.get({ type: JOBS, namespace: namespaceOf(source), name: nameOf(source) });
  const job = candidate && ownedBy(candidate, source, MARIADB_BACKUP.kind) ? candidate : undefined;
  if (job) return jobVerdict(job, opMessage(complete));
  const message = opMessage(complete);
  const withMessage = message ? { message } : {};
  const ended = complete?.lastTransitionTime ? { completionTime: complete.lastTransitionTime } : {};
  switch (complete?.reason) {
    case 'JobFailed':
      // Complete=True: the Job failed (the trap), whatever the flag says.
      return { phase: 'Failed', reason: 'JobFailed', ...withMessage, ...ended };
    case 'JobComplete':
      return complete.status === 'True'
        ? { phase: 'Succeeded', reason: 'JobComplete', ...withMessage, ...ended }
        : { phase: 'Unknown', reason: 'JobComplete', ...withMessage };
    case 'JobRunning':
      // the Job is not (yet) in the watch cache: the operator saw it running
      return { phase: 'Running', reason: 'JobRunning', ...withMessage };
    case 'JobSuspended':
      return { phase: 'Pending', reason: 'JobSuspended', ...withMessage };
    case 'Failed':
      // no Job yet: the operator cannot start it (MariaDB not ready, not found) and retries
      return { phase: 'Pending', reason: 'NotStarted', ...withMessage };
    case undefined:
      return complete
        ? { phase: 'Unknown', reason: 'Unknown', ...withMessage }
        : { phase: 'Pending', reason: 'WaitingForOperator', message: 'The operator has not started this backup yet' };
    default:
      return { phase: 'Unknown', reason: pascalCase(complete?.reason ?? 'Unknown'), ...withMessage };
  }
}

/** Where the Backup writes (its `spec.storage`). */
function locationOf(source: KubeObject): string | undefined {
  const storage = asRecord(asRecord(source.spec)?.storage) ?? {};
  if (asRecord(storage.persistentVolumeClaim)) return `persistentvolumeclaim/${nameOf(source)}`;
  const s3 = asRecord(storage.s3);
  if (s3) {
    const bucket = asString(s3.bucket);
    const prefix = asString(s3.prefix);
    if (bucket) return `s3://${bucket}${prefix ? `/${prefix.replace(/^\/+/, '')}` : ''}`;
  }
  return undefined;
}

/** What every run of this operator is served with. */
const served = (source: KubeObject, kind: SourceKind, instanceName: string) =>
  ({ operator: OPERATOR, engine: 'mariadb', kind, source, instanceName, restorableByOperator: true }) as const;

/**
 * One run of a scheduled Backup: its Job decides (the Backup's Complete condition speaks of the
 * CronJob as a whole); it wrote where the Backup writes. A Job of a CronJob is no object of the
 * operator: restoring it restores its Backup at the run's completion (mariadbRestore).
 */
function projectRun(job: KubeObject, related: RelatedLookup): DatabaseBackup {
  const backup = scheduleOf(job, related);
  const instanceName = asString(asRecord(asRecord(backup?.spec)?.mariaDbRef)?.name) ?? '';
  return toBackup({
    ...served(job, SCHEDULED_RUN, instanceName),
    ...jobVerdict(job),
    ...(backup && { location: locationOf(backup) }),
  });
}

export const mariadbBackups: BackupSide = {
  capabilities: {
    onDemand: true,
    schedule: true,
    restore: true,
    // Restore picks "the closest backup before" a target time, not a point in time.
    pointInTime: false,
  },
  // a one-off Backup is a run; a scheduled one is a DatabaseBackupSchedule (schedule.ts), and
  // each Job its CronJob makes a run (scheduledRun.ts)
  kinds: [MARIADB_BACKUP, SCHEDULED_RUN],
  relatedTypes: [JOBS, MARIADB_BACKUP],
  serves: (source, kind, related) => (kind === SCHEDULED_RUN ? scheduleOf(source, related) !== undefined : !isScheduled(source)),
  relatedRefs(source, kind) {
    if (kind === SCHEDULED_RUN) {
      const ref = scheduleRef(source);
      return ref ? [ref] : [];
    }
    return [{ type: JOBS, namespace: namespaceOf(source), name: nameOf(source) }];
  },
  project(source, kind, related) {
    if (kind === SCHEDULED_RUN) return projectRun(source, related);
    const verdict = onDemandVerdict(source, related);
    return toBackup({
      ...served(source, kind, asString(asRecord(asRecord(source.spec)?.mariaDbRef)?.name) ?? ''),
      ...verdict,
      location: locationOf(source),
    });
  },
  validate(spec) {
    return spec.method !== undefined
      ? [
          forbidden(
            'spec.method',
            'mariadb-operator has one backup method (a logical dump with mariadb-dump); leave spec.method out',
          ),
        ]
      : [];
  },
  schedules: mariadbSchedules,
  toOperatorObject(backup: DatabaseBackup, target, options) {
    return backupObject(backupMetadata(backup, options), target, backup.spec.instanceRef.name);
  },
};
