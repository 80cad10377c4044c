import { jobType, slimJob } from '../shared/jobType';
import { asArray, asRecord, asString, namespaceOf } from '../shared/read';
import type { KubeObject, RelatedLookup, RelatedRef, SourceKind } from '../types';
import { isScheduled, MARIADB_BACKUP } from './backupObject';

/**
 * The runs of a scheduled mariadb-operator Backup. The operator keeps a CronJob of the Backup's
 * name for it (pkg/builder/batch_builder.go BuildBackupCronJob: controlled by the Backup, its
 * job template BuildBackupJob's); kube's CronJob controller makes each firing a Job
 * `<cronjob>-<minutes since the epoch>` (pkg/controller/cronjob/utils.go getJobFromTemplate2):
 * controlled by the CronJob, with the template's labels and annotations and the annotation
 * `batch.kubernetes.io/cronjob-scheduled-timestamp`. Each such Job is one DatabaseBackup, of
 * the Backup's MariaDB; it is pruned by the CronJob's history limits (the Backup's
 * `successfulJobsHistoryLimit` / `failedJobsHistoryLimit`).
 */
export const SCHEDULED_RUN: SourceKind = { ...jobType(), topologies: [], slim: slimRunJob };

/** Labels the Job API adds to every Job (its selector's): not the run's own. */
const JOB_CONTROLLER_LABELS = new Set([
  'controller-uid',
  'job-name',
  'batch.kubernetes.io/controller-uid',
  'batch.kubernetes.io/job-name',
]);

/** The CronJob controlling `job`, by name, if a CronJob controls it. */
export function controllingCronJob(job: KubeObject): string | undefined {
  for (const raw of asArray(job.metadata?.ownerReferences)) {
    const ref = asRecord(raw);
    if (ref?.controller === true && ref.kind === 'CronJob' && ref.apiVersion === 'batch/v1') return asString(ref.name);
  }
  return undefined;
}

/**
 * A Job as the backup store keeps it (slimJob), with a CronJob's Job's labels and annotations
 * beside: those are served on its DatabaseBackup; every other Job of the cluster stays small.
 */
function slimRunJob(job: KubeObject): KubeObject {
  const slim = slimJob(job);
  if (!controllingCronJob(job)) return slim;
  const labels = Object.entries(job.metadata?.labels ?? {}).filter(([k]) => !JOB_CONTROLLER_LABELS.has(k));
  const annotations = job.metadata?.annotations;
  return {
    ...slim,
    metadata: {
      ...slim.metadata,
      ...(labels.length > 0 && { labels: Object.fromEntries(labels) }),
      ...(annotations && Object.keys(annotations).length > 0 && { annotations }),
    },
  };
}

/** The Backup whose CronJob made `job` (named as the CronJob), to be looked up. */
export function scheduleRef(job: KubeObject): RelatedRef | undefined {
  const cronJob = controllingCronJob(job);
  return cronJob ? { type: MARIADB_BACKUP, namespace: namespaceOf(job), name: cronJob } : undefined;
}

/** The scheduled Backup `job` is a run of, or undefined when it is none's. */
export function scheduleOf(job: KubeObject, related: RelatedLookup): KubeObject | undefined {
  const ref = scheduleRef(job);
  const backup = ref && related.get(ref);
  return backup && isScheduled(backup) ? backup : undefined;
}
