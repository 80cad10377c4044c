import { describe, expect, it } from '@jest/globals';
import type { DatabaseBackup, DatabaseInstance } from '@internal/plugin-databases-common';
import { crdStoreProblems } from '../__testUtils__/crdStoreProblems';
import { OPERATORS_DIR, readYamlDocuments } from '../__testUtils__/operatorFiles';
import { emptyLookup } from '../__testUtils__/schemaDerivedFixtures';
import path from 'node:path';
import type { KubeObject } from '../types';
import { mariadbOperatorAdapter } from './adapter';
import { mariadbRestore } from './restore';
import { MARIADB_RESTORE } from './bootstrapRestore';

const T = '2026-07-01T10:02:30Z';
const kind = mariadbOperatorAdapter.kinds[0];
const write = mariadbOperatorAdapter.write!;

const backupObject: KubeObject = {
  apiVersion: 'k8s.mariadb.com/v1alpha1',
  kind: 'Backup',
  metadata: { name: 'orders-db-20260701', namespace: 'team-a' },
  spec: { mariaDbRef: { name: 'orders-db' } },
};
const backup = { metadata: { name: 'orders-db-20260701' } } as DatabaseBackup;

const instance: DatabaseInstance = {
  apiVersion: 'dbaas.platform.dev/v1alpha1',
  kind: 'DatabaseInstance',
  metadata: { name: 'orders-copy', namespace: 'team-a' },
  spec: { engine: 'mariadb', topology: 'standalone', version: '11.4', replicas: 1, storage: { size: '10Gi' } },
};

/** The MariaDB the write side builds for `instance`, told to restore the Backup. */
const restoring = () => mariadbRestore.apply(write.toOperatorObject(instance), { backup, backupObject });

/** A MariaDB of that spec with `conditions` (derived from the MariaDB schema and pkg/condition). */
const withConditions = (...conditions: Array<Record<string, string>>): KubeObject => ({
  ...restoring(),
  metadata: { name: 'orders-copy', namespace: 'team-a', uid: 'u-1', creationTimestamp: T },
  status: { conditions: conditions.map(c => ({ lastTransitionTime: T, ...c })), replicas: 1 },
});

