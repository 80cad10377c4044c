import { describe, expect, it } from '@jest/globals';
import type { DatabaseBackup } from '@internal/plugin-databases-common';
import { crdStoreProblems } from '../__testUtils__/crdStoreProblems';
import { JOB_STATUS, JOB_TIMES, jobFixture } from '../__testUtils__/jobFixture';
import { assertFitsCrd, readSample } from '../__testUtils__/operatorFiles';
import { emptyLookup, lookupOf } from '../__testUtils__/schemaDerivedFixtures';
import type { KubeObject } from '../types';
import { mysqlOperatorAdapter } from './adapter';
import { mysqlSchedules } from './schedule';
import { MYSQL_BACKUP, mysqlBackups } from './backup';

// ../shared/operators/mysql-operator/status is empty on purpose (no real MySQLBackup status
// exists in YAML): every run below is derived from the CRD's status schema and the fields
// backup_api.py set_started / set_succeeded / set_failed write.
const START = '2026-07-01T10:00:05Z';
const END = '2026-07-01T10:03:00Z';
const RUNNING = { status: 'Running', startTime: START, output: 'payments-db-now' };
const COMPLETED_VOLUME = {
  status: 'Completed',
  startTime: START,
  completionTime: END,
  elapsedTime: '00:02:55',
  output: 'payments-db-now',
  method: 'dump-instance/volume',
  source: 'mysqlbackup@payments-db-1.payments-db-instances.team-a.svc.cluster.local:3306',
  spaceAvailable: '9.21G',
  size: '0.0123G',
};
const COMPLETED_OCI = {
  status: 'Completed',
  startTime: START,
  completionTime: END,
  elapsedTime: '00:02:55',
  output: 'payments-db-now',
  method: 'dump-instance/oci-bucket',
  source: 'mysqlbackup@payments-db-1.payments-db-instances.team-a.svc.cluster.local:3306',
  bucket: 'backups',
  ociTenancy: 'ocid1.tenancy.oc1..example',
};
const ERROR = { status: 'Error', startTime: START, completionTime: END, elapsedTime: '00:02:55', message: 'No instances available to backup from in cluster payments-db', output: 'payments-db-now' };

function mysqlBackup(status?: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'mysql.oracle.com/v2',
    kind: 'MySQLBackup',
    metadata: { name: 'payments-db-now', namespace: 'team-a', uid: 'mb-1', creationTimestamp: '2026-07-01T10:00:00Z' },
    spec: { clusterName: 'payments-db', backupProfileName: 'dump-to-volume' },
    ...(status && { status }),
  };
}

const project = (source: KubeObject, related: KubeObject[] = []) =>
  mysqlBackups.project(source, MYSQL_BACKUP, related.length ? lookupOf(related) : emptyLookup);
const job = (status: Record<string, unknown>) => jobFixture(mysqlBackup(), status);

