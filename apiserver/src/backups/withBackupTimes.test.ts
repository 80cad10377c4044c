import { describe, expect, it } from '@jest/globals';
import type { DatabaseBackup, DatabaseBackupSchedule, DatabaseInstance } from '@internal/plugin-databases-common';
import { withBackupTimes } from './withBackupTimes';

const instance = (backup?: object): DatabaseInstance =>
  ({ metadata: { name: 'orders-db', namespace: 'team-a' }, spec: { engine: 'mariadb' }, status: { phase: 'Ready', ...(backup && { backup }) } }) as any;
const capable = { onDemand: true, schedule: true, restore: true, pointInTime: false };
const run = (name: string, phase: string, status: object = {}): DatabaseBackup =>
  ({ metadata: { name, namespace: 'team-a', creationTimestamp: '2026-12-01T00:00:00Z' }, spec: { instanceRef: { name: 'orders-db' } }, status: { phase, ...status } }) as any;
const schedule = (name: string, status: object, suspend = false): DatabaseBackupSchedule =>
  ({ metadata: { name, namespace: 'team-a' }, spec: { instanceRef: { name: 'orders-db' }, schedule: '0 2 * * *', suspend }, status }) as any;

describe('withBackupTimes', () => {
  it('takes the newest run that succeeded and that failed, by when it ended, and the soonest schedule not suspended', () => {
    const got = withBackupTimes(instance(capable), {
      backups: [
        run('a', 'Succeeded', { startTime: '2026-12-03T01:00:00Z', completionTime: '2026-12-03T01:05:00Z' }),
        run('b', 'Succeeded', { startTime: '2026-12-04T01:00:00Z', completionTime: '2026-12-04T01:02:00Z' }),
        // failed before it started: known from its object's creation
        run('c', 'Failed'),
        run('d', 'Running', { startTime: '2026-12-05T01:00:00Z' }),
      ],
      schedules: [
        schedule('nightly', { nextScheduleTime: '2026-12-06T02:00:00Z', lastSuccessfulTime: '2026-12-02T02:00:30Z' }),
        schedule('hourly', { nextScheduleTime: '2026-12-05T23:00:00Z', lastFailedTime: '2026-12-02T22:00:00Z' }, true),
      ],
    });
    expect(got.status?.backup).toEqual({
      ...capable,
      lastSuccessfulTime: '2026-12-04T01:02:00Z',
      lastFailedTime: '2026-12-02T22:00:00Z',
      nextScheduleTime: '2026-12-06T02:00:00Z',
    });
  });

  it("keeps what the operator records on the instance where it is newer (CloudNativePG's lastSuccessfulBackup)", () => {
    const got = withBackupTimes(instance({ ...capable, lastSuccessfulTime: '2026-12-05T00:00:00Z', firstRecoverabilityPoint: '2026-11-01T00:00:00Z' }), {
      backups: [run('a', 'Succeeded', { completionTime: '2026-12-04T00:00:00Z' })],
      schedules: [],
    });
    expect(got.status?.backup).toEqual({ ...capable, lastSuccessfulTime: '2026-12-05T00:00:00Z', firstRecoverabilityPoint: '2026-11-01T00:00:00Z' });
  });

  it('leaves an instance without backups (or with none found) as it is', () => {
    const none = instance();
    expect(withBackupTimes(none, { backups: [run('a', 'Succeeded', { completionTime: '2026-12-04T00:00:00Z' })], schedules: [] })).toBe(none);
    const nothingYet = instance(capable);
    expect(withBackupTimes(nothingYet, { backups: [], schedules: [] }).status?.backup).toEqual(capable);
    expect(withBackupTimes(nothingYet, undefined)).toBe(nothingYet);
  });
});
