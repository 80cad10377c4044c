import { describe, expect, it } from '@jest/globals';
import type { DatabaseBackupSchedule } from '@internal/plugin-databases-common';
import { scheduleTablePrinter } from './scheduleTablePrinter';

const NOW = Date.parse('2026-07-01T10:00:00Z');
const schedule = (status: Partial<NonNullable<DatabaseBackupSchedule['status']>>, suspend = false): DatabaseBackupSchedule => ({
  apiVersion: 'dbaas.platform.dev/v1alpha1',
  kind: 'DatabaseBackupSchedule',
  metadata: { name: 'orders-db-nightly', namespace: 'team-a', creationTimestamp: '2026-06-30T10:00:00Z' },
  spec: { instanceRef: { name: 'orders-db' }, schedule: '0 3 * * *', suspend, retention: '720h' },
  status: { engine: 'mariadb', source: { apiVersion: 'k8s.mariadb.com/v1alpha1', kind: 'Backup', name: 'orders-db-nightly', operator: 'mariadb-operator' }, ...status },
});

describe('kubectl get databasebackupschedules', () => {
  it('prints NAME INSTANCE SCHEDULE SUSPEND LAST SCHEDULE NEXT AGE, the rest with -o wide', () => {
    const columns = scheduleTablePrinter.columns;
    expect(columns.filter(c => c.priority === 0).map(c => c.name)).toEqual(['Name', 'Instance', 'Schedule', 'Suspend', 'Last Schedule', 'Next', 'Age']);
    expect(columns.filter(c => c.priority === 1).map(c => c.name)).toEqual(['Engine', 'Method', 'Retention', 'Last Success', 'Reason']);
    const cells = scheduleTablePrinter.cells(
      schedule({ lastScheduleTime: '2026-07-01T03:00:00Z', nextScheduleTime: '2026-07-02T03:00:00Z', lastSuccessfulTime: '2026-07-01T03:01:00Z', reason: 'LastRunSucceeded' }),
      NOW,
    );
    expect(cells).toEqual(['orders-db-nightly', 'orders-db', '0 3 * * *', false, '7h', '17h', '24h', 'mariadb', '', '720h', '6h59m', 'LastRunSucceeded']);
    expect(cells).toHaveLength(columns.length);
  });

  it('never run, suspended: <none> for the times', () => {
    const cells = scheduleTablePrinter.cells(schedule({ reason: 'Suspended' }, true), NOW);
    expect(cells.slice(3, 6)).toEqual([true, '<none>', '<none>']);
  });
});
