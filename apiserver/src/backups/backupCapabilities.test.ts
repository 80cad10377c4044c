import { describe, expect, it } from '@jest/globals';
import { adapters } from '../adapters/registry';
import { backupCapabilities } from './backupCapabilities';

const of = (operator: string) => backupCapabilities(adapters.find(a => a.operator === operator)!);

describe('backupCapabilities (DatabaseEngine spec.backup)', () => {
  it('says why schedules are refused where the engine has other backups: mysql-operator keeps them in the InnoDBCluster', () => {
    expect(of('mysql-operator')).toMatchObject({ onDemand: true, schedule: false, restore: true });
    expect(of('mysql-operator').scheduleReason).toMatch(/spec\.backupSchedules/);
  });

  it('has no schedule reason where schedules are served, and the one reason where the operator has no backups at all', () => {
    for (const operator of ['mariadb-operator', 'cloudnative-pg']) {
      expect(of(operator).schedule).toBe(true);
      expect(of(operator)).not.toHaveProperty('scheduleReason');
    }
    expect(of('redis-operator')).toEqual({ onDemand: false, schedule: false, restore: false, pointInTime: false, reason: 'redis-operator has no backup or restore objects' });
  });
});
