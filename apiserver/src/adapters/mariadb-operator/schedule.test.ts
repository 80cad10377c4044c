import { describe, expect, it } from '@jest/globals';
import { LABEL_MANAGED_BY, type DatabaseBackupSchedule } from '@internal/plugin-databases-common';
import { crdStoreProblems } from '../__testUtils__/crdStoreProblems';
import { assertFitsCrd, readSample } from '../__testUtils__/operatorFiles';
import { emptyLookup, lookupOf } from '../__testUtils__/schemaDerivedFixtures';
import type { KubeObject } from '../types';
import { mariadbBackups } from './backup';
import { MARIADB_BACKUP } from './backupObject';
import { cronJobType } from '../shared/cronJobType';
import { mariadbSchedules } from './schedule';

const T = '2026-07-01T10:02:30Z';
const complete = (status: 'True' | 'False', reason: string, message: string) => ({
  conditions: [{ type: 'Complete', status, reason, message, lastTransitionTime: T }],
});

/** A scheduled Backup as the upstream schema has it (k8s.mariadb.com_backups.yaml). */
function scheduled(status?: Record<string, unknown>, schedule: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'k8s.mariadb.com/v1alpha1',
    kind: 'Backup',
    metadata: { name: 'orders-db-nightly', namespace: 'team-a', uid: 'b-1', creationTimestamp: '2026-07-01T09:59:59Z', resourceVersion: '42' },
    spec: {
      mariaDbRef: { name: 'orders-db', waitForIt: true },
      schedule: { cron: '0 3 * * *', suspend: false, ...schedule },
      timeZone: 'UTC',
      maxRetention: '720h',
      storage: { persistentVolumeClaim: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } } } },
    },
    ...(status && { status }),
  };
}

/** The CronJob BuildBackupCronJob makes for it (pkg/builder/batch_builder.go), with a status. */
function cronJob(owner: KubeObject, status: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: {
      name: owner.metadata?.name,
      namespace: owner.metadata?.namespace,
      uid: 'cj-1',
      resourceVersion: '9',
      ownerReferences: [{ apiVersion: owner.apiVersion, kind: 'Backup', name: owner.metadata?.name, uid: owner.metadata?.uid, controller: true }],
    },
    spec: { schedule: '0 3 * * *', suspend: false, concurrencyPolicy: 'Forbid', jobTemplate: { spec: {} } },
    status,
  };
}

const project = (source: KubeObject, related: KubeObject[] = []) =>
  mariadbSchedules.project(source, MARIADB_BACKUP, related.length ? lookupOf(related) : emptyLookup);

describe('mariadb-operator schedules: a Backup with spec.schedule', () => {
  it('samples/backup_scheduled.yaml fits the CRD and is a schedule waiting for its CronJob', () => {
    const sample = { ...readSample('mariadb-operator', 'backup_scheduled.yaml', 'Backup') };
    sample.metadata = { ...sample.metadata, namespace: 'fixtures', creationTimestamp: '2026-07-01T09:59:59Z' };
    assertFitsCrd('mariadb-operator', MARIADB_BACKUP, sample);
    expect(mariadbSchedules.serves!(sample, MARIADB_BACKUP, { get: () => undefined })).toBe(true);
    expect(mariadbBackups.serves!(sample, MARIADB_BACKUP, { get: () => undefined })).toBe(false);
    const out = project(sample);
    expect(out.spec).toEqual({ instanceRef: { name: 'mariadb' }, schedule: '*/1 * * * *', suspend: false, retention: '720h' });
    expect(out.status).toMatchObject({
      engine: 'mariadb',
      reason: 'WaitingForOperator',
      nextScheduleTime: '2026-07-01T10:00:00Z',
      source: { apiVersion: 'k8s.mariadb.com/v1alpha1', kind: 'Backup', name: 'backup', operator: 'mariadb-operator' },
    });
  });

  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>, Record<string, unknown>]> = [
    ['never run', complete('False', 'CronJobScheduled', 'Scheduled'), {}, { reason: 'Scheduled', nextScheduleTime: '2026-07-02T03:00:00Z' }],
    [
      'a run active',
      complete('False', 'CronJobRunning', 'Running'),
      { active: [{ name: 'orders-db-nightly-29712345' }], lastScheduleTime: '2026-07-02T03:00:00Z', lastSuccessfulTime: '2026-07-01T03:01:10Z' },
      { reason: 'Running', lastScheduleTime: '2026-07-02T03:00:00Z', nextScheduleTime: '2026-07-03T03:00:00Z' },
    ],
    [
      'the last run succeeded',
      complete('True', 'CronJobSuccess', 'Success'),
      { lastScheduleTime: '2026-07-02T03:00:00Z', lastSuccessfulTime: '2026-07-02T03:01:10Z' },
      { reason: 'LastRunSucceeded', lastSuccessfulTime: '2026-07-02T03:01:10Z', message: 'Success' },
    ],
    [
      // as v26 writes it: ConditionReasonCronJobFailed is declared "CronJobScheduled", the message says Failed
      'the last run failed: the operator\'s "Failed" condition dates it',
      complete('False', 'CronJobScheduled', 'Failed'),
      { lastScheduleTime: '2026-07-02T03:00:00Z', lastSuccessfulTime: '2026-07-01T03:01:10Z' },
      { reason: 'LastRunFailed', lastFailedTime: T, lastSuccessfulTime: '2026-07-01T03:01:10Z' },
    ],
    [
      'the last run failed, with a CronJobFailed reason should upstream give it its own value',
      complete('False', 'CronJobFailed', 'Failed'),
      { lastScheduleTime: '2026-07-02T03:00:00Z', lastSuccessfulTime: '2026-07-01T03:01:10Z' },
      { reason: 'LastRunFailed', lastFailedTime: T },
    ],
    [
      // the trap: SetCompleteWithCronJob says CronJobScheduled while there is no success at all
      'the first run failed although the operator says Scheduled',
      complete('False', 'CronJobScheduled', 'Scheduled'),
      { lastScheduleTime: '2026-07-02T03:00:00Z' },
      { reason: 'LastRunFailed' },
    ],
  ];
  it.each(cases)('%s', (_name, status, cronStatus, expected) => {
    const source = scheduled(status);
    assertFitsCrd('mariadb-operator', MARIADB_BACKUP, source);
    const out = project(source, [cronJob(source, cronStatus)]);
    expect(out.status).toMatchObject(expected);
    expect(out.status?.conditions?.[0]).toMatchObject({ type: 'Complete', reason: (status.conditions as any)[0].reason });
    // the cache keeps CronJobs slim: nothing served is lost
    expect(project(source, [cronJobType.slim!(cronJob(source, cronStatus))])).toEqual(out);
  });

  it('suspended: no next run, reason Suspended', () => {
    const out = project(scheduled(complete('False', 'CronJobScheduled', 'Scheduled'), { suspend: true }), []);
    expect(out.spec.suspend).toBe(true);
    expect(out.status?.nextScheduleTime).toBeUndefined();
    expect(out.status?.reason).toBe('Suspended');
  });

  it('MariaDB not ready: the operator\'s words, NotStarted', () => {
    expect(project(scheduled(complete('False', 'Failed', 'MariaDB not ready'))).status).toMatchObject({ reason: 'NotStarted', message: 'MariaDB not ready' });
  });

  it('a zone other than UTC: no next run computed', () => {
    const source = scheduled();
    (source.spec as any).timeZone = 'Europe/Berlin';
    expect(project(source).status?.nextScheduleTime).toBeUndefined();
  });

  it("a CronJob of the name that is not the Backup's is not its series", () => {
    const source = scheduled();
    const other = cronJob(source, { lastScheduleTime: '2026-07-02T03:00:00Z' });
    other.metadata!.ownerReferences = [];
    expect(project(source, [other]).status?.lastScheduleTime).toBeUndefined();
  });

  it('relatedRefs: its CronJob, by name', () => {
    expect(mariadbSchedules.relatedRefs(scheduled(), MARIADB_BACKUP)).toEqual([{ type: cronJobType, namespace: 'team-a', name: 'orders-db-nightly' }]);
  });
});

