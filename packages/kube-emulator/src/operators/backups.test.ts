import { describe, expect, it } from '@jest/globals';
import { CRONJOBS, FAIL_BACKUP_ANNOTATION, JOBS } from './BackupEmulator';
import { OperatorEmulator } from './OperatorEmulator';
import { CNPG_BACKUP_KIND, CNPG_SCHEDULED_BACKUP_KIND } from './cloudnative-pg/backups';
import { CNPG_CLUSTER_KIND } from './cloudnative-pg/cloudnativePgOperator';
import { MARIADB_BACKUP_KIND } from './mariadb-operator/backups';
import { MARIADB_KIND } from './mariadb-operator/mariadbOperator';
import { MYSQLBACKUP_KIND } from './mysql-operator/backups';
import { INNODBCLUSTER_KIND } from './mysql-operator/mysqlOperator';
import { fakeCluster } from './__testutils__/fakeCluster';
import { condition, harness, NS, shape } from './__testutils__/harness';
import { upstreamErrors } from './__testutils__/upstream';
import type { CustomKind } from './types';

const MARIADB = { image: 'mariadb:11.4.2', replicas: 1, storage: { size: '1Gi' } };
const STORAGE = { persistentVolumeClaim: { resources: { requests: { storage: '1Gi' } } } };

function withBackup(kind: CustomKind, name: string, spec: Record<string, unknown>, fail?: string) {
  const h = harness();
  const create = () =>
    h.store.create(kind, {
      apiVersion: `${kind.group}/${kind.version}`,
      kind: kind.kind,
      metadata: { name, namespace: NS, ...(fail && { annotations: { [FAIL_BACKUP_ANNOTATION]: fail } }) },
      spec,
    });
  return { h, create, job: (n: string) => h.store.get(JOBS, NS, n) };
}

