import { describe, expect, it } from '@jest/globals';
import { ANNOTATION_RESTORED_BACKUP, type DatabaseBackup, type DatabaseInstance } from '@internal/plugin-databases-common';
import { cronJobRun, JOB_STATUS, JOB_TIMES } from '../__testUtils__/jobFixture';
import { emptyLookup, lookupOf } from '../__testUtils__/schemaDerivedFixtures';
import { assertFitsCrd } from '../__testUtils__/operatorFiles';
import type { KubeObject } from '../types';
import { mariadbOperatorAdapter } from './adapter';
import { MARIADB_BACKUP, mariadbBackups } from './backup';
import { mariadbRestore } from './restore';
import { SCHEDULED_RUN } from './scheduledRun';

/** A scheduled Backup as the upstream schema has it (k8s.mariadb.com_backups.yaml). */
const schedule = (spec: Record<string, unknown> = { schedule: { cron: '*/5 * * * *', suspend: false } }): KubeObject => ({
  apiVersion: 'k8s.mariadb.com/v1alpha1',
  kind: 'Backup',
  metadata: { name: 'orders-nightly', namespace: 'team-a', uid: 'b-1', resourceVersion: '40' },
  spec: {
    mariaDbRef: { name: 'orders-db' },
    storage: { s3: { bucket: 'backups', prefix: 'orders', endpoint: 's3.example:9000' } },
    inheritMetadata: { labels: { team: 'payments' } },
    ...spec,
  },
});

/** A run of the schedule's CronJob (cronJobRun: derived from getJobFromTemplate2 over BuildBackupCronJob's template). */
const run = (status: Record<string, unknown>, owner: Record<string, unknown> = {}): KubeObject =>
  cronJobRun({ name: 'orders-nightly-29442600', namespace: 'team-a', cronJob: 'orders-nightly', rv: '50', labels: { team: 'payments' } }, status, owner);

const served = (job: KubeObject, backups: KubeObject[] = [schedule()]) =>
  mariadbBackups.serves!(SCHEDULED_RUN.slim!(job), SCHEDULED_RUN, lookupOf(backups));
const project = (job: KubeObject, backup: KubeObject = schedule()) =>
  mariadbBackups.project(SCHEDULED_RUN.slim!(job), SCHEDULED_RUN, lookupOf([backup]));

