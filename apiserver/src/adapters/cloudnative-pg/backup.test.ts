import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import type { DatabaseBackup } from '@internal/plugin-databases-common';
import { crdStoreProblems } from '../__testUtils__/crdStoreProblems';
import { assertFitsCrd, listStatusFiles, OPERATORS_DIR, readSample, readYamlDocuments } from '../__testUtils__/operatorFiles';
import { emptyLookup } from '../__testUtils__/schemaDerivedFixtures';
import type { KubeObject } from '../types';
import { cloudnativePgAdapter } from './adapter';
import { CNPG_BACKUP, cloudnativePgBackups } from './backup';

const project = (source: KubeObject) => cloudnativePgBackups.project(source, CNPG_BACKUP, emptyLookup);

/** What each upstream backup status sample (../shared/operators/<op>/status/backup*) is served as. */
const UPSTREAM: Record<string, { instance: string; method: string; status: Record<string, unknown> }> = {
  'cloudnative-pg/status/backup-completed.e2e.yaml': {
    instance: 'standalone-cluster',
    method: 'barmanObjectStore',
    status: { phase: 'Succeeded', reason: 'Completed', restorable: true },
  },
  'cloudnative-pg/status/backup-running.e2e.yaml': {
    instance: 'standalone-cluster',
    method: 'barmanObjectStore',
    status: { phase: 'Running', reason: 'Running', restorable: false },
  },
  'cloudnative-pg/status/backup-started-scheduled-plugin.e2e.yaml': {
    instance: 'scheduledbackups-cluster',
    method: 'plugin',
    status: { phase: 'Running', reason: 'Started', restorable: false },
  },
};

describe('CloudNativePG backups: every upstream backup status sample', () => {
  it('covers every status/backup* file of every operator', () => {
    expect(listStatusFiles().filter(f => /\/status\/backup/.test(f))).toEqual(Object.keys(UPSTREAM).sort());
  });

  it.each(Object.keys(UPSTREAM))('%s', file => {
    const [doc] = readYamlDocuments(path.join(OPERATORS_DIR, file)) as KubeObject[];
    // partial objects (chainsaw asserts): the name where the assert has none
    const source = { ...doc, metadata: { name: 'sample', ...doc.metadata, namespace: 'fixtures' } };
    assertFitsCrd('cloudnative-pg', CNPG_BACKUP, source);
    const out = project(source);
    const expected = UPSTREAM[file];
    expect(out.spec).toEqual({ instanceRef: { name: expected.instance }, method: expected.method });
    expect(out.status).toMatchObject({ ...expected.status, engine: 'postgresql', operatorStatus: doc.status });
    expect(out.status?.source).toMatchObject({ apiVersion: 'postgresql.cnpg.io/v1', kind: 'Backup', operator: 'cloudnative-pg' });
  });

  it('samples/backup-example.yaml (no status yet) is Pending, with the CRD\'s default method', () => {
    const sample = readSample('cloudnative-pg', 'backup-example.yaml', 'Backup');
    expect(project(sample)).toMatchObject({
      metadata: { name: 'pg-backup-example' },
      spec: { instanceRef: { name: 'pg-backup' }, method: 'barmanObjectStore' },
      status: { phase: 'Pending', reason: 'WaitingForOperator', restorable: false },
    });
  });
});

function cnpgBackup(status: Record<string, unknown>, method = 'barmanObjectStore'): KubeObject {
  return {
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'Backup',
    metadata: { name: 'ledger-20260701', namespace: 'team-c', uid: 'cb-1', creationTimestamp: '2026-07-01T10:00:00Z', labels: { a: 'b' } },
    spec: { cluster: { name: 'ledger' }, method },
    status,
  };
}

