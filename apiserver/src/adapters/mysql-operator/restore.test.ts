import { describe, expect, it } from '@jest/globals';
import type { DatabaseBackup, DatabaseInstance } from '@internal/plugin-databases-common';
import { crdStoreProblems } from '../__testUtils__/crdStoreProblems';
import { emptyLookup } from '../__testUtils__/schemaDerivedFixtures';
import type { KubeObject, RelatedLookup } from '../types';
import { mysqlOperatorAdapter } from './adapter';
import { mysqlMembers } from './members';
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

  it('derived: a dump load that keeps failing in the seed pod is Failed RestoreFailed, saying where the operator wrote why', () => {
    const source = { backup, backupObject: mysqlBackup, backedUp: cluster({ persistentVolumeClaim: { claimName: 'c' } }) };
    const built = mysqlRestore.apply(write.toOperatorObject(instance), source);
    const cr: KubeObject = { ...built, metadata: { ...built.metadata, uid: 'u', creationTimestamp: '2026-07-01T10:00:00Z' }, status: { cluster: { status: 'PENDING', onlineInstances: 0 } } };
    const name = cr.metadata!.name!;
    const ns = cr.metadata!.namespace!;
    // a pod as kubelet writes it (core/v1 ContainerStatus), through the cache's slim copy
    const seedPod = (sidecar: Record<string, unknown>) =>
      mysqlMembers.pods.slim!({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `${name}-0`, namespace: ns, labels: { component: 'mysqld', 'mysql.oracle.com/cluster': name } },
        status: {
          phase: 'Running',
          conditions: [{ type: 'Ready', status: 'False' }],
          containerStatuses: [
            { name: 'mysql', ready: true, restartCount: 0, state: { running: { startedAt: '2026-07-01T10:01:00Z' } } },
            { name: 'sidecar', ready: false, ...sidecar },
          ],
        },
      });
    const lookup = (pod: KubeObject): RelatedLookup => ({ get: ref => (ref.type.plural === 'pods' && ref.name === `${name}-0` ? pod : undefined) });
    const crashing = seedPod({
      restartCount: 3,
      state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container=sidecar' } },
      lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: '2026-07-01T10:02:00Z', finishedAt: '2026-07-01T10:02:09Z' } },
    });
    const failed = mysqlOperatorAdapter.project(cr, kind, lookup(crashing)).status!;
    expect([failed.phase, failed.reason]).toEqual(['Failed', 'RestoreFailed']);
    expect(failed.message).toContain(`Loading dump payments-db-1 failed: container sidecar of the seed pod ${name}-0 exited with code 1 (Error), restarted 3 times`);
    expect(failed.message).toContain(`kubectl logs -n ${ns} ${name}-0 -c sidecar --previous`);
    // still loading (no failed run yet), and a cluster once ONLINE whose sidecar crashed later, are not a failed restore
    const loading = seedPod({ restartCount: 0, state: { running: { startedAt: '2026-07-01T10:01:00Z' } } });
    expect(mysqlOperatorAdapter.project(cr, kind, lookup(loading)).status!.reason).toBe('Restoring');
    const online = mysqlOperatorAdapter.project({ ...cr, status: { cluster: { status: 'ONLINE', onlineInstances: 3 } } }, kind, lookup(crashing)).status!;
    expect(online.phase).toBe('Ready');
  });
});
