import { invalid } from '../../writes/FieldCause';
import { asArray, asRecord, asString, nameOf } from '../shared/read';
import type { KubeObject, RestoreSource, RestoreWrite } from '../types';
import { MYSQL_BACKUP } from './backup';

const isMysqlBackup = (o: KubeObject) => o.apiVersion === `${MYSQL_BACKUP.group}/${MYSQL_BACKUP.version}` && o.kind === MYSQL_BACKUP.kind;
const join = (prefix: string | undefined, output: string) => (prefix ? `${prefix.replace(/\/+$/, '')}/${output}` : output);

/**
 * The storage a MySQLBackup wrote to: its inline `spec.backupProfile`, or the profile it names
 * (`spec.backupProfileName`) in the InnoDBCluster it backed up (mysql.oracle.com_mysqlbackups.yaml).
 */
function profileStorage(backupObject: KubeObject, backedUp: KubeObject | undefined): Record<string, any> | undefined {
  const spec = asRecord(backupObject.spec) ?? {};
  const inline = asRecord(spec.backupProfile);
  const name = asString(spec.backupProfileName);
  const profile =
    inline ?? asArray(asRecord(backedUp?.spec)?.backupProfiles).map(p => asRecord(p)).find(p => p && asString(p.name) === name);
  return asRecord(asRecord(profile?.dumpInstance)?.storage);
}

/**
 * `initDB.dump.storage` for a dump at `output` (the MySQLBackup's `status.output`, the folder
 * the backup wrote, backup_main.py): the same bucket or container with the folder appended to
 * the profile's prefix; a claim as the profile has it, the folder as `path`.
 */
function dumpOf(storage: Record<string, any>, output: string): { storage: Record<string, unknown>; path?: string } | undefined {
  const oci = asRecord(storage.ociObjectStorage);
  if (oci) return { storage: { ociObjectStorage: { bucketName: oci.bucketName, credentials: oci.credentials, prefix: join(asString(oci.prefix), output) } } };
  const s3 = asRecord(storage.s3);
  if (s3) return { storage: { s3: { ...s3, prefix: join(asString(s3.prefix), output) } } };
  const azure = asRecord(storage.azure);
  if (azure) return { storage: { azure: { containerName: azure.containerName, config: azure.config, prefix: join(asString(azure.prefix), output) } } };
  const claim = asRecord(storage.persistentVolumeClaim);
  if (claim) return { storage: { persistentVolumeClaim: JSON.parse(JSON.stringify(claim)) }, path: output };
  return undefined;
}

const dumpFor = (source: RestoreSource) => {
  if (!('backup' in source)) return undefined;
  const storage = profileStorage(source.backupObject, source.backedUp);
  const output = asString(asRecord(source.backupObject.status)?.output);
  return storage && output ? dumpOf(storage, output) : undefined;
};

/**
 * Oracle mysql-operator creates a new InnoDBCluster from a dump with `spec.initDB.dump`
 * (mysql.oracle.com_innodbclusters.yaml: `name` a hint, `storage` as a backup profile's, `path`
 * in a claim): the first instance loads it with MySQL Shell's loadDump before the cluster is
 * created. It has no point in time.
 */
export const mysqlRestore: RestoreWrite = {
  pointInTimeRefusal:
    'mysql-operator loads a dump into a new cluster (spec.initDB.dump), it cannot stop at a point in time: restore from a DatabaseBackup by name (spec.restoreFrom.backup)',
  validate(source) {
    if (!('backup' in source)) return [];
    const name = source.backup.metadata.name ?? '';
    if (!isMysqlBackup(source.backupObject)) return [invalid('spec.restoreFrom.backup', name, 'is not a MySQLBackup')];
    return dumpFor(source)
      ? []
      : [invalid('spec.restoreFrom.backup', name, 'where its dump is cannot be read: its backup profile (or the InnoDBCluster naming it) or its status.output is gone')];
  },
  apply(object, source) {
    const dump = dumpFor(source);
    if (!dump || !('backup' in source)) return object;
    return { ...object, spec: { ...object.spec, initDB: { dump: { name: nameOf(source.backupObject), ...dump } } } };
  },
  read(object) {
    const name = asString(asRecord(asRecord(asRecord(object.spec)?.initDB)?.dump)?.name);
    return name ? { backup: name } : undefined;
  },
};
