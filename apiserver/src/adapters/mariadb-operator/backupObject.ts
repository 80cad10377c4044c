import { asRecord, asString, nameOf, quantity } from '../shared/read';
import { claimStorageOf } from '../shared/storageOf';
import type { KubeObject, SourceKind } from '../types';

/** mariadb-operator's Backup (k8s.mariadb.com/v1alpha1): one run, or with `spec.schedule` a series. */
export const MARIADB_BACKUP: SourceKind = {
  group: 'k8s.mariadb.com',
  version: 'v1alpha1',
  plural: 'backups',
  kind: 'Backup',
  topologies: [],
};

/** A Backup with `spec.schedule` is a series (a DatabaseBackupSchedule, see schedule.ts), not a run. */
export const isScheduled = (source: KubeObject) => asRecord(asRecord(source.spec)?.schedule) !== undefined;

/** The size of the target MariaDB's data volume (`spec.storage.size` or its claim template). */
export function targetStorage(target: KubeObject): { size: string; storageClassName?: string } {
  const spec = asRecord(target.spec) ?? {};
  const storage = asRecord(spec.storage) ?? {};
  const claim = claimStorageOf(asRecord(storage.volumeClaimTemplate) ?? asRecord(spec.volumeClaimTemplate));
  const size = quantity(storage.size) ?? claim?.size ?? '10Gi';
  const storageClassName = asString(storage.storageClassName) ?? claim?.storageClassName;
  return { size, ...(storageClassName && { storageClassName }) };
}

/**
 * The Backup this API writes for `target` (one-off, or scheduled once the caller adds
 * `spec.schedule`): gzip-compressed, into a claim of the Backup's name (reconcileStorage in
 * pkg/controller/batch/controller.go) as large as the instance's data volume, which a
 * compressed logical dump of it fits.
 */
export function backupObject(metadata: NonNullable<KubeObject['metadata']>, target: KubeObject, instanceName: string): KubeObject {
  const { size, storageClassName } = targetStorage(target);
  return {
    apiVersion: `${MARIADB_BACKUP.group}/${MARIADB_BACKUP.version}`,
    kind: MARIADB_BACKUP.kind,
    metadata,
    spec: {
      mariaDbRef: { name: nameOf(target) || instanceName },
      compression: 'gzip',
      storage: {
        persistentVolumeClaim: {
          accessModes: ['ReadWriteOnce'],
          resources: { requests: { storage: size } },
          ...(storageClassName && { storageClassName }),
        },
      },
    },
  };
}
