import { ANNOTATION_RESTORED_BACKUP } from '@internal/plugin-databases-common';
import { invalid } from '../../writes/FieldCause';
import { asRecord, asString, nameOf } from '../shared/read';
import type { KubeObject, RestoreWrite } from '../types';
import { MARIADB_BACKUP } from './backup';
import { controllingCronJob, SCHEDULED_RUN } from './scheduledRun';

const isMariadbBackup = (o: KubeObject) =>
  o.apiVersion === `${MARIADB_BACKUP.group}/${MARIADB_BACKUP.version}` && o.kind === MARIADB_BACKUP.kind;
const isRun = (o: KubeObject) =>
  o.apiVersion === `${SCHEDULED_RUN.group}/${SCHEDULED_RUN.version}` && o.kind === SCHEDULED_RUN.kind && controllingCronJob(o) !== undefined;

/**
 * mariadb-operator bootstraps a new MariaDB from a Backup with `spec.bootstrapFrom.backupRef`
 * (api/v1alpha1 mariadb_types.go BootstrapFrom; "If the Kind is not specified, a logical Backup
 * is assumed"): once the StatefulSet is healthy it creates a Restore `<name>-restore` and keeps
 * Ready=False "Restoring backup" until it is complete (internal/controller/mariadb_controller.go
 * reconcileRestore), then BackupRestored=True.
 *
 * A run of a scheduled Backup (a Job of its CronJob, scheduledRun.ts) is restored as its Backup
 * with `targetRecoveryTime` the run's completion: the operator takes "the closest restoration
 * source in time" before it among the Backup's files, which is that run's (its CronJob forbids
 * concurrent runs, so the next one starts after it ended). The MariaDB then names the Backup,
 * not the run: the apiserver records the run's name beside (ANNOTATION_RESTORED_BACKUP).
 *
 * No point in time: `bootstrapFrom.targetRecoveryTime` only picks among the files a Backup
 * wrote (the CRD's words), so a request for a point in time is refused rather than answered
 * with whatever backup came before it.
 */
export const mariadbRestore: RestoreWrite = {
  pointInTimeRefusal:
    'mariadb-operator restores the closest backup before a time (spec.bootstrapFrom.targetRecoveryTime), not the state at that time; ' +
    'this API does not pass that off as a point in time: restore from a DatabaseBackup by name (spec.restoreFrom.backup)',
  validate(source) {
    if (!('backup' in source)) return [];
    const name = source.backup.metadata.name ?? '';
    if (isMariadbBackup(source.backupObject)) return [];
    if (!isRun(source.backupObject)) return [invalid('spec.restoreFrom.backup', name, 'is not a mariadb-operator Backup')];
    return source.backup.status?.completionTime
      ? []
      : [invalid('spec.restoreFrom.backup', name, 'the run has no completion time to pick its file by')];
  },
  apply(object, source) {
    if (!('backup' in source)) return object;
    if (!isRun(source.backupObject)) {
      return { ...object, spec: { ...object.spec, bootstrapFrom: { backupRef: { name: nameOf(source.backupObject) } } } };
    }
    const bootstrapFrom = {
      backupRef: { name: controllingCronJob(source.backupObject) },
      targetRecoveryTime: source.backup.status?.completionTime,
    };
    const annotations = { ...object.metadata?.annotations, [ANNOTATION_RESTORED_BACKUP]: source.backup.metadata.name ?? '' };
    return { ...object, metadata: { ...object.metadata, annotations }, spec: { ...object.spec, bootstrapFrom } };
  },
  read(object) {
    const name = asString(asRecord(asRecord(asRecord(object.spec)?.bootstrapFrom)?.backupRef)?.name);
    if (!name) return undefined;
    return { backup: object.metadata?.annotations?.[ANNOTATION_RESTORED_BACKUP] ?? name };
  },
};
