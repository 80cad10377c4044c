import { invalid } from '../../writes/FieldCause';
import { asRecord, asString, nameOf } from '../shared/read';
import type { KubeObject, RestoreWrite } from '../types';

const isCnpgBackup = (o: KubeObject) => o.apiVersion === 'postgresql.cnpg.io/v1' && o.kind === 'Backup';

/** The object store a Cluster archives to (`spec.backup.barmanObjectStore`), if any. */
const objectStoreOf = (cluster: KubeObject) => asRecord(asRecord(asRecord(cluster.spec)?.backup)?.barmanObjectStore);

/**
 * CloudNativePG never recovers in place: a new Cluster bootstraps from a backup with
 * `spec.bootstrap.recovery` (docs/src/recovery.md). From a Backup object: `recovery.backup.name`
 * (the operator waits until it is `completed`, internal/controller/cluster_create.go
 * checkReadyForRecovery). To a point in time: `recovery.source` names an entry of
 * `externalClusters` holding the source Cluster's `barmanObjectStore` (its serverName defaults
 * to the entry's name, hence the entry is named as the source), and
 * `recovery.recoveryTarget.targetTime` is where WAL replay stops. The recovery runs as the Job
 * `<name>-1-full-recovery` while the phase reads "Setting up primary".
 */
export const postgresqlRestore: RestoreWrite = {
  validate(source) {
    if ('backup' in source) {
      return isCnpgBackup(source.backupObject)
        ? []
        : [invalid('spec.restoreFrom.backup', source.backup.metadata.name ?? '', 'is not a CloudNativePG Backup')];
    }
    return objectStoreOf(source.instance)
      ? []
      : [
          invalid(
            'spec.restoreFrom.instance',
            nameOf(source.instance),
            'has no backup destination (spec.backup.barmanObjectStore of its Cluster): CloudNativePG replays base backups and archived WAL from an object store, so a point in time needs one',
          ),
        ];
  },
  apply(object, source) {
    const spec = { ...object.spec };
    if ('backup' in source) {
      spec.bootstrap = { recovery: { backup: { name: nameOf(source.backupObject) } } };
    } else {
      const name = nameOf(source.instance);
      spec.bootstrap = { recovery: { source: name, recoveryTarget: { targetTime: source.pointInTime } } };
      spec.externalClusters = [{ name, barmanObjectStore: JSON.parse(JSON.stringify(objectStoreOf(source.instance))) }];
    }
    return { ...object, spec };
  },
  read(object) {
    const recovery = asRecord(asRecord(asRecord(object.spec)?.bootstrap)?.recovery);
    if (!recovery) return undefined;
    const backup = asString(asRecord(recovery.backup)?.name);
    if (backup) return { backup };
    const instance = asString(recovery.source);
    const pointInTime = asString(asRecord(recovery.recoveryTarget)?.targetTime);
    return instance ? { instance, ...(pointInTime && { pointInTime }) } : undefined;
  },
};