describe('mariadb-operator schedules: writes', () => {
  const target: KubeObject = {
    apiVersion: 'k8s.mariadb.com/v1alpha1',
    kind: 'MariaDB',
    metadata: { name: 'orders-db', namespace: 'team-a' },
    spec: { replicas: 3, storage: { size: '20Gi' } },
  };
  const request = (spec: Partial<DatabaseBackupSchedule['spec']> = {}): DatabaseBackupSchedule => ({
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseBackupSchedule',
    metadata: { name: 'orders-db-nightly', namespace: 'team-a' },
    spec: { instanceRef: { name: 'orders-db' }, schedule: '*/1 * * * *', ...spec },
  });

  it('validate: no method, retention a maximum age', () => {
    expect(mariadbSchedules.validate(request({ retention: '30d' }).spec, target)).toEqual([]);
    expect(mariadbSchedules.validate(request({ method: 'physical', retention: 'forever' }).spec, target).map(c => c.field)).toEqual([
      'spec.method',
      'spec.retention',
    ]);
  });

  it('toOperatorObject: a scheduled Backup (cron as given, UTC, days as hours) the upstream CRD stores as sent', () => {
    const object = mariadbSchedules.toOperatorObject(request({ retention: '30d', suspend: true }), target, { requestedBy: 'alice' });
    expect(object.spec).toMatchObject({
      mariaDbRef: { name: 'orders-db' },
      schedule: { cron: '*/1 * * * *', suspend: true },
      timeZone: 'UTC',
      maxRetention: '720h',
    });
    expect(object.metadata?.labels?.[LABEL_MANAGED_BY]).toBeDefined();
    expect(crdStoreProblems('mariadb-operator', MARIADB_BACKUP, object)).toEqual([]);
    // and reads back as what was asked (retention as the operator keeps it)
    const back = project({ ...object, metadata: { ...object.metadata, uid: 'u', creationTimestamp: T } });
    expect(back.spec).toEqual({ instanceRef: { name: 'orders-db' }, schedule: '*/1 * * * *', suspend: true, retention: '720h' });
  });

  it('applyUpdate: cron, suspend and retention change, the rest is kept; no retention is the default', () => {
    const current = scheduled();
    const updated = mariadbSchedules.applyUpdate(current, { instanceRef: { name: 'orders-db' }, schedule: '*/5 * * * *', suspend: true });
    expect(updated.spec).toEqual({ ...(current.spec as object), schedule: { cron: '*/5 * * * *', suspend: true }, maxRetention: undefined });
    expect((updated.spec as any).maxRetention).toBeUndefined();
    expect(crdStoreProblems('mariadb-operator', MARIADB_BACKUP, updated)).toEqual([]);
  });
});