describe('CloudNativePG backups: derived-from-schema phases (api/v1/backup_types.go)', () => {
  const S = '2026-07-01T10:00:03Z';
  const E = '2026-07-01T10:04:00Z';
  const cases: Array<[string, KubeObject, Record<string, unknown>]> = [
    ['pending', cnpgBackup({ phase: 'pending' }), { phase: 'Pending', reason: 'Pending' }],
    ['started', cnpgBackup({ phase: 'started', method: 'barmanObjectStore', instanceID: { podName: 'ledger-1', ContainerID: 'containerd://1' } }), { phase: 'Running', reason: 'Started' }],
    ['running', cnpgBackup({ phase: 'running', startedAt: S, reconciliationStartedAt: '2026-07-01T10:00:01Z' }), { phase: 'Running', startTime: S }],
    [
      'finalizing (volume snapshots not ready to use yet)',
      cnpgBackup({ phase: 'finalizing', method: 'volumeSnapshot', snapshotBackupStatus: { elements: [{ name: 'ledger-20260701', type: 'PG_DATA' }] } }, 'volumeSnapshot'),
      { phase: 'Running', reason: 'Finalizing', location: 'volumesnapshot/ledger-20260701' },
    ],
    [
      'completed (barman): Succeeded, restorable, with the object store path',
      cnpgBackup({ phase: 'completed', method: 'barmanObjectStore', backupId: '20260701T100003', destinationPath: 's3://backups/', serverName: 'ledger', startedAt: S, stoppedAt: E, beginWal: '000000010000000000000002', endWal: '000000010000000000000002', online: true }),
      { phase: 'Succeeded', reason: 'Completed', restorable: true, startTime: S, completionTime: E, location: 's3://backups/' },
    ],
    [
      'failed: Failed, the error verbatim',
      cnpgBackup({ phase: 'failed', error: 'no barmanObjectStore section defined on the target cluster', reconciliationTerminatedAt: E }),
      { phase: 'Failed', reason: 'BackupFailed', message: 'no barmanObjectStore section defined on the target cluster', completionTime: E, restorable: false },
    ],
    ['walArchivingFailing: Failed (no base backup while WAL archiving fails)', cnpgBackup({ phase: 'walArchivingFailing' }), { phase: 'Failed', reason: 'WalArchivingFailing' }],
    ['invalid backup definition: Failed', cnpgBackup({ phase: 'invalid backup definition', error: 'requested plugin is not available: barman-cloud.cloudnative-pg.io' }, 'plugin'), { phase: 'Failed', reason: 'InvalidBackupDefinition', message: 'requested plugin is not available: barman-cloud.cloudnative-pg.io' }],
    ['a phase this adapter does not know: Unknown', cnpgBackup({ phase: 'teleporting' }), { phase: 'Unknown', reason: 'Teleporting' }],
  ];
  it.each(cases)('%s', (_name, source, expected) => {
    assertFitsCrd('cloudnative-pg', CNPG_BACKUP, source);
    const out = project(source);
    expect(out.status).toMatchObject(expected);
    expect(out.metadata).toEqual({ name: 'ledger-20260701', namespace: 'team-c', uid: 'cb-1', creationTimestamp: '2026-07-01T10:00:00Z', labels: { a: 'b' } });
  });

  it('reads nothing beside the Backup (no Job: the instance manager or VolumeSnapshots take it)', () => {
    expect(cloudnativePgBackups.relatedTypes).toEqual([]);
    expect(cloudnativePgBackups.relatedRefs(cnpgBackup({}), CNPG_BACKUP)).toEqual([]);
  });
});

