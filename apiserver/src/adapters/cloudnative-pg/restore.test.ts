import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import type { DatabaseBackup, DatabaseInstance } from '@internal/plugin-databases-common';
import { crdStoreProblems } from '../__testUtils__/crdStoreProblems';
import { OPERATORS_DIR, readSample, readYamlDocuments } from '../__testUtils__/operatorFiles';
import { emptyLookup } from '../__testUtils__/schemaDerivedFixtures';
import type { KubeObject } from '../types';
import { cloudnativePgAdapter } from './adapter';
import { postgresqlRestore } from './restore';

const kind = cloudnativePgAdapter.kinds[0];
const write = cloudnativePgAdapter.write!;

const instance: DatabaseInstance = {
  apiVersion: 'dbaas.platform.dev/v1alpha1',
  kind: 'DatabaseInstance',
  metadata: { name: 'ledger-copy', namespace: 'team-a' },
  spec: { engine: 'postgresql', topology: 'standalone', version: '18.4', replicas: 1, storage: { size: '10Gi' } },
};
const backupObject: KubeObject = { apiVersion: 'postgresql.cnpg.io/v1', kind: 'Backup', metadata: { name: 'ledger-1' }, spec: { cluster: { name: 'ledger' } } };
const backup = { metadata: { name: 'ledger-1' } } as DatabaseBackup;
/** The upstream sample with an object store (docs/src/samples/cluster-example-with-backup.yaml). */
const archived = () => readSample('cloudnative-pg', 'cluster-example-with-backup.yaml', 'Cluster');

describe('CloudNativePG restore (spec.bootstrap.recovery)', () => {
  it('from a Backup: recovery.backup.name, held to the upstream Cluster CRD, read back', () => {
    const object = postgresqlRestore.apply(write.toOperatorObject(instance), { backup, backupObject });
    expect(object.spec.bootstrap).toEqual({ recovery: { backup: { name: 'ledger-1' } } });
    expect(crdStoreProblems('cloudnative-pg', kind, object)).toEqual([]);
    expect(postgresqlRestore.read(object)).toEqual({ backup: 'ledger-1' });
  });

  it('to a point in time: an externalClusters entry with the source barmanObjectStore and recoveryTarget.targetTime', () => {
    const source = archived();
    const object = postgresqlRestore.apply(write.toOperatorObject(instance), { instance: source, pointInTime: '2026-07-01T10:00:00Z' });
    const name = source.metadata!.name!;
    expect(object.spec.bootstrap).toEqual({ recovery: { source: name, recoveryTarget: { targetTime: '2026-07-01T10:00:00Z' } } });
    expect(object.spec.externalClusters).toEqual([{ name, barmanObjectStore: source.spec.backup.barmanObjectStore }]);
    expect(crdStoreProblems('cloudnative-pg', kind, object)).toEqual([]);
    expect(postgresqlRestore.read(object)).toEqual({ instance: name, pointInTime: '2026-07-01T10:00:00Z' });
  });

  it('refuses a point in time from a Cluster without an object store', () => {
    const bare = readSample('cloudnative-pg', 'cluster-example.yaml', 'Cluster');
    const causes = postgresqlRestore.validate({ instance: bare, pointInTime: '2026-07-01T10:00:00Z' });
    expect(causes.map(c => c.field)).toEqual(['spec.restoreFrom.instance']);
    expect(causes[0].message).toMatch(/no backup destination/);
    expect(postgresqlRestore.validate({ instance: archived(), pointInTime: '2026-07-01T10:00:00Z' })).toEqual([]);
  });

  it('upstream fixture "Setting up primary" of a recovering Cluster (bootstrap.recovery added: derived) is Provisioning Restoring', () => {
    const [fixture] = readYamlDocuments(path.join(OPERATORS_DIR, 'cloudnative-pg/status/cluster-provisioning-setting-up-primary.argocd-fixture.yaml')) as KubeObject[];
    const plain = cloudnativePgAdapter.project(fixture, kind, emptyLookup).status!;
    expect(plain.reason).toBe('SettingUpPrimary');
    const recovering = { ...fixture, spec: { ...fixture.spec, bootstrap: { recovery: { backup: { name: 'ledger-1' } } } } };
    const status = cloudnativePgAdapter.project(recovering, kind, emptyLookup).status!;
    expect([status.phase, status.reason, status.message]).toEqual(['Provisioning', 'Restoring', fixture.status.phaseReason]);
  });

  it('derived: a failed recovery Job is Failed with the operator\'s phase reason (PhaseUnrecoverable)', () => {
    const object: KubeObject = {
      ...postgresqlRestore.apply(write.toOperatorObject(instance), { backup, backupObject }),
      metadata: { name: 'ledger-copy', namespace: 'team-a', uid: 'u', creationTimestamp: '2026-07-01T10:00:00Z' },
      status: {
        phase: 'Cluster is unrecoverable and needs manual intervention',
        phaseReason: 'Instance creation failed for the following jobs: ledger-copy-1-full-recovery',
        instances: 1,
      },
    };
    const status = cloudnativePgAdapter.project(object, kind, emptyLookup).status!;
    expect([status.phase, status.reason, status.message]).toEqual([
      'Failed',
      'Unrecoverable',
      'Instance creation failed for the following jobs: ledger-copy-1-full-recovery',
    ]);
  });
});
