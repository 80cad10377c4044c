import { describe, expect, it } from '@jest/globals';
import { LABEL_MANAGED_BY, LABEL_REQUESTED_BY, type DatabaseBackup } from '@internal/plugin-databases-common';
import { crdStoreProblems } from '../__testUtils__/crdStoreProblems';
import { JOB_STATUS, JOB_TIMES, jobFixture } from '../__testUtils__/jobFixture';
import { assertFitsCrd, readSample } from '../__testUtils__/operatorFiles';
import { emptyLookup, lookupOf } from '../__testUtils__/schemaDerivedFixtures';
import type { KubeObject } from '../types';
import { mariadbOperatorAdapter } from './adapter';
import { MARIADB_BACKUP, mariadbBackups } from './backup';

const T = '2026-07-01T10:02:30Z';
const complete = (status: 'True' | 'False', reason: string, message: string) => ({
  conditions: [{ type: 'Complete', status, reason, message, lastTransitionTime: T }],
});

/** A one-off Backup as the upstream schema has it (k8s.mariadb.com_backups.yaml). */
function backup(status?: Record<string, unknown>, spec: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'k8s.mariadb.com/v1alpha1',
    kind: 'Backup',
    metadata: { name: 'orders-db-1', namespace: 'team-a', uid: 'b-1', creationTimestamp: '2026-07-01T09:59:59Z', resourceVersion: '42' },
    spec: {
      mariaDbRef: { name: 'orders-db', waitForIt: true },
      storage: { persistentVolumeClaim: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } } } },
      ...spec,
    },
    ...(status && { status }),
  };
}

const scheduled = (status?: Record<string, unknown>) =>
  backup(status, { schedule: { cron: '0 3 * * *', suspend: false } });

const project = (source: KubeObject, related: KubeObject[] = []) =>
  mariadbBackups.project(source, MARIADB_BACKUP, related.length ? lookupOf(related) : emptyLookup);

describe('mariadb-operator backups: upstream samples', () => {
  // ../shared/operators/mariadb-operator/status has no Backup status (README: "Backup/Restore
  // ... status samples (only Argo CD fixtures exist)"): the samples, which have none yet.
  it.each(['backup.yaml'])('samples/%s fits the CRD and is Pending before the operator', file => {
    const sample = { ...readSample('mariadb-operator', file, 'Backup') };
    sample.metadata = { ...sample.metadata, namespace: 'fixtures' };
    assertFitsCrd('mariadb-operator', MARIADB_BACKUP, sample);
    const out = project(sample);
    expect(out.spec.instanceRef).toEqual({ name: 'mariadb' });
    expect(out.status).toMatchObject({
      phase: 'Pending',
      reason: 'WaitingForOperator',
      restorable: false,
      engine: 'mariadb',
      source: { apiVersion: 'k8s.mariadb.com/v1alpha1', kind: 'Backup', name: 'backup', operator: 'mariadb-operator' },
    });
    expect(out.status?.location).toBe('persistentvolumeclaim/backup');
  });
});