describe('mariadb-operator scheduled runs (derived from the CronJob controller and BuildBackupCronJob)', () => {
  it('the scheduled Backup fits the upstream CRD', () => {
    assertFitsCrd('mariadb-operator', MARIADB_BACKUP, schedule());
  });

  it('serves a Job of the CronJob of a scheduled Backup, and only that', () => {
    expect(served(run(JOB_STATUS.running))).toBe(true);
    // no such Backup (yet), or a one-off one: not a run of a schedule
    expect(served(run(JOB_STATUS.running), [])).toBe(false);
    expect(served(run(JOB_STATUS.running), [schedule({})])).toBe(false);
    // a Job the CronJob does not control, or another kind's Job of that name
    expect(served(run(JOB_STATUS.running, { controller: false }))).toBe(false);
    expect(served(run(JOB_STATUS.running, { kind: 'Backup', apiVersion: 'k8s.mariadb.com/v1alpha1' }))).toBe(false);
  });

  it('asks for the Backup of its CronJob, and nothing for other Jobs', () => {
    expect(mariadbBackups.relatedRefs(run(JOB_STATUS.running), SCHEDULED_RUN)).toEqual([
      { type: MARIADB_BACKUP, namespace: 'team-a', name: 'orders-nightly' },
    ]);
    expect(mariadbBackups.relatedRefs(run(JOB_STATUS.running, { kind: 'Backup' }), SCHEDULED_RUN)).toEqual([]);
  });

  it.each([
    ['running', JOB_STATUS.running, { phase: 'Running', startTime: JOB_TIMES.start }],
    ['its pod not started', JOB_STATUS.podNotStarted, { phase: 'Pending', reason: 'PodNotStarted' }],
    ['complete', JOB_STATUS.complete, { phase: 'Succeeded', reason: 'JobComplete', completionTime: JOB_TIMES.end, restorable: true }],
    ['failed', JOB_STATUS.failed, { phase: 'Failed', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit', restorable: false }],
  ])('a run %s is decided by its Job', (_, status, expected) => {
    expect(project(run(status)).status).toMatchObject(expected);
  });

  it('is a DatabaseBackup of the Backup\'s MariaDB, named as its Job, with the Job\'s own labels', () => {
    const out = project(run(JOB_STATUS.complete));
    expect(out.metadata).toMatchObject({ name: 'orders-nightly-29442600', namespace: 'team-a', uid: 'job-orders-nightly-29442600', labels: { team: 'payments' } });
    expect(out.metadata.labels).toEqual({ team: 'payments' });
    expect(out.metadata.annotations).toEqual({ 'batch.kubernetes.io/cronjob-scheduled-timestamp': JOB_TIMES.start });
    expect(out.spec).toEqual({ instanceRef: { name: 'orders-db' } });
    expect(out.status).toMatchObject({
      engine: 'mariadb',
      location: 's3://backups/orders',
      source: { apiVersion: 'batch/v1', kind: 'Job', name: 'orders-nightly-29442600', operator: 'mariadb-operator' },
    });
  });

  it('keeps other Jobs small: no labels or annotations of a Job no CronJob controls', () => {
    const oneOff = run(JOB_STATUS.running, { kind: 'Backup', apiVersion: 'k8s.mariadb.com/v1alpha1' });
    const slim = SCHEDULED_RUN.slim!(oneOff);
    expect(slim.metadata?.labels).toBeUndefined();
    expect(slim.metadata?.annotations).toBeUndefined();
  });
});

describe('restoring a run of a schedule', () => {
  const instance: DatabaseInstance = {
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseInstance',
    metadata: { name: 'orders-copy', namespace: 'team-a' },
    spec: { engine: 'mariadb', topology: 'standalone', version: '11.4', replicas: 1, storage: { size: '10Gi' } },
  };
  const job = SCHEDULED_RUN.slim!(run(JOB_STATUS.complete));
  const backup = project(run(JOB_STATUS.complete)) as DatabaseBackup;

  it('restores the scheduled Backup at the run\'s completion, and reads the run back', () => {
    const object = mariadbRestore.apply(mariadbOperatorAdapter.write!.toOperatorObject(instance), { backup, backupObject: job });
    expect((object.spec as any).bootstrapFrom).toEqual({ backupRef: { name: 'orders-nightly' }, targetRecoveryTime: JOB_TIMES.end });
    expect(object.metadata?.annotations?.[ANNOTATION_RESTORED_BACKUP]).toBe('orders-nightly-29442600');
    assertFitsCrd('mariadb-operator', mariadbOperatorAdapter.kinds[0], { ...object, metadata: { ...object.metadata, namespace: 'team-a' } });
    expect(mariadbRestore.read(object)).toEqual({ backup: 'orders-nightly-29442600' });
    expect(mariadbRestore.validate({ backup, backupObject: job })).toEqual([]);
    // the projection does not serve the apiserver's record as an annotation
    const projected = mariadbOperatorAdapter.project({ ...object, metadata: { ...object.metadata, uid: 'm-1' } }, mariadbOperatorAdapter.kinds[0], emptyLookup);
    expect(projected.spec.restoreFrom).toEqual({ backup: 'orders-nightly-29442600' });
    expect(projected.metadata.annotations?.[ANNOTATION_RESTORED_BACKUP]).toBeUndefined();
  });

  it('refuses a Job that is no run of a schedule', () => {
    const other = SCHEDULED_RUN.slim!(run(JOB_STATUS.complete, { kind: 'Deployment', apiVersion: 'apps/v1' }));
    expect(mariadbRestore.validate({ backup, backupObject: other })).toEqual([
      expect.objectContaining({ field: 'spec.restoreFrom.backup', message: expect.stringContaining('is not a mariadb-operator Backup') }),
    ]);
  });
});
