import { describe, expect, it } from '@jest/globals';
import type { DatabaseBackupSchedule } from '@internal/plugin-databases-common';
import { crdStoreProblems } from '../__testUtils__/crdStoreProblems';
import { assertFitsCrd, readSample } from '../__testUtils__/operatorFiles';
import { emptyLookup } from '../__testUtils__/schemaDerivedFixtures';
import type { KubeObject } from '../types';
import { cloudnativePgBackups } from './backup';
import { CNPG_SCHEDULED_BACKUP, cloudnativePgSchedules } from './schedule';

/** A ScheduledBackup as the upstream schema has it (postgresql.cnpg.io_scheduledbackups.yaml). */
function scheduled(spec: Record<string, unknown> = {}, status?: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'ScheduledBackup',
    metadata: { name: 'payments-pg-hourly', namespace: 'team-a', uid: 's-1', creationTimestamp: '2026-07-01T09:59:59Z', resourceVersion: '7' },
    spec: { cluster: { name: 'payments-pg' }, schedule: '0 0 * * * *', method: 'barmanObjectStore', ...spec },
    ...(status && { status }),
  };
}

const project = (source: KubeObject) => cloudnativePgSchedules.project(source, CNPG_SCHEDULED_BACKUP, emptyLookup);

describe('CloudNativePG schedules: a ScheduledBackup', () => {
  it('samples/scheduled-backup-example.yaml fits the CRD; its 6-field cron at second 0 reads as 5 fields', () => {
    const sample = { ...readSample('cloudnative-pg', 'scheduled-backup-example.yaml', 'ScheduledBackup') };
    sample.metadata = { ...sample.metadata, namespace: 'fixtures' };
    assertFitsCrd('cloudnative-pg', CNPG_SCHEDULED_BACKUP, sample);
    const out = project(sample);
    expect(out.spec).toEqual({ instanceRef: { name: 'pg-backup' }, schedule: '0 0 * * *', suspend: false, method: 'barmanObjectStore' });
    expect(out.status).toMatchObject({
      engine: 'postgresql',
      reason: 'WaitingForOperator',
      source: { apiVersion: 'postgresql.cnpg.io/v1', kind: 'ScheduledBackup', name: 'backup-example', operator: 'cloudnative-pg' },
    });
  });

  it("the operator's times (scheduledbackup_controller.go: lastCheckTime, lastScheduleTime, nextScheduleTime)", () => {
    const status = { lastCheckTime: '2026-07-01T10:00:00Z', lastScheduleTime: '2026-07-01T10:00:00Z', nextScheduleTime: '2026-07-01T11:00:00Z' };
    const source = scheduled({}, status);
    assertFitsCrd('cloudnative-pg', CNPG_SCHEDULED_BACKUP, source);
    expect(project(source).status).toMatchObject({
      reason: 'Scheduled',
      lastScheduleTime: '2026-07-01T10:00:00Z',
      nextScheduleTime: '2026-07-01T11:00:00Z',
      operatorStatus: status,
    });
  });

  it('suspended: no next run (the operator leaves the old one in its status)', () => {
    const out = project(scheduled({ suspend: true }, { lastCheckTime: '2026-07-01T10:00:00Z', nextScheduleTime: '2026-07-01T11:00:00Z' }));
    expect(out.spec.suspend).toBe(true);
    expect(out.status).toMatchObject({ reason: 'Suspended' });
    expect(out.status?.nextScheduleTime).toBeUndefined();
  });

  it("an error the operator reports is the reason, in its words", () => {
    expect(project(scheduled({}, { error: 'cannot parse schedule' })).status).toMatchObject({ reason: 'Error', message: 'cannot parse schedule' });
  });

  it('a cron whose seconds are not 0 is served as the operator has it', () => {
    expect(project(scheduled({ schedule: '30 0 * * * *' })).spec.schedule).toBe('30 0 * * * *');
  });
});

describe('CloudNativePG schedules: writes', () => {
  const target = (backup?: Record<string, unknown>): KubeObject => ({
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'Cluster',
    metadata: { name: 'payments-pg', namespace: 'team-a' },
    spec: { instances: 3, storage: { size: '1Gi' }, ...(backup && { backup }) },
  });
  const withStore = target({ barmanObjectStore: { destinationPath: 's3://backups/payments-pg', endpointURL: 'http://minio:9000' }, retentionPolicy: '30d' });
  const request = (spec: Partial<DatabaseBackupSchedule['spec']> = {}): DatabaseBackupSchedule => ({
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseBackupSchedule',
    metadata: { name: 'payments-pg-hourly', namespace: 'team-a' },
    spec: { instanceRef: { name: 'payments-pg' }, schedule: '*/1 * * * *', ...spec },
  });

  it('the backup side carries the schedule side', () => {
    expect(cloudnativePgBackups.schedules).toBe(cloudnativePgSchedules);
  });

  it('validate: retention is the Cluster\'s (spec.backup.retentionPolicy), a method the Cluster lacks is refused', () => {
    expect(cloudnativePgSchedules.validate(request().spec, withStore)).toEqual([]);
    const [retention] = cloudnativePgSchedules.validate(request({ retention: '30d' }).spec, withStore);
    expect(retention).toMatchObject({ reason: 'FieldValueForbidden', field: 'spec.retention' });
    expect(retention.message).toContain('spec.backup.retentionPolicy');
    expect(cloudnativePgSchedules.validate(request().spec, target()).map(c => c.field)).toEqual(['spec.method']);
    expect(cloudnativePgSchedules.validate(request({ method: 'tape' }).spec, withStore)).toMatchObject([{ reason: 'FieldValueNotSupported', field: 'spec.method' }]);
  });

  it('toOperatorObject: a ScheduledBackup with the 6-field cron the upstream CRD stores as sent', () => {
    const object = cloudnativePgSchedules.toOperatorObject(request({ suspend: false }), withStore, { requestedBy: 'alice' });
    expect(object.spec).toEqual({ cluster: { name: 'payments-pg' }, schedule: '0 */1 * * * *', suspend: false, method: 'barmanObjectStore' });
    expect(crdStoreProblems('cloudnative-pg', CNPG_SCHEDULED_BACKUP, object)).toEqual([]);
    expect(project({ ...object, metadata: { ...object.metadata, uid: 'u' } }).spec).toEqual({
      instanceRef: { name: 'payments-pg' },
      schedule: '*/1 * * * *',
      suspend: false,
      method: 'barmanObjectStore',
    });
  });

  it('applyUpdate: cron and suspend change, the rest is kept', () => {
    const current = scheduled({ backupOwnerReference: 'self', immediate: true });
    const updated = cloudnativePgSchedules.applyUpdate(current, { instanceRef: { name: 'payments-pg' }, schedule: '15 3 * * *', suspend: true });
    expect(updated.spec).toEqual({ ...(current.spec as object), schedule: '0 15 3 * * *', suspend: true });
    expect(crdStoreProblems('cloudnative-pg', CNPG_SCHEDULED_BACKUP, updated)).toEqual([]);
  });
});