describe('mariadb-operator Backup', () => {
  it('waits for its MariaDB, runs a Job named as the Backup and owned by it, and ends Complete=True JobComplete', () => {
    const { h, create, job } = withBackup(MARIADB_BACKUP_KIND, 'nightly', { mariaDbRef: { name: 'db' }, storage: STORAGE });
    h.create(MARIADB_KIND, 'db', MARIADB);
    const backup = create();
    h.emulator.tick();
    expect(shape(condition(h.get(MARIADB_BACKUP_KIND, 'nightly').status, 'Complete'))).toEqual({
      type: 'Complete', status: 'False', reason: 'Failed', message: 'MariaDB not ready',
    });
    h.emulator.settle();
    const j = job('nightly')!;
    expect(j.metadata.labels).toBeUndefined();
    expect(j.metadata.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'Backup', name: 'nightly', uid: backup.metadata.uid, controller: true }),
    ]);
    expect((j.status as any).conditions.map((c: any) => `${c.type}=${c.status}/${c.reason}`)).toEqual([
      'SuccessCriteriaMet=True/CompletionsReached', 'Complete=True/CompletionsReached',
    ]);
    expect((j.status as any)).toMatchObject({ succeeded: 1, completionTime: expect.any(String) });
    const reasons = h.statuses(MARIADB_BACKUP_KIND, 'nightly').map(s => condition(s, 'Complete').reason);
    expect(reasons).toEqual(['Failed', 'JobRunning', 'JobComplete']);
    expect(shape(condition(h.get(MARIADB_BACKUP_KIND, 'nightly').status, 'Complete'))).toMatchObject({ status: 'True', message: 'Success' });
    expect(h.upstreamStatusErrors(MARIADB_BACKUP_KIND)).toEqual([]);
  });

  it('reports a failed Job as Complete=True with reason JobFailed, as upstream does (the trap)', () => {
    const { h, create, job } = withBackup(MARIADB_BACKUP_KIND, 'doomed', { mariaDbRef: { name: 'db' }, storage: STORAGE }, 'true');
    h.create(MARIADB_KIND, 'db', MARIADB);
    create();
    h.emulator.settle();
    expect(job('doomed')!.status).toMatchObject({ failed: 1, conditions: [{ type: 'FailureTarget' }, { type: 'Failed', reason: 'BackoffLimitExceeded' }] });
    expect(shape(condition(h.get(MARIADB_BACKUP_KIND, 'doomed').status, 'Complete'))).toEqual({
      type: 'Complete', status: 'True', reason: 'JobFailed', message: 'Failed',
    });
    expect(h.upstreamStatusErrors(MARIADB_BACKUP_KIND)).toEqual([]);
  });

  it('runs a scheduled Backup as a CronJob that starts a Job when the cron comes', () => {
    const store = fakeCluster();
    store.create({ group: '', version: 'v1', plural: 'namespaces' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    let clock = Date.parse('2025-01-01T00:00:10Z');
    const emulator = new OperatorEmulator({ store, now: () => new Date(clock) });
    store.create(MARIADB_KIND, { apiVersion: 'k8s.mariadb.com/v1alpha1', kind: 'MariaDB', metadata: { name: 'db', namespace: NS }, spec: MARIADB });
    emulator.settle();
    store.create(MARIADB_BACKUP_KIND, {
      apiVersion: 'k8s.mariadb.com/v1alpha1',
      kind: 'Backup',
      metadata: { name: 'every-minute', namespace: NS, creationTimestamp: '2025-01-01T00:00:10Z' },
      spec: { mariaDbRef: { name: 'db' }, storage: STORAGE, schedule: { cron: '*/1 * * * *' } },
    });
    emulator.settle();
    const cj = store.get(CRONJOBS, NS, 'every-minute')!;
    expect(cj.spec).toMatchObject({ schedule: '*/1 * * * *', concurrencyPolicy: 'Forbid', suspend: false });
    expect(shape(condition(store.get(MARIADB_BACKUP_KIND, NS, 'every-minute')!.status, 'Complete')).reason).toBe('CronJobScheduled');
    // the store stamps creationTimestamp with the wall clock: the next minute after it fires
    const minute = (Math.floor(Date.parse(cj.metadata.creationTimestamp!) / 60000) + 1) * 60000;
    const firedAt = `${new Date(minute).toISOString().slice(0, 19)}Z`;
    clock = minute + 5000;
    emulator.settle();
    const fired = store.list(JOBS, NS).filter(j => j.metadata.name.startsWith('every-minute-'));
    expect(fired.map(j => j.metadata.name)).toEqual([`every-minute-${minute / 60000}`]);
    expect(fired[0].metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp']).toBe(firedAt);
    expect(store.get(CRONJOBS, NS, 'every-minute')!.status).toMatchObject({
      lastScheduleTime: firedAt,
      lastSuccessfulTime: expect.any(String),
    });
    expect(shape(condition(store.get(MARIADB_BACKUP_KIND, NS, 'every-minute')!.status, 'Complete'))).toMatchObject({
      status: 'True', reason: 'CronJobSuccess',
    });
  });
});

describe('mysql-operator MySQLBackup', () => {
  const cluster = {
    secretName: 'root',
    instances: 1,
    backupProfiles: [{ name: 'dump', dumpInstance: { storage: { persistentVolumeClaim: { claimName: 'backups' } } } }],
  };

  it('keeps a CronJob <cluster>-<schedule>-cb per spec.backupSchedules entry; each firing creates a MySQLBackup <cluster>-<schedule><yymmddhhmmss> that runs; a disabled entry suspends it, a removed one deletes it', () => {
    const store = fakeCluster();
    store.create({ group: '', version: 'v1', plural: 'namespaces' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    let clock = Date.parse('2025-01-01T00:00:10Z');
    const emulator = new OperatorEmulator({ store, now: () => new Date(clock) });
    const db = store.create(INNODBCLUSTER_KIND, {
      apiVersion: 'mysql.oracle.com/v2',
      kind: 'InnoDBCluster',
      metadata: { name: 'db', namespace: NS },
      spec: { ...cluster, backupSchedules: [{ name: 'minutely', schedule: '* * * * *', backupProfileName: 'dump', enabled: true }] },
    });
    emulator.settle();
    const cj = store.get(CRONJOBS, NS, 'db-minutely-cb')!;
    expect(cj.spec).toMatchObject({ schedule: '* * * * *', suspend: false, concurrencyPolicy: 'Forbid' });
    expect(cj.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'InnoDBCluster', name: 'db', uid: db.metadata.uid, controller: true })]);
    const minute = (Math.floor(Date.parse(cj.metadata.creationTimestamp!) / 60000) + 1) * 60000;
    clock = minute + 5000;
    emulator.settle();
    const stamp = new Date(minute).toISOString().replace(/[-:TZ]/g, '').slice(2, 14);
    const made = store.get(MYSQLBACKUP_KIND, NS, `db-minutely${stamp}`)!;
    expect(made.spec).toEqual({ clusterName: 'db', backupProfileName: 'dump', addTimestampToBackupDirectory: false });
    expect((made.status as any)?.status).toBe('Completed');
    expect(upstreamErrors(made, MYSQLBACKUP_KIND, 'object')).toEqual([]);
    const entries = (enabled: boolean) => [{ name: 'minutely', schedule: '* * * * *', backupProfileName: 'dump', enabled }];
    store.update(INNODBCLUSTER_KIND, { ...store.get(INNODBCLUSTER_KIND, NS, 'db')!, spec: { ...cluster, backupSchedules: entries(false) } });
    emulator.settle();
    expect(store.get(CRONJOBS, NS, 'db-minutely-cb')!.spec).toMatchObject({ suspend: true });
    store.update(INNODBCLUSTER_KIND, { ...store.get(INNODBCLUSTER_KIND, NS, 'db')!, spec: cluster });
    emulator.settle();
    expect(store.get(CRONJOBS, NS, 'db-minutely-cb')).toBeUndefined();
    // the runs taken stay
    expect(store.get(MYSQLBACKUP_KIND, NS, `db-minutely${stamp}`)).toBeDefined();
  });

  it('runs the Job the operator names <backup>-<timestamp>, and the pod writes Running then Completed', () => {
    const { h, create, job } = withBackup(MYSQLBACKUP_KIND, 'first', { clusterName: 'db', backupProfileName: 'dump' });
    h.create(INNODBCLUSTER_KIND, 'db', cluster);
    const backup = create();
    h.emulator.settle();
    const name = `first-${backup.metadata.creationTimestamp!.replace(/[-:]/g, '').replace('T', '-').slice(0, 15)}`;
    const j = job(name)!;
    expect(j.metadata.labels).toMatchObject({
      'mysql.oracle.com/cluster': 'first',
      'app.kubernetes.io/name': 'mysql-innodbcluster-backup-task',
      'app.kubernetes.io/instance': 'idc-first',
    });
    expect(h.statuses(MYSQLBACKUP_KIND, 'first').map(s => s.status)).toEqual(['Running', 'Completed']);
    expect(h.get(MYSQLBACKUP_KIND, 'first').status).toMatchObject({
      output: name,
      method: 'dump-instance/volume',
      elapsedTime: expect.stringMatching(/^\d\d:\d\d:\d\d$/),
      source: expect.stringContaining('mysqlbackup@db-0.db-instances'),
    });
    expect(h.upstreamStatusErrors(MYSQLBACKUP_KIND)).toEqual([]);
  });

  it('writes Error with the operator words when the run fails, and nothing while the pod never starts', () => {
    const { h, create } = withBackup(MYSQLBACKUP_KIND, 'bad', { clusterName: 'db', backupProfileName: 'dump' }, 'true');
    h.create(INNODBCLUSTER_KIND, 'db', cluster);
    create();
    h.store.create(MYSQLBACKUP_KIND, {
      apiVersion: 'mysql.oracle.com/v2', kind: 'MySQLBackup',
      metadata: { name: 'stuck', namespace: NS, annotations: { [FAIL_BACKUP_ANNOTATION]: 'pending' } },
      spec: { clusterName: 'db', backupProfileName: 'dump' },
    });
    h.emulator.settle();
    expect(h.get(MYSQLBACKUP_KIND, 'bad').status).toMatchObject({
      status: 'Error', message: 'No instances available to backup from in cluster db',
    });
    expect(h.get(MYSQLBACKUP_KIND, 'stuck').status).toBeUndefined();
    expect(h.upstreamStatusErrors(MYSQLBACKUP_KIND)).toEqual([]);
  });
});

