import type { StoredObject } from '../../store/types';
import { CRONJOBS, JOBS } from '../BackupEmulator';
import { kubeTime } from '../batch/jobRun';
import { cronJobPatch } from '../batch/cronJobPatch';
import { withCondition } from '../conditions';
import type { BackupStep, BackupWorld, CustomKind, EmulatedBackups } from '../types';
import { MARIADB_DEFAULT_IMAGE } from './mariadbOperator';
import { MARIADB_KIND } from './mariadbKind';
import { mariadbBackupDemo } from './backupDemo';
import { MARIADB_RESTORE_KIND, reconcileBootstrap, reconcileRestore } from './restore';
import { completeWithJob, isTrue, type Cond } from './completeWithJob';
import { completeWithCronJob } from './completeWithCronJob';

/** Backup (k8s.mariadb.com/v1alpha1): one run (a Job), or with spec.schedule a series (a CronJob). */
export const MARIADB_BACKUP_KIND: CustomKind = {
  group: 'k8s.mariadb.com',
  version: 'v1alpha1',
  plural: 'backups',
  kind: 'Backup',
};

/** The operator's own image, the Job's second container (config/manager default of v26.6.0). */
const OPERATOR_IMAGE = 'docker-registry3.mariadb.com/mariadb-operator/mariadb-operator:26.6.0';

type Spec = Record<string, any>;

/**
 * The Job BuildBackupJob makes (pkg/builder/batch_builder.go): named and namespaced as the
 * Backup (the batch reconciler's key, pkg/controller/batch/controller.go), labels and
 * annotations only from spec.inheritMetadata (NewMetadataBuilder starts empty), the Backup its
 * controller (SetControllerReference), a mariadb-dump init container and the operator's
 * container that uploads the result.
 */
export function backupJob(backup: StoredObject, mariadb: StoredObject | undefined): Record<string, any> {
  const spec: Spec = backup.spec ?? {};
  const inherit = spec.inheritMetadata ?? {};
  const meta = {
    ...(inherit.labels && Object.keys(inherit.labels).length && { labels: { ...inherit.labels } }),
    ...(inherit.annotations && Object.keys(inherit.annotations).length && { annotations: { ...inherit.annotations } }),
  };
  const podMeta = {
    ...(meta.labels || spec.podMetadata?.labels ? { labels: { ...meta.labels, ...spec.podMetadata?.labels } } : {}),
    ...(meta.annotations || spec.podMetadata?.annotations
      ? { annotations: { ...meta.annotations, ...spec.podMetadata?.annotations } }
      : {}),
  };
  const image = (mariadb?.spec as Spec | undefined)?.image || MARIADB_DEFAULT_IMAGE;
  // the PVC the batch reconciler makes is named as the Backup; S3 stages in an emptyDir
  let volume: Record<string, unknown> = { name: 'backup', emptyDir: {} };
  if (spec.storage?.volume) volume = { name: 'backup', ...spec.storage.volume };
  if (spec.storage?.persistentVolumeClaim)
    volume = { name: 'backup', persistentVolumeClaim: { claimName: backup.metadata.name } };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: backup.metadata.name,
      namespace: backup.metadata.namespace,
      ...meta,
      ownerReferences: [
        {
          apiVersion: 'k8s.mariadb.com/v1alpha1',
          kind: 'Backup',
          name: backup.metadata.name,
          uid: backup.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      // BackupSpec.SetDefaults: backoffLimit 5 when unset
      backoffLimit: spec.backoffLimit ?? 5,
      template: {
        ...(Object.keys(podMeta).length && { metadata: podMeta }),
        spec: {
          restartPolicy: spec.restartPolicy ?? 'OnFailure',
          volumes: [volume],
          initContainers: [
            { name: 'mariadb', image, command: ['bash', '-c'], volumeMounts: [{ name: 'backup', mountPath: '/backup' }] },
          ],
          containers: [
            { name: 'mariadb-operator', image: OPERATOR_IMAGE, args: ['backup'], volumeMounts: [{ name: 'backup', mountPath: '/backup' }] },
          ],
          serviceAccountName: spec.serviceAccountName ?? backup.metadata.name,
        },
      },
    },
  };
}

