import { describe, expect, it } from '@jest/globals';
import { mariadbOperatorAdapter } from '../adapters/mariadb-operator/adapter';
import { MARIADB_BACKUP } from '../adapters/mariadb-operator/backupObject';
import type { KubeObject } from '../adapters/types';
import { scheduleAdapters } from './backupRunAdapters';
import { projectSchedule } from './projectSchedule';

const [stand] = scheduleAdapters([mariadbOperatorAdapter]);
const input = (source: KubeObject) => ({
  entry: { key: 'k', adapter: stand, kind: MARIADB_BACKUP, namespace: 'team-a', name: 'orders-db-nightly', relatedKeys: [] },
  source,
  related: { get: () => undefined },
  memory: undefined,
  servedName: 'orders-db-nightly',
});
const scheduled: KubeObject = {
  apiVersion: 'k8s.mariadb.com/v1alpha1',
  kind: 'Backup',
  metadata: { name: 'orders-db-nightly', namespace: 'team-a', uid: 'u', resourceVersion: '5', creationTimestamp: '2026-07-01T09:59:59Z' },
  spec: { mariaDbRef: { name: 'orders-db' }, schedule: { cron: '0 3 * * *' }, storage: {} },
};

describe('projectSchedule', () => {
  it('serves the adapter\'s schedule under its served name, without a resourceVersion', () => {
    const { projected, sourceRv } = projectSchedule(input(scheduled)) as any;
    expect(projected).toMatchObject({ kind: 'DatabaseBackupSchedule', metadata: { name: 'orders-db-nightly', namespace: 'team-a' }, spec: { schedule: '0 3 * * *' } });
    expect(projected.metadata.resourceVersion).toBeUndefined();
    expect(sourceRv).toBe('5');
  });

  it('only the scheduled Backups are the schedule side\'s', () => {
    expect(stand.serves!(scheduled, MARIADB_BACKUP, { get: () => undefined })).toBe(true);
    expect(stand.serves!({ ...scheduled, spec: { mariaDbRef: { name: 'orders-db' } } }, MARIADB_BACKUP, { get: () => undefined })).toBe(false);
  });

  it('malformed fields do not take the schedule down: it is still served, with its source', () => {
    const broken = { ...scheduled, spec: { schedule: { cron: '0 3 * * *' }, mariaDbRef: 'not-an-object' }, status: { conditions: 'nope' } } as unknown as KubeObject;
    const { projected } = projectSchedule(input({ ...broken, metadata: { ...broken.metadata, creationTimestamp: 5 as any } })) as any;
    expect(projected.kind).toBe('DatabaseBackupSchedule');
    expect(projected.status.source).toMatchObject({ kind: 'Backup', operator: 'mariadb-operator' });
  });
});
