import { describe, expect, it } from '@jest/globals';
import type { DatabaseBackup, DatabaseInstance } from '@internal/plugin-databases-common';
import { crdStoreProblems } from '../__testUtils__/crdStoreProblems';
import { emptyLookup } from '../__testUtils__/schemaDerivedFixtures';
import type { KubeObject } from '../types';
import { mysqlOperatorAdapter } from './adapter';
import { mysqlRestore } from './restore';

const kind = mysqlOperatorAdapter.kinds[0];
const write = mysqlOperatorAdapter.write!;
const instance: DatabaseInstance = {
  apiVersion: 'dbaas.platform.dev/v1alpha1',
  kind: 'DatabaseInstance',
  metadata: { name: 'payments-copy', namespace: 'team-a' },
  spec: { engine: 'mysql', topology: 'innodbcluster', version: '9.1.0', replicas: 3, storage: { size: '10Gi' } },
};
const backup = { metadata: { name: 'payments-db-1' } } as DatabaseBackup;

/** An InnoDBCluster with backupProfiles as mysql.oracle.com_innodbclusters.yaml has them. */
const cluster = (storage: Record<string, unknown>): KubeObject => ({
  apiVersion: 'mysql.oracle.com/v2',
  kind: 'InnoDBCluster',
  metadata: { name: 'payments-db', namespace: 'team-a' },
  spec: { instances: 3, secretName: 'payments-db-root', backupProfiles: [{ name: 'dump', dumpInstance: { storage } }] },
});
/** A Completed MySQLBackup as backup_main.py leaves it (status.output: the folder it wrote). */
const mysqlBackup: KubeObject = {
  apiVersion: 'mysql.oracle.com/v2',
  kind: 'MySQLBackup',
  metadata: { name: 'payments-db-1', namespace: 'team-a' },
  spec: { clusterName: 'payments-db', backupProfileName: 'dump' },
  status: { status: 'Completed', output: 'payments-db-1', method: 'dump-instance/volume' },
};

describe('mysql-operator restore (spec.initDB.dump)', () => {
  it('from a claim: the profile\'s claim and the backup\'s output as path, held to the upstream CRD, read back', () => {
    const source = { backup, backupObject: mysqlBackup, backedUp: cluster({ persistentVolumeClaim: { claimName: 'payments-db-backups' } }) };
    expect(mysqlRestore.validate(source)).toEqual([]);
    const object = mysqlRestore.apply(write.toOperatorObject(instance), source);
    expect(object.spec.initDB).toEqual({ dump: { name: 'payments-db-1', storage: { persistentVolumeClaim: { claimName: 'payments-db-backups' } }, path: 'payments-db-1' } });
    expect(crdStoreProblems('mysql-operator', kind, object)).toEqual([]);
    expect(mysqlRestore.read(object)).toEqual({ backup: 'payments-db-1' });
  });

  it('from S3: the bucket with the output folder appended to the profile prefix', () => {
    const source = { backup, backupObject: mysqlBackup, backedUp: cluster({ s3: { bucketName: 'b', prefix: '/dumps/', config: 's3-secret' } }) };
    const object = mysqlRestore.apply(write.toOperatorObject(instance), source);
    expect(object.spec.initDB.dump.storage).toEqual({ s3: { bucketName: 'b', prefix: '/dumps/payments-db-1', config: 's3-secret' } });
    expect(crdStoreProblems('mysql-operator', kind, object)).toEqual([]);
  });

  it('refuses a backup whose profile cannot be found (its cluster gone) and a point in time', () => {
    expect(mysqlRestore.validate({ backup, backupObject: mysqlBackup })[0].message).toMatch(/cannot be read/);
    expect(mysqlRestore.pointInTimeRefusal).toMatch(/cannot stop at a point in time/);
  });

  it('derived: a new cluster from a dump still PENDING is Provisioning Restoring; ONLINE is Ready', () => {
    const source = { backup, backupObject: mysqlBackup, backedUp: cluster({ persistentVolumeClaim: { claimName: 'c' } }) };
    const built = mysqlRestore.apply(write.toOperatorObject(instance), source);
    const at = (status: Record<string, unknown>): KubeObject => ({ ...built, metadata: { ...built.metadata, uid: 'u', creationTimestamp: '2026-07-01T10:00:00Z' }, status });
    const pending = mysqlOperatorAdapter.project(at({ cluster: { status: 'PENDING', onlineInstances: 0 } }), kind, emptyLookup).status!;
    expect([pending.phase, pending.reason]).toEqual(['Provisioning', 'Restoring']);
    expect(pending.message).toMatch(/Loading dump payments-db-1/);
    const online = mysqlOperatorAdapter.project(at({ cluster: { status: 'ONLINE', onlineInstances: 3 } }), kind, emptyLookup).status!;
    expect(online.phase).toBe('Ready');
  });
});
