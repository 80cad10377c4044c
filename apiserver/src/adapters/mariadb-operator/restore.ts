import { invalid } from '../../writes/FieldCause';
import { asRecord, asString, nameOf } from '../shared/read';
import type { KubeObject, RestoreWrite } from '../types';
import { MARIADB_BACKUP } from './backup';

const isMariadbBackup = (o: KubeObject) =>
  o.apiVersion === `${MARIADB_BACKUP.group}/${MARIADB_BACKUP.version}` && o.kind === MARIADB_BACKUP.kind;

/**
 * mariadb-operator bootstraps a new MariaDB from a Backup with `spec.bootstrapFrom.backupRef`
 * (api/v1alpha1 mariadb_types.go BootstrapFrom; "If the Kind is not specified, a logical Backup
 * is assumed"): once the StatefulSet is healthy it creates a Restore `<name>-restore` and keeps
 * Ready=False "Restoring backup" until it is complete (internal/controller/mariadb_controller.go
 * reconcileRestore), then BackupRestored=True.
 *
 * No point in time: `bootstrapFrom.targetRecoveryTime` only picks "the closest restoration
 * source in time" among the files a Backup wrote (the CRD's words), so a request for a point in
 * time is refused rather than answered with whatever backup came before it.
 */
export const mariadbRestore: RestoreWrite = {
  pointInTimeRefusal:
    'mariadb-operator restores the closest backup before a time (spec.bootstrapFrom.targetRecoveryTime), not the state at that time; ' +
    'this API does not pass that off as a point in time: restore from a DatabaseBackup by name (spec.restoreFrom.backup)',
  validate(source) {
    if (!('backup' in source)) return [];
    return isMariadbBackup(source.backupObject)
      ? []
      : [invalid('spec.restoreFrom.backup', source.backup.metadata.name ?? '', 'is not a mariadb-operator Backup')];
  },
  apply(object, source) {
    if (!('backup' in source)) return object;
    return { ...object, spec: { ...object.spec, bootstrapFrom: { backupRef: { name: nameOf(source.backupObject) } } } };
  },
  read(object) {
    const name = asString(asRecord(asRecord(asRecord(object.spec)?.bootstrapFrom)?.backupRef)?.name);
    return name ? { backup: name } : undefined;
  },
};