describe('CloudNativePG backups: writes', () => {
  const withBarman = readSample('cloudnative-pg', 'cluster-example-with-backup.yaml', 'Cluster');
  const plain = readSample('cloudnative-pg', 'cluster-example.yaml', 'Cluster');
  const pluginOnly: KubeObject = {
    ...plain,
    spec: { ...plain.spec, plugins: [{ name: 'barman-cloud.cloudnative-pg.io', isWALArchiver: true, parameters: { barmanObjectName: 'store' } }] },
  };
  const snapshots: KubeObject = { ...plain, spec: { ...plain.spec, backup: { volumeSnapshot: { className: 'csi-snapclass' } } } };
  const request = (method?: string): DatabaseBackup => ({
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseBackup',
    metadata: { name: 'now', namespace: 'team-c' },
    spec: { instanceRef: { name: 'cluster-example' }, ...(method && { method }) },
  });

  it('the adapter carries its backup side; point in time, three methods, barmanObjectStore the operator\'s default', () => {
    expect(cloudnativePgAdapter.backups).toBe(cloudnativePgBackups);
    expect(cloudnativePgBackups.capabilities).toEqual({
      onDemand: true,
      schedule: true,
      restore: true,
      pointInTime: true,
      methods: ['barmanObjectStore', 'volumeSnapshot', 'plugin'],
    });
  });

  it('validate: the method must be one of the three, and the Cluster configured for it', () => {
    expect(cloudnativePgBackups.validate(request().spec, withBarman)).toEqual([]);
    expect(cloudnativePgBackups.validate(request('barmanObjectStore').spec, withBarman)).toEqual([]);
    expect(cloudnativePgBackups.validate(request('pgBackRest').spec, withBarman)).toEqual([
      { reason: 'FieldValueNotSupported', field: 'spec.method', message: 'Unsupported value: "pgBackRest": supported values: "barmanObjectStore", "volumeSnapshot", "plugin"' },
    ]);
    const lacks = (method: string | undefined, target: KubeObject) => cloudnativePgBackups.validate(request(method).spec, target);
    expect(lacks('volumeSnapshot', withBarman)).toEqual([expect.objectContaining({ reason: 'FieldValueInvalid', field: 'spec.method', message: expect.stringContaining('has no spec.backup.volumeSnapshot') })]);
    expect(lacks('plugin', withBarman)).toEqual([expect.objectContaining({ field: 'spec.method', message: expect.stringContaining('marked isWALArchiver') })]);
    expect(lacks('barmanObjectStore', pluginOnly)).toEqual([expect.objectContaining({ field: 'spec.method', message: expect.stringContaining('has no spec.backup.barmanObjectStore') })]);
    expect(lacks(undefined, plain)).toEqual([expect.objectContaining({ field: 'spec.method', message: expect.stringContaining('Cluster cluster-example has no spec.backup.barmanObjectStore') })]);
    const disabled = { ...pluginOnly, spec: { ...pluginOnly.spec, plugins: [{ name: 'barman-cloud.cloudnative-pg.io', isWALArchiver: true, enabled: false }] } };
    expect(lacks('plugin', disabled)).toHaveLength(1);
    expect(lacks('plugin', pluginOnly)).toEqual([]);
    expect(lacks('volumeSnapshot', snapshots)).toEqual([]);
  });

  it.each([
    ['barman', withBarman, undefined, { method: 'barmanObjectStore' }],
    ['volume snapshots', snapshots, 'volumeSnapshot', { method: 'volumeSnapshot' }],
    ['the Barman Cloud plugin only (chosen when no method is asked for)', pluginOnly, undefined, { method: 'plugin', pluginConfiguration: { name: 'barman-cloud.cloudnative-pg.io' } }],
  ])('toOperatorObject for a Cluster with %s: a Backup the upstream CRD stores as sent', (_name, target, method, spec) => {
    assertFitsCrd('cloudnative-pg', cloudnativePgAdapter.kinds[0], { ...target, metadata: { ...target.metadata, namespace: 'team-c' } });
    const object = cloudnativePgBackups.toOperatorObject(request(method), target, { requestedBy: 'carol' });
    expect(crdStoreProblems('cloudnative-pg', CNPG_BACKUP, object)).toEqual([]);
    expect(object.spec).toEqual({ cluster: { name: target.metadata?.name }, ...spec });
    expect(object.metadata).toMatchObject({ name: 'now', namespace: 'team-c', labels: { 'app.kubernetes.io/managed-by': 'dbaas-apiserver', 'dbaas.platform.dev/requested-by': 'carol' } });
    expect(object.metadata).not.toHaveProperty('ownerReferences');
    expect(project(object).spec).toEqual({ instanceRef: { name: target.metadata?.name }, method: spec.method });
  });
});