/** BuildBackupCronJob: the same Job as a template, Forbid concurrency, the Backup's schedule. */
export function backupCronJob(backup: StoredObject, mariadb: StoredObject | undefined): Record<string, any> {
  const spec: Spec = backup.spec ?? {};
  const job = backupJob(backup, mariadb);
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: job.metadata,
    spec: {
      schedule: spec.schedule.cron,
      concurrencyPolicy: 'Forbid',
      suspend: spec.schedule.suspend ?? false,
      ...(spec.timeZone && { timeZone: spec.timeZone }),
      ...(spec.successfulJobsHistoryLimit !== undefined && { successfulJobsHistoryLimit: spec.successfulJobsHistoryLimit }),
      ...(spec.failedJobsHistoryLimit !== undefined && { failedJobsHistoryLimit: spec.failedJobsHistoryLimit }),
      jobTemplate: {
        ...(job.metadata.labels || job.metadata.annotations
          ? { metadata: { labels: job.metadata.labels, annotations: job.metadata.annotations } }
          : {}),
        spec: job.spec,
      },
    },
  };
}

/**
 * One round of the BackupReconciler (internal/controller/backup_controller.go, v26.6.0): a
 * one-off Backup already Complete is left alone; while its MariaDB is not ready (waitForIt,
 * the default) `Complete=False` `Failed` "MariaDB not ready"; otherwise its Job (or CronJob)
 * is created and the Complete condition follows it.
 */
function reconcile(backup: StoredObject, _kind: CustomKind, world: BackupWorld): BackupStep {
  const spec: Spec = backup.spec ?? {};
  const status = (backup.status ?? {}) as Record<string, any>;
  const now = kubeTime(world.now);
  const scheduled = !!spec.schedule;
  if (!scheduled && isTrue(backup, 'Complete')) return {};
  const ns = backup.metadata.namespace;
  const mariadb = world.get(MARIADB_KIND, ns, String(spec.mariaDbRef?.name ?? ''));
  // the operator keeps retrying with an error and no condition of its own until the MariaDB exists
  if (!mariadb) return {};
  const set = (c: Cond) => ({ conditions: withCondition(status.conditions, c, now) });
  if (spec.mariaDbRef?.waitForIt !== false && !isTrue(mariadb, 'Ready'))
    return { status: set({ type: 'Complete', status: 'False', reason: 'Failed', message: 'MariaDB not ready' }) };
  if (scheduled) {
    const cronJob = world.get(CRONJOBS, ns, backup.metadata.name);
    const patched = cronJob && cronJobPatch(cronJob, backupCronJob(backup, mariadb));
    return {
      create: cronJob ? [] : [{ resource: CRONJOBS, body: backupCronJob(backup, mariadb) }],
      ...(patched && { update: [{ resource: CRONJOBS, body: patched }] }),
      status: set(completeWithCronJob(cronJob)),
    };
  }
  const job = world.get(JOBS, ns, backup.metadata.name);
  return {
    create: job ? [] : [{ resource: JOBS, body: backupJob(backup, mariadb) }],
    status: set(completeWithJob(job)),
  };
}

/**
 * mariadb-operator's Backups, and what its restores run with the same machinery: the Restore a
 * bootstrapping MariaDB makes (reconcileBootstrap, on MariaDBs) and each Restore's Job.
 */
export const mariadbBackups: EmulatedBackups = {
  kinds: [MARIADB_BACKUP_KIND, MARIADB_RESTORE_KIND, MARIADB_KIND],
  reconcile: (obj, kind, world) => {
    if (kind.kind === MARIADB_KIND.kind) return reconcileBootstrap(obj, world);
    if (kind.kind === MARIADB_RESTORE_KIND.kind) return reconcileRestore(obj, world);
    return reconcile(obj, kind, world);
  },
  demo: mariadbBackupDemo,
};