describe('mariadb-operator restore (spec.bootstrapFrom)', () => {
  it('writes bootstrapFrom.backupRef, held to the upstream MariaDB CRD, and reads it back', () => {
    const object = restoring();
    expect(object.spec.bootstrapFrom).toEqual({ backupRef: { name: 'orders-db-20260701' } });
    expect(crdStoreProblems('mariadb-operator', kind, object)).toEqual([]);
    expect(mariadbOperatorAdapter.project(withConditions(), kind, emptyLookup).spec.restoreFrom).toEqual({ backup: 'orders-db-20260701' });
  });

  it('refuses a point in time in its own terms and accepts only its Backups', () => {
    expect(mariadbRestore.pointInTimeRefusal).toMatch(/closest backup before a time.*targetRecoveryTime.*does not pass that off as a point in time/);
    expect(mariadbRestore.validate({ backup, backupObject: { ...backupObject, kind: 'MySQLBackup' } })).toHaveLength(1);
    expect(mariadbRestore.validate({ backup, backupObject })).toEqual([]);
  });

  it('upstream fixture: Ready=False RestoreNotComplete is Provisioning Restoring with its words', () => {
    const [fixture] = readYamlDocuments(path.join(OPERATORS_DIR, 'mariadb-operator/status/mariadb-provisioning-restoring-backup.argocd-fixture.yaml')) as KubeObject[];
    const status = mariadbOperatorAdapter.project(fixture, kind, emptyLookup).status!;
    expect([status.phase, status.reason, status.message]).toEqual(['Provisioning', 'Restoring', 'Restoring backup']);
  });

  it('derived: Ready=False RestoreBackup "Restoring backup" (SetRestoringBackup) is Provisioning Restoring', () => {
    const object = withConditions(
      { type: 'Ready', status: 'False', reason: 'RestoreBackup', message: 'Restoring backup' },
      { type: 'BackupRestored', status: 'False', reason: 'RestoreBackup', message: 'Restoring backup' },
    );
    const status = mariadbOperatorAdapter.project(object, kind, emptyLookup).status!;
    expect([status.phase, status.reason, status.message]).toEqual(['Provisioning', 'Restoring', 'Restoring backup']);
  });

  it('derived: Ready=True before the restore began (no BackupRestored yet) is Restoring, never Ready', () => {
    const object = withConditions({ type: 'Ready', status: 'True', reason: 'StatefulSetReady', message: 'Running' });
    const status = mariadbOperatorAdapter.project(object, kind, emptyLookup).status!;
    expect([status.phase, status.reason]).toEqual(['Provisioning', 'Restoring']);
  });

  it('derived: BackupRestored=True "Restored backup" and Ready=True is Ready', () => {
    const object = withConditions(
      { type: 'Ready', status: 'True', reason: 'StatefulSetReady', message: 'Running' },
      { type: 'BackupRestored', status: 'True', reason: 'RestoreBackup', message: 'Restored backup' },
    );
    expect(mariadbOperatorAdapter.project(object, kind, emptyLookup).status!.phase).toBe('Ready');
  });

  it('derived: an operator error during the restore stays Failed with its words', () => {
    const object = withConditions({ type: 'Ready', status: 'False', reason: 'Failed', message: 'Error creating Restore' });
    const status = mariadbOperatorAdapter.project(object, kind, emptyLookup).status!;
    expect([status.phase, status.message]).toEqual(['Failed', 'Error creating Restore']);
  });

  /**
   * The Restore `<name>-restore` the operator makes to bootstrap (MariaDB.RestoreKey(), owned by
   * the MariaDB), derived from the upstream Restore CRD and pkg/condition SetCompleteWithJob:
   * Complete=False JobRunning "Running", Complete=True JobComplete "Success", and the trap,
   * Complete=True JobFailed "Failed" for a failed Job, which reconcileRestore counts as restored.
   */
  const bootstrapRestore = (complete: Record<string, string>, ownerUid = 'u-1'): KubeObject => ({
    apiVersion: 'k8s.mariadb.com/v1alpha1',
    kind: 'Restore',
    metadata: {
      name: 'orders-copy-restore',
      namespace: 'team-a',
      uid: 'r-1',
      resourceVersion: '41',
      ownerReferences: [{ apiVersion: 'k8s.mariadb.com/v1alpha1', kind: 'MariaDB', name: 'orders-copy', uid: ownerUid, controller: true, blockOwnerDeletion: true }],
    },
    spec: { mariaDbRef: { name: 'orders-copy' }, backupRef: { name: 'orders-db-20260701' } },
    status: { conditions: [{ type: 'Complete', lastTransitionTime: T, ...complete }] },
  });
  const lookupOf = (restore: KubeObject) => ({
    get: (ref: { type: { plural: string }; namespace: string; name: string }) =>
      ref.type.plural === 'restores' && ref.namespace === 'team-a' && ref.name === 'orders-copy-restore' ? MARIADB_RESTORE.slim!(restore) : undefined,
  });
  const restoredAndRunning = () =>
    withConditions(
      { type: 'Ready', status: 'True', reason: 'StatefulSetReady', message: 'Running' },
      { type: 'BackupRestored', status: 'True', reason: 'RestoreBackup', message: 'Restored backup' },
    );
  const restoreKind = { group: 'k8s.mariadb.com', version: 'v1alpha1', plural: 'restores', kind: 'Restore', topologies: [] };

  it('reads the Restore it bootstraps from, <name>-restore, and only for a MariaDB with bootstrapFrom', () => {
    expect(mariadbOperatorAdapter.relatedRefs(restoredAndRunning(), kind)).toContainEqual({ type: MARIADB_RESTORE, namespace: 'team-a', name: 'orders-copy-restore' });
    expect(mariadbOperatorAdapter.relatedTypes).toContain(MARIADB_RESTORE);
    const plain = write.toOperatorObject(instance);
    expect(mariadbOperatorAdapter.relatedRefs(plain, kind).filter(r => r.type === MARIADB_RESTORE)).toEqual([]);
    // the derived Restores are what the upstream CRD stores
    for (const reason of ['JobFailed', 'JobComplete', 'JobRunning'])
      expect(crdStoreProblems('mariadb-operator', restoreKind, bootstrapRestore({ status: 'True', reason, message: 'x' }))).toEqual([]);
  });

  it('derived: a Restore whose Job failed (Complete=True JobFailed) is Failed, though the MariaDB says BackupRestored and Ready', () => {
    const status = mariadbOperatorAdapter.project(restoredAndRunning(), kind, lookupOf(bootstrapRestore({ status: 'True', reason: 'JobFailed', message: 'Failed' }))).status!;
    expect([status.phase, status.reason]).toEqual(['Failed', 'RestoreFailed']);
    expect(status.message).toMatch(/^Restore orders-copy-restore: Failed \(the operator still reports BackupRestored=True/);
  });

  it('derived: a failed Restore decides while the operator still says Restoring', () => {
    const restoringNow = withConditions(
      { type: 'Ready', status: 'False', reason: 'RestoreBackup', message: 'Restoring backup' },
      { type: 'BackupRestored', status: 'False', reason: 'RestoreBackup', message: 'Restoring backup' },
    );
    expect(mariadbOperatorAdapter.project(restoringNow, kind, lookupOf(bootstrapRestore({ status: 'True', reason: 'JobFailed', message: 'Failed' }))).status!.phase).toBe('Failed');
    const running = mariadbOperatorAdapter.project(restoringNow, kind, lookupOf(bootstrapRestore({ status: 'False', reason: 'JobRunning', message: 'Running' }))).status!;
    expect([running.phase, running.reason]).toEqual(['Provisioning', 'Restoring']);
  });

  it('derived: a Restore that completed (JobComplete "Success") leaves the MariaDB Ready', () => {
    const status = mariadbOperatorAdapter.project(restoredAndRunning(), kind, lookupOf(bootstrapRestore({ status: 'True', reason: 'JobComplete', message: 'Success' }))).status!;
    expect(status.phase).toBe('Ready');
  });

  it('a failed Restore of that name that this MariaDB does not own (another uid) decides nothing', () => {
    const status = mariadbOperatorAdapter.project(restoredAndRunning(), kind, lookupOf(bootstrapRestore({ status: 'True', reason: 'JobFailed', message: 'Failed' }, 'someone-else'))).status!;
    expect(status.phase).toBe('Ready');
  });

  it('a MariaDB being deleted after a failed restore is Deleting', () => {
    const deleting = { ...restoredAndRunning(), metadata: { ...restoredAndRunning().metadata, deletionTimestamp: T } };
    expect(mariadbOperatorAdapter.project(deleting, kind, lookupOf(bootstrapRestore({ status: 'True', reason: 'JobFailed', message: 'Failed' }))).status!.phase).toBe('Deleting');
  });

  it('a failure the apiserver recorded on the MariaDB decides once the operator has deleted the Restore', () => {
    const object = restoredAndRunning();
    const recorded = { ...object, metadata: { ...object.metadata, annotations: { 'dbaas.platform.dev/restore-failed': 'Restore orders-copy-restore: Failed (recorded)' } } };
    const status = mariadbOperatorAdapter.project(recorded, kind, emptyLookup).status!;
    expect([status.phase, status.reason, status.message]).toEqual(['Failed', 'RestoreFailed', 'Restore orders-copy-restore: Failed (recorded)']);
    // the record is the apiserver's own: never served as an annotation
    expect(mariadbOperatorAdapter.project(recorded, kind, emptyLookup).metadata.annotations?.['dbaas.platform.dev/restore-failed']).toBeUndefined();
  });
});