describe('mariadb-operator backups: derived-from-schema runs', () => {
  const cases: Array<[string, KubeObject, KubeObject[], Record<string, unknown>]> = [
    ['no status, no Job: Pending', backup(), [], { phase: 'Pending', reason: 'WaitingForOperator' }],
    [
      'MariaDB not ready (Complete=False reason Failed), no Job: Pending, the operator retries',
      backup(complete('False', 'Failed', 'MariaDB not ready')),
      [],
      { phase: 'Pending', reason: 'NotStarted', message: 'MariaDB not ready' },
    ],
    [
      'Job created, its pod never started: Pending',
      backup(complete('False', 'JobRunning', 'Running')),
      [jobFixture(backup(), JOB_STATUS.podNotStarted)],
      { phase: 'Pending', reason: 'PodNotStarted', startTime: JOB_TIMES.start },
    ],
    [
      'Job running: Running',
      backup(complete('False', 'JobRunning', 'Running')),
      [jobFixture(backup(), JOB_STATUS.running)],
      { phase: 'Running', reason: 'JobRunning', message: 'Running', startTime: JOB_TIMES.start },
    ],
    [
      'Job complete: Succeeded and restorable',
      backup(complete('True', 'JobComplete', 'Success')),
      [jobFixture(backup(), JOB_STATUS.complete)],
      { phase: 'Succeeded', reason: 'JobComplete', message: 'Success', restorable: true, startTime: JOB_TIMES.start, completionTime: JOB_TIMES.end },
    ],
    [
      'the trap: Complete=True reason JobFailed with a failed Job is Failed',
      backup(complete('True', 'JobFailed', 'Failed')),
      [jobFixture(backup(), JOB_STATUS.failed)],
      { phase: 'Failed', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit', restorable: false, completionTime: JOB_TIMES.end },
    ],
    [
      'the trap with the Job cleaned up (history limit): Complete=True JobFailed is Failed',
      backup(complete('True', 'JobFailed', 'Failed')),
      [],
      { phase: 'Failed', reason: 'JobFailed', message: 'Failed', restorable: false, completionTime: T },
    ],
    [
      'Complete=True JobComplete with the Job cleaned up: Succeeded',
      backup(complete('True', 'JobComplete', 'Success')),
      [],
      { phase: 'Succeeded', reason: 'JobComplete', restorable: true, completionTime: T },
    ],
    [
      'the operator says running but the Job is not in the cache yet: Running',
      backup(complete('False', 'JobRunning', 'Running')),
      [],
      { phase: 'Running', reason: 'JobRunning' },
    ],
    [
      'a Job of the same name that is not the Backup\'s is ignored',
      backup(complete('True', 'JobFailed', 'Failed')),
      [jobFixture(backup(), JOB_STATUS.complete, { ownerUid: 'someone-else' })],
      { phase: 'Failed', reason: 'JobFailed' },
    ],
    ['a reason this adapter does not know: Unknown', backup(complete('True', 'SomethingNew', 'x')), [], { phase: 'Unknown', reason: 'SomethingNew' }],
  ];

  it.each(cases)('%s', (_name, source, related, expected) => {
    assertFitsCrd('mariadb-operator', MARIADB_BACKUP, source);
    const out = project(source, related);
    expect(out.status).toMatchObject(expected);
    expect(out.spec).toEqual({ instanceRef: { name: 'orders-db' } });
    expect(out.metadata).toEqual({ name: 'orders-db-1', namespace: 'team-a', uid: 'b-1', creationTimestamp: '2026-07-01T09:59:59Z' });
    expect(out.status?.operatorStatus).toEqual(source.status);
  });

  it("serves the run's own conditions, not the operator's: a failed run is Failed, never Complete", () => {
    // the trap: mariadb-operator's Complete=True reason JobFailed, whose Job is gone
    const failed = project(backup(complete('True', 'JobFailed', 'Failed'))).status!;
    expect(failed.phase).toBe('Failed');
    expect(failed.conditions).toEqual([{ type: 'Failed', status: 'True', reason: failed.reason, message: failed.message ?? '', lastTransitionTime: expect.any(String) }]);
    const succeeded = project(backup(complete('True', 'JobComplete', 'Success'))).status!;
    expect(succeeded.phase).toBe('Succeeded');
    expect(succeeded.conditions?.map(c => [c.type, c.status])).toEqual([['Complete', 'True']]);
    expect(project(backup(complete('False', 'JobRunning', 'Running'))).status?.conditions).toBeUndefined();
  });

  it('reads a slim Job as the full one', () => {
    const [type] = mariadbBackups.relatedTypes;
    for (const status of Object.values(JOB_STATUS)) {
      const job = jobFixture(backup(), status);
      expect(project(backup(), [type.slim!(job)])).toEqual(project(backup(), [job]));
    }
  });
});

describe('mariadb-operator backups: only one-off Backups are runs', () => {
  it('serves a Backup without spec.schedule; a scheduled one is a DatabaseBackupSchedule (schedule.ts)', () => {
    expect(mariadbBackups.serves!(backup(), MARIADB_BACKUP, { get: () => undefined })).toBe(true);
    expect(mariadbBackups.serves!(scheduled(), MARIADB_BACKUP, { get: () => undefined })).toBe(false);
  });

  it("relatedRefs: the run's Job, by name", () => {
    expect(mariadbBackups.relatedRefs(backup(), MARIADB_BACKUP)).toEqual([
      { type: mariadbBackups.relatedTypes[0], namespace: 'team-a', name: 'orders-db-1' },
    ]);
  });
});

describe('mariadb-operator backups: writes', () => {
  const target: KubeObject = {
    apiVersion: 'k8s.mariadb.com/v1alpha1',
    kind: 'MariaDB',
    metadata: { name: 'orders-db', namespace: 'team-a' },
    spec: { replicas: 3, storage: { size: '20Gi', storageClassName: 'fast' } },
  };
  const request: DatabaseBackup = {
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseBackup',
    metadata: { name: 'orders-db-now', namespace: 'team-a', labels: { 'backstage.io/kubernetes-id': 'orders', [LABEL_REQUESTED_BY]: 'mallory' } },
    spec: { instanceRef: { name: 'orders-db' } },
  };

  it('the adapter carries its backup side and capabilities (no point in time: "the closest backup before")', () => {
    expect(mariadbOperatorAdapter.backups).toBe(mariadbBackups);
    expect(mariadbBackups.capabilities).toEqual({ onDemand: true, schedule: true, restore: true, pointInTime: false });
  });

  it('validate: mariadb-operator has no method to choose', () => {
    expect(mariadbBackups.validate({ instanceRef: { name: 'orders-db' } }, target)).toEqual([]);
    expect(mariadbBackups.validate({ instanceRef: { name: 'orders-db' }, method: 'physical' }, target)).toEqual([
      expect.objectContaining({ reason: 'FieldValueForbidden', field: 'spec.method' }),
    ]);
  });

  it('toOperatorObject: a Backup the upstream CRD stores as sent, to a claim as large as the data volume', () => {
    const object = mariadbBackups.toOperatorObject(request, target, { requestedBy: 'alice@example.com' });
    expect(crdStoreProblems('mariadb-operator', MARIADB_BACKUP, object)).toEqual([]);
    expect(object.metadata).toEqual({
      name: 'orders-db-now',
      namespace: 'team-a',
      labels: { 'backstage.io/kubernetes-id': 'orders', [LABEL_MANAGED_BY]: 'dbaas-apiserver', [LABEL_REQUESTED_BY]: 'alice_example.com' },
      annotations: { 'dbaas.platform.dev/requested-by': 'alice@example.com' },
    });
    expect(object.metadata).not.toHaveProperty('ownerReferences');
    expect(object.spec).toEqual({
      mariaDbRef: { name: 'orders-db' },
      compression: 'gzip',
      storage: { persistentVolumeClaim: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '20Gi' } }, storageClassName: 'fast' } },
    });
    const back = project({ ...object, metadata: { ...object.metadata, uid: 'new' } });
    expect(back.spec).toEqual({ instanceRef: { name: 'orders-db' } });
    expect(back.status?.phase).toBe('Pending');
  });

  it('toOperatorObject: the claim template\'s size when storage.size is absent', () => {
    const old = { ...target, spec: { storage: { volumeClaimTemplate: { resources: { requests: { storage: '5Gi' } } } } } };
    const object = mariadbBackups.toOperatorObject(request, old);
    expect(object.spec.storage.persistentVolumeClaim.resources.requests.storage).toBe('5Gi');
    expect(crdStoreProblems('mariadb-operator', MARIADB_BACKUP, object)).toEqual([]);
  });
});
