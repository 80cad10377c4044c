import { describe, expect, it } from '@jest/globals';
import type { DatabaseBackupSchedule } from '@internal/plugin-databases-common';
import { crdStoreProblems } from '../__testUtils__/crdStoreProblems';
import { emptyLookup } from '../__testUtils__/schemaDerivedFixtures';
import { cronJobType } from '../shared/cronJobType';
import type { KubeObject, RelatedLookup } from '../types';
import { mysqlOperatorAdapter } from './adapter';
import { MYSQL_SCHEDULES, mysqlSchedules } from './schedule';

const clusterKind = mysqlOperatorAdapter.kinds[0];
const embedded = mysqlSchedules.embedded!;

/** Derived from mysql.oracle.com_innodbclusters.yaml: spec.backupSchedules[] entries beside backupProfiles. */
const cluster = (entries: Record<string, unknown>[] = []): KubeObject => ({
  apiVersion: 'mysql.oracle.com/v2',
  kind: 'InnoDBCluster',
  metadata: { name: 'payments-db', namespace: 'team-a', uid: 'c-uid', resourceVersion: '40', creationTimestamp: '2026-12-01T10:00:00Z' },
  spec: {
    instances: 3,
    secretName: 'payments-db-root',
    backupProfiles: [{ name: 'dump', dumpInstance: { storage: { persistentVolumeClaim: { claimName: 'dumps' } } } }, { name: 'to-s3', dumpInstance: { storage: { s3: { bucketName: 'b', config: 's3' } } } }],
    ...(entries.length && { backupSchedules: entries }),
  },
  status: { cluster: { status: 'ONLINE', onlineInstances: 3 } },
});
const expand = (c: KubeObject) => MYSQL_SCHEDULES.expand!(MYSQL_SCHEDULES.slim!(c));
const request = (name: string, spec: Partial<DatabaseBackupSchedule['spec']> = {}): DatabaseBackupSchedule => ({
  apiVersion: 'dbaas.platform.dev/v1alpha1',
  kind: 'DatabaseBackupSchedule',
  metadata: { name, namespace: 'team-a' },
  spec: { instanceRef: { name: 'payments-db' }, schedule: '0 3 * * *', ...spec },
});
/** The operator's CronJob for an entry (backup_objects.py), adopted by the cluster, as kube's controller leaves it. */
const cronJob = (status: Record<string, unknown>): KubeObject =>
  cronJobType.slim!({
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'payments-db-nightly-cb', namespace: 'team-a', ownerReferences: [{ apiVersion: 'mysql.oracle.com/v2', kind: 'InnoDBCluster', name: 'payments-db', uid: 'c-uid', controller: true }] },
    spec: { schedule: '0 3 * * *', suspend: false },
    status,
  });
const lookup = (cj: KubeObject): RelatedLookup => ({ get: ref => (ref.type.plural === 'cronjobs' && ref.name === 'payments-db-nightly-cb' ? cj : undefined) });

