import { describe, expect, it } from '@jest/globals';
import type { DatabaseBackup } from '@internal/plugin-databases-common';
import { applyBackupChange } from './applyBackupChange';

const run = (name: string, created: string, rv: string, phase: 'Pending' | 'Running' | 'Succeeded' = 'Pending'): DatabaseBackup => ({
  apiVersion: 'dbaas.platform.dev/v1alpha1',
  kind: 'DatabaseBackup',
  metadata: { name, namespace: 'team-a', creationTimestamp: created, resourceVersion: rv },
  spec: { instanceRef: { name: 'orders-db' } },
  status: { phase, engine: 'mariadb', restorable: false, source: { apiVersion: 'k8s.mariadb.com/v1alpha1', kind: 'Backup', name, operator: 'mariadb-operator' } },
});

describe('applyBackupChange', () => {
  const old = run('orders-db-1', '2026-12-01T02:00:00Z', '10', 'Succeeded');

  it('adds a new run first and replaces a run by name with its newer state', () => {
    const added = applyBackupChange([old], { type: 'ADDED', backup: run('orders-db-2', '2026-12-02T02:00:00Z', '20') });
    expect(added.map(b => b.metadata.name)).toEqual(['orders-db-2', 'orders-db-1']);
    const moved = applyBackupChange(added, { type: 'MODIFIED', backup: run('orders-db-2', '2026-12-02T02:00:00Z', '21', 'Running') });
    expect(moved.map(b => b.status?.phase)).toEqual(['Running', 'Succeeded']);
  });

  it('keeps the newer state when an older one arrives late (the create answer after the stream)', () => {
    const running = [run('orders-db-2', '2026-12-02T02:00:00Z', '21', 'Running'), old];
    expect(applyBackupChange(running, { type: 'ADDED', backup: run('orders-db-2', '2026-12-02T02:00:00Z', '20') })).toBe(running);
  });

  it('removes a deleted run', () => {
    expect(applyBackupChange([old], { type: 'DELETED', backup: old })).toEqual([]);
  });
});