describe('mysql-operator backups: derived-from-schema runs', () => {
  const cases: Array<[string, KubeObject, KubeObject[], Record<string, unknown>]> = [
    ['empty status and no Job yet: Pending', mysqlBackup(), [], { phase: 'Pending', reason: 'WaitingForJob' }],
    ['the trap: empty status, the Job\'s pod never started: Pending', mysqlBackup(), [job(JOB_STATUS.podNotStarted)], { phase: 'Pending', reason: 'PodNotStarted', startTime: JOB_TIMES.start }],
    [
      'the trap: empty status and the Job failed: Failed',
      mysqlBackup(),
      [job(JOB_STATUS.failed)],
      { phase: 'Failed', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit', completionTime: JOB_TIMES.end, restorable: false },
    ],
    ['empty status, the pod running (before set_started): Running', mysqlBackup(), [job(JOB_STATUS.running)], { phase: 'Running', reason: 'JobRunning' }],
    ['Running, its Job running: Running', mysqlBackup(RUNNING), [job(JOB_STATUS.running)], { phase: 'Running', reason: 'Running', startTime: START }],
    ['Running, no Job in the cache: Running as written', mysqlBackup(RUNNING), [], { phase: 'Running' }],
    [
      'Running forever after the pod was killed (Job failed): Failed',
      mysqlBackup(RUNNING),
      [job(JOB_STATUS.failed)],
      { phase: 'Failed', reason: 'BackoffLimitExceeded', startTime: START, completionTime: JOB_TIMES.end },
    ],
    ['Running but the Job completed: Unknown (no end recorded)', mysqlBackup(RUNNING), [job(JOB_STATUS.complete)], { phase: 'Unknown', reason: 'StatusNotRecorded' }],
    [
      'Completed to a volume: Succeeded, with size',
      mysqlBackup(COMPLETED_VOLUME),
      [job(JOB_STATUS.complete)],
      { phase: 'Succeeded', reason: 'Completed', size: '0.0123G', location: 'payments-db-now', startTime: START, completionTime: END, restorable: true },
    ],
    ['Completed to an OCI bucket: the bucket and folder', mysqlBackup(COMPLETED_OCI), [], { phase: 'Succeeded', location: 'backups/payments-db-now' }],
    [
      'Error although the Job completed (the process exits 0 after a failure): Failed, the message verbatim',
      mysqlBackup(ERROR),
      [job(JOB_STATUS.complete)],
      { phase: 'Failed', reason: 'BackupError', message: 'No instances available to backup from in cluster payments-db', restorable: false },
    ],
    ['a status value this adapter does not know: Unknown', mysqlBackup({ status: 'Paused' }), [], { phase: 'Unknown', reason: 'Paused' }],
  ];

  it.each(cases)('%s', (_name, source, related, expected) => {
    assertFitsCrd('mysql-operator', MYSQL_BACKUP, source);
    const out = project(source, related);
    expect(out.status).toMatchObject({ engine: 'mysql', ...expected });
    expect(out.spec).toEqual({ instanceRef: { name: 'payments-db' }, method: 'dump-to-volume' });
    expect(out.status?.source).toEqual({ apiVersion: 'mysql.oracle.com/v2', kind: 'MySQLBackup', name: 'payments-db-now', operator: 'mysql-operator' });
    expect(out.status?.operatorStatus).toEqual(source.status);
  });

  it('a Job of the same name owned by something else is not the run\'s', () => {
    const other = jobFixture(mysqlBackup(), JOB_STATUS.failed, { ownerUid: 'not-mine' });
    expect(project(mysqlBackup(), [other]).status?.phase).toBe('Pending');
  });

  it('watches only the operator\'s backup Jobs, by name, and reads a slim Job as the full one', () => {
    const [type] = mysqlBackups.relatedTypes;
    expect(type).toMatchObject({ group: 'batch', plural: 'jobs', labelSelector: 'app.kubernetes.io/name=mysql-innodbcluster-backup-task,app.kubernetes.io/created-by=mysql-operator' });
    expect(mysqlBackups.relatedRefs(mysqlBackup(), MYSQL_BACKUP)).toEqual([{ type, namespace: 'team-a', name: 'payments-db-now' }]);
    for (const status of Object.values(JOB_STATUS))
      expect(project(mysqlBackup(RUNNING), [type.slim!(job(status))])).toEqual(project(mysqlBackup(RUNNING), [job(status)]));
  });
});

describe('mysql-operator backups: writes', () => {
  const sample = readSample('mysql-operator', 'sample-cluster.yaml', 'InnoDBCluster');
  const target: KubeObject = {
    ...sample,
    metadata: { name: 'payments-db', namespace: 'team-a' },
    spec: {
      ...sample.spec,
      backupProfiles: [
        { name: 'dump-to-volume', dumpInstance: { storage: { persistentVolumeClaim: { claimName: 'backups' } } } },
        { name: 'dump-to-oci', dumpInstance: { storage: { ociObjectStorage: { bucketName: 'backups', credentials: 'oci' } } } },
      ],
    },
  };
  const request = (method?: string): DatabaseBackup => ({
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseBackup',
    metadata: { name: 'payments-db-now', namespace: 'team-a' },
    spec: { instanceRef: { name: 'payments-db' }, ...(method && { method }) },
  });

  it('the adapter carries its backup side with its schedules; methods are the cluster\'s own profiles', () => {
    expect(mysqlOperatorAdapter.backups).toEqual({ ...mysqlBackups, schedules: mysqlSchedules });
    expect(mysqlBackups.capabilities).toEqual({ onDemand: true, schedule: true, restore: true, pointInTime: false });
  });

  it('validate: spec.method names one of the InnoDBCluster\'s backupProfiles', () => {
    expect(mysqlBackups.validate(request().spec, target)).toEqual([]);
    expect(mysqlBackups.validate(request('dump-to-oci').spec, target)).toEqual([]);
    expect(mysqlBackups.validate(request('nope').spec, target)).toEqual([
      { reason: 'FieldValueNotSupported', field: 'spec.method', message: 'Unsupported value: "nope": supported values: "dump-to-volume", "dump-to-oci"' },
    ]);
  });

  it('validate: a cluster without backupProfiles (the upstream sample) cannot be backed up', () => {
    assertFitsCrd('mysql-operator', mysqlOperatorAdapter.kinds[0], { ...sample, metadata: { name: 'mycluster', namespace: 'team-a' } });
    const [cause] = mysqlBackups.validate(request().spec, sample);
    expect(cause).toMatchObject({ reason: 'FieldValueRequired', field: 'spec.method' });
    expect(cause.message).toContain('has no spec.backupProfiles');
    expect(mysqlBackups.validate(request('x').spec, sample)).toEqual([expect.objectContaining({ reason: 'FieldValueInvalid', field: 'spec.method' })]);
  });

  it('toOperatorObject: a MySQLBackup the upstream CRD stores as sent, the first profile by default', () => {
    const object = mysqlBackups.toOperatorObject(request(), target, { requestedBy: 'bob' });
    expect(crdStoreProblems('mysql-operator', MYSQL_BACKUP, object)).toEqual([]);
    // the Job is named as the backup, so a run whose pod never starts is found (see toOperatorObject)
    expect(object.spec).toEqual({ clusterName: 'payments-db', backupProfileName: 'dump-to-volume', addTimestampToBackupDirectory: false });
    expect(object.metadata).toMatchObject({ name: 'payments-db-now', namespace: 'team-a', labels: { 'app.kubernetes.io/managed-by': 'dbaas-apiserver', 'dbaas.platform.dev/requested-by': 'bob' } });
    expect(object.metadata).not.toHaveProperty('ownerReferences');
    expect(mysqlBackups.toOperatorObject(request('dump-to-oci'), target).spec.backupProfileName).toBe('dump-to-oci');
    expect(project(object).spec).toEqual({ instanceRef: { name: 'payments-db' }, method: 'dump-to-volume' });
  });
});
