import { describe, expect, it } from '@jest/globals';
import type { DatabaseBackup, DatabaseInstance } from '@internal/plugin-databases-common';
import { crdStoreProblems } from '../__testUtils__/crdStoreProblems';
import { OPERATORS_DIR, readYamlDocuments } from '../__testUtils__/operatorFiles';
import { emptyLookup } from '../__testUtils__/schemaDerivedFixtures';
import path from 'node:path';
import type { KubeObject } from '../types';
import { mariadbOperatorAdapter } from './adapter';
import { mariadbRestore } from './restore';

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
});