describe('mysql-operator schedules (derived: InnoDBCluster spec.backupSchedules[] from the CRD schema)', () => {
  it('serves one DatabaseBackupSchedule per entry, named <cluster>-<entry>, with a uid of its own', () => {
    const objects = expand(cluster([{ name: 'nightly', schedule: '0 3 * * *', backupProfileName: 'dump' }, { name: 'weekly', schedule: '0 4 * * 0', backupProfileName: 'to-s3', enabled: false }]));
    expect(objects.map(o => o.metadata?.name)).toEqual(['payments-db-nightly', 'payments-db-weekly']);
    expect(new Set(objects.map(o => o.metadata?.uid)).size).toBe(2);
    const [nightly, weekly] = objects.map(o => mysqlSchedules.project(o, MYSQL_SCHEDULES, emptyLookup));
    expect(nightly.spec).toEqual({ instanceRef: { name: 'payments-db' }, schedule: '0 3 * * *', suspend: false, method: 'dump' });
    expect(nightly.status).toMatchObject({ engine: 'mysql', reason: 'WaitingForOperator', source: { apiVersion: 'mysql.oracle.com/v2', kind: 'InnoDBCluster', name: 'payments-db', operator: 'mysql-operator' } });
    expect(weekly.status).toMatchObject({ reason: 'Suspended', message: 'spec.backupSchedules[name=weekly].enabled is false: no new runs start' });
    expect(weekly.status?.nextScheduleTime).toBeUndefined();
  });

  it('reads the last and next run from the operator\'s CronJob <cluster>-<entry>-cb (only one the cluster owns)', () => {
    const [nightly] = expand(cluster([{ name: 'nightly', schedule: '0 3 * * *', backupProfileName: 'dump' }]));
    const ran = mysqlSchedules.project(nightly, MYSQL_SCHEDULES, lookup(cronJob({ lastScheduleTime: '2026-12-05T03:00:00Z', lastSuccessfulTime: '2026-12-05T03:00:09Z' })));
    expect(ran.status).toMatchObject({ reason: 'Scheduled', lastScheduleTime: '2026-12-05T03:00:00Z', nextScheduleTime: '2026-12-06T03:00:00Z' });
    // the CronJob's success is only that the MySQLBackup was made: the run's own DatabaseBackup tells
    expect(ran.status?.lastSuccessfulTime).toBeUndefined();
    const running = mysqlSchedules.project(nightly, MYSQL_SCHEDULES, lookup(cronJob({ lastScheduleTime: '2026-12-05T03:00:00Z', active: [{ name: 'payments-db-nightly-cb-29421000' }] })));
    expect(running.status?.reason).toBe('Running');
    const foreign = cronJobType.slim!({ ...cronJob({ lastScheduleTime: '2026-12-05T03:00:00Z' }), metadata: { name: 'payments-db-nightly-cb', namespace: 'team-a' } });
    expect(mysqlSchedules.project(nightly, MYSQL_SCHEDULES, lookup(foreign)).status?.reason).toBe('WaitingForOperator');
  });

  it('refuses retention, a profile the cluster lacks, and a name not of the cluster; names every field', () => {
    const target = cluster();
    expect(mysqlSchedules.validate(request('payments-db-x', { retention: '7d', method: 'nope' }).spec, target).map(c => `${c.field} ${c.reason}`)).toEqual([
      'spec.retention FieldValueForbidden',
      'spec.method FieldValueNotSupported',
    ]);
    expect(embedded.entryName('payments-db-nightly', target)).toEqual({ entry: 'nightly' });
    expect(embedded.entryName('nightly', target)).toMatchObject({ cause: { field: 'metadata.name', reason: 'FieldValueInvalid' } });
    expect(embedded.entryName('payments-db-', target)).toMatchObject({ cause: { field: 'metadata.name' } });
  });

  it('writes an entry into the cluster\'s list, changes it in place and removes it; the cluster still fits the upstream CRD', () => {
    const target = cluster([{ name: 'weekly', schedule: '0 4 * * 0', backupProfileName: 'to-s3', deleteBackupData: true }]);
    const made = mysqlSchedules.toOperatorObject(request('payments-db-nightly'), target);
    const added = embedded.specPatch(target, 'payments-db-nightly', made);
    expect(added).toEqual({
      backupSchedules: [
        { name: 'weekly', schedule: '0 4 * * 0', backupProfileName: 'to-s3', deleteBackupData: true },
        { name: 'nightly', schedule: '0 3 * * *', backupProfileName: 'dump', enabled: true, timeZone: 'Etc/UTC' },
      ],
    });
    const withBoth: KubeObject = { ...target, spec: { ...(target.spec as object), ...added } };
    expect(crdStoreProblems('mysql-operator', clusterKind, withBoth)).toEqual([]);
    // an update keeps what the API does not speak of (deleteBackupData) and the entry's place
    const [weekly] = expand(withBoth);
    const changed = mysqlSchedules.applyUpdate(weekly, { instanceRef: { name: 'payments-db' }, schedule: '0 5 * * 0', suspend: true });
    expect(embedded.specPatch(withBoth, 'payments-db-weekly', changed).backupSchedules).toEqual([
      { name: 'weekly', schedule: '0 5 * * 0', backupProfileName: 'to-s3', deleteBackupData: true, enabled: false, timeZone: 'Etc/UTC' },
      (added.backupSchedules as unknown[])[1],
    ]);
    expect(embedded.specPatch(withBoth, 'payments-db-weekly', undefined)).toEqual({ backupSchedules: [(added.backupSchedules as unknown[])[1]] });
    expect(embedded.specPatch(target, 'payments-db-weekly', undefined)).toEqual({ backupSchedules: null });
  });
});