describe('CloudNativePG Backup and ScheduledBackup', () => {
  const configured = {
    instances: 2,
    storage: { size: '1Gi' },
    backup: { barmanObjectStore: { destinationPath: 's3://bucket/pg' } },
  };

  it('goes pending → started → running → completed with the fields the operator writes', () => {
    const h = harness();
    h.create(CNPG_CLUSTER_KIND, 'pg', configured);
    h.emulator.settle();
    h.create(CNPG_BACKUP_KIND, 'b1', { cluster: { name: 'pg' }, method: 'barmanObjectStore' });
    h.emulator.settle();
    expect(h.statuses(CNPG_BACKUP_KIND, 'b1').map(s => s.phase)).toEqual(['started', 'running', 'completed']);
    expect(h.get(CNPG_BACKUP_KIND, 'b1').status).toMatchObject({
      method: 'barmanObjectStore',
      instanceID: { podName: 'pg-2', ContainerID: expect.any(String) },
      destinationPath: 's3://bucket/pg',
      serverName: 'pg',
      backupId: expect.stringMatching(/^\d{8}T\d{6}$/),
      startedAt: expect.any(String),
      stoppedAt: expect.any(String),
    });
    expect(h.upstreamStatusErrors(CNPG_BACKUP_KIND)).toEqual([]);
  });

  it('refuses a Backup of a Cluster without a backup section, in the operator words', () => {
    const h = harness();
    h.create(CNPG_CLUSTER_KIND, 'plain', { instances: 1, storage: { size: '1Gi' } });
    h.create(CNPG_BACKUP_KIND, 'b', { cluster: { name: 'plain' }, method: 'barmanObjectStore' });
    h.emulator.settle();
    expect(h.get(CNPG_BACKUP_KIND, 'b').status).toEqual({
      phase: 'failed', error: 'cannot proceed with the backup as the cluster has no backup section',
    });
    expect(h.upstreamStatusErrors(CNPG_BACKUP_KIND)).toEqual([]);
  });

  it('fails a run with the fail switch', () => {
    const h = harness();
    h.create(CNPG_CLUSTER_KIND, 'pg', configured);
    h.emulator.settle();
    h.create(CNPG_BACKUP_KIND, 'b', { cluster: { name: 'pg' } });
    h.emulator.backups.failBackup({ group: 'postgresql.cnpg.io', kind: 'Backup', namespace: NS, name: 'b' });
    h.emulator.settle();
    expect(h.get(CNPG_BACKUP_KIND, 'b').status).toMatchObject({ phase: 'failed', error: 'exit status 4' });
  });

  it('makes a Backup <schedule>-<timestamp> when a 6-field cron fires', () => {
    const store = fakeCluster();
    store.create({ group: '', version: 'v1', plural: 'namespaces' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    let clock = Date.parse('2025-01-01T00:00:10Z');
    const emulator = new OperatorEmulator({ store, now: () => new Date(clock) });
    store.create(CNPG_CLUSTER_KIND, { apiVersion: 'postgresql.cnpg.io/v1', kind: 'Cluster', metadata: { name: 'pg', namespace: NS }, spec: configured });
    emulator.settle();
    store.create(CNPG_SCHEDULED_BACKUP_KIND, {
      apiVersion: 'postgresql.cnpg.io/v1', kind: 'ScheduledBackup',
      metadata: { name: 'minutely', namespace: NS },
      spec: { schedule: '0 * * * * *', cluster: { name: 'pg' }, backupOwnerReference: 'self' },
    });
    emulator.settle();
    expect(store.get(CNPG_SCHEDULED_BACKUP_KIND, NS, 'minutely')!.status).toEqual({
      lastCheckTime: '2025-01-01T00:00:10Z', nextScheduleTime: '2025-01-01T00:01:00Z',
    });
    clock = Date.parse('2025-01-01T00:01:02Z');
    emulator.settle();
    const made = store.get(CNPG_BACKUP_KIND, NS, 'minutely-20250101000100')!;
    expect(made.metadata.labels).toEqual({ 'cnpg.io/immediateBackup': 'false', 'cnpg.io/scheduled-backup': 'minutely' });
    expect((made.status as any).phase).toBe('completed');
    const sb = store.get(CNPG_SCHEDULED_BACKUP_KIND, NS, 'minutely')!;
    expect(sb.status).toEqual({
      lastCheckTime: '2025-01-01T00:01:02Z', lastScheduleTime: '2025-01-01T00:01:00Z', nextScheduleTime: '2025-01-01T00:02:00Z',
    });
    expect(upstreamErrors(sb, CNPG_SCHEDULED_BACKUP_KIND, 'status')).toEqual([]);
  });
});
