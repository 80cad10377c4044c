import { describe, expect, it } from '@jest/globals';
import { adapters } from '../adapters/registry';
import { backupCapabilities } from './backupCapabilities';

const of = (operator: string) => backupCapabilities(adapters.find(a => a.operator === operator)!);

describe('backupCapabilities (DatabaseEngine spec.backup)', () => {
  it('has no schedule reason where schedules are served (mysql-operator\'s as entries of the InnoDBCluster), and the one reason where the operator has no backups at all', () => {
    for (const operator of ['mariadb-operator', 'cloudnative-pg', 'mysql-operator']) {
      expect(of(operator).schedule).toBe(true);
      expect(of(operator)).not.toHaveProperty('scheduleReason');
    }
    expect(of('redis-operator')).toEqual({ onDemand: false, schedule: false, restore: false, pointInTime: false, reason: 'redis-operator has no backup or restore objects' });
  });
});
