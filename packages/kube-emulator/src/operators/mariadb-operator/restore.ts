import type { StoredObject } from '../../store/types';
import { JOBS } from '../BackupEmulator';
import { kubeTime } from '../batch/jobRun';
import { withCondition } from '../conditions';
import type { BackupStep, BackupWorld, CustomKind, Observation } from '../types';
import { completeWithJob, isTrue } from './completeWithJob';

/** Restore (k8s.mariadb.com/v1alpha1): one restore of a Backup into a MariaDB, run as a Job. */
export const MARIADB_RESTORE_KIND: CustomKind = {
  group: 'k8s.mariadb.com',
  version: 'v1alpha1',
  plural: 'restores',
  kind: 'Restore',
};

const RESTORING = { status: 'False' as const, reason: 'RestoreBackup', message: 'Restoring backup' };
const RESTORED = { type: 'BackupRestored', status: 'True' as const, reason: 'RestoreBackup', message: 'Restored backup' };

type Spec = Record<string, any>;
type Conditions = Array<{ type: string; status: string; reason?: string; message?: string }>;
const conditionsOf = (o: StoredObject | undefined): Conditions => ((o?.status as Spec | undefined)?.conditions ?? []) as Conditions;
const restoreName = (mariadb: StoredObject) => `${mariadb.metadata.name}-restore`;

/**
 * A MariaDB with `spec.bootstrapFrom` as mariadb-operator restores it
 * (internal/controller/mariadb_controller.go reconcileRestore): once the StatefulSet is healthy
 * it writes Ready=False and BackupRestored=False, reason RestoreBackup "Restoring backup"
 * (pkg/condition SetRestoringBackup) and keeps them while its Restore `<name>-restore` runs; the
 * restore's end (BackupRestored=True "Restored backup") is written by {@link reconcileBootstrap},
 * which sees the Restore. Before it is healthy the status is the StatefulSet's.
 */
export function withRestore(cr: StoredObject, obs: Observation, status: Record<string, any> | undefined): Record<string, any> | undefined {
  const spec = (cr.spec as Spec | undefined) ?? {};
  if (!status || !spec.bootstrapFrom) return status;
  const restored = conditionsOf(cr).find(c => c.type === 'BackupRestored' && c.status === 'True');
  if (restored) return { ...status, conditions: withCondition(status.conditions, restored as any, obs.now) };
  const memo = (obs.memo ??= {});
  if (!memo.restoring && obs.stage !== 'ready') return status;
  memo.restoring = true;
  const conditions = withCondition(withCondition(status.conditions, { type: 'Ready', ...RESTORING }, obs.now), { type: 'BackupRestored', ...RESTORING }, obs.now);
  return { ...status, conditions };
}

/**
 * The bootstrap's Restore, as reconcileRestore runs it in current releases: created (owned by
 * the MariaDB, BuildRestore) once the MariaDB says it is restoring; when the Restore is complete,
 * whatever its reason, deleted and the MariaDB marked BackupRestored=True (SetRestoredBackup):
 * the operator's own trap, a failed restore (Complete=True JobFailed) reads restored.
 */
export function reconcileBootstrap(mariadb: StoredObject, world: BackupWorld): BackupStep {
  const spec = (mariadb.spec as Spec | undefined) ?? {};
  if (!spec.bootstrapFrom || isTrue(mariadb, 'BackupRestored')) return {};
  if (!conditionsOf(mariadb).some(c => c.type === 'BackupRestored' && c.reason === RESTORING.reason)) return {};
  const ns = mariadb.metadata.namespace;
  const restore = world.get(MARIADB_RESTORE_KIND, ns, restoreName(mariadb));
  if (!restore) return { create: [{ resource: MARIADB_RESTORE_KIND, body: bootstrapRestore(mariadb) }] };
  if (!isTrue(restore, 'Complete')) return {};
  const status = (mariadb.status ?? {}) as Spec;
  return {
    delete: [{ resource: MARIADB_RESTORE_KIND, name: restore.metadata.name }],
    status: { ...status, conditions: withCondition(status.conditions, RESTORED, kubeTime(world.now)) },
  };
}

/** BuildRestore for a bootstrap: the Backup named by bootstrapFrom into this MariaDB, owned by it. */
function bootstrapRestore(mariadb: StoredObject): Record<string, any> {
  const from = ((mariadb.spec as Spec).bootstrapFrom ?? {}) as Spec;
  return {
    apiVersion: 'k8s.mariadb.com/v1alpha1',
    kind: 'Restore',
    metadata: {
      name: restoreName(mariadb),
      namespace: mariadb.metadata.namespace,
      ownerReferences: [
        { apiVersion: 'k8s.mariadb.com/v1alpha1', kind: 'MariaDB', name: mariadb.metadata.name, uid: mariadb.metadata.uid, controller: true, blockOwnerDeletion: true },
      ],
    },
    spec: {
      mariaDbRef: { name: mariadb.metadata.name },
      ...(from.backupRef && { backupRef: from.backupRef }),
      ...(from.targetRecoveryTime && { targetRecoveryTime: from.targetRecoveryTime }),
    },
  };
}

/**
 * One round of the RestoreReconciler: its Job (named as the Restore, controlled by it) is created
 * and `Complete` follows it as SetCompleteWithJob writes it (see completeWithJob), `JobFailed`
 * included. The Job fails when the MariaDB asks (FAIL_RESTORE_ANNOTATION, through the owners).
 */
export function reconcileRestore(restore: StoredObject, world: BackupWorld): BackupStep {
  if (isTrue(restore, 'Complete')) return {};
  const ns = restore.metadata.namespace;
  const job = world.get(JOBS, ns, restore.metadata.name);
  const status = (restore.status ?? {}) as Spec;
  return {
    create: job ? [] : [{ resource: JOBS, body: restoreJob(restore) }],
    status: { ...status, conditions: withCondition(status.conditions, completeWithJob(job), kubeTime(world.now)) },
  };
}

/** The restore's Job (pkg/builder BuildRestoreJob, reduced): the operator's image loads the backup. */
function restoreJob(restore: StoredObject): Record<string, any> {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: restore.metadata.name,
      namespace: restore.metadata.namespace,
      ownerReferences: [
        { apiVersion: 'k8s.mariadb.com/v1alpha1', kind: 'Restore', name: restore.metadata.name, uid: restore.metadata.uid, controller: true, blockOwnerDeletion: true },
      ],
    },
    spec: {
      backoffLimit: ((restore.spec as Spec | undefined)?.backoffLimit as number | undefined) ?? 5,
      template: {
        spec: {
          restartPolicy: 'OnFailure',
          containers: [{ name: 'mariadb', image: 'mariadb:11.4', command: ['bash', '-c'], args: ['mariadb < /backup/backup.sql'] }],
        },
      },
    },
  };
}
