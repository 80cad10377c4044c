import { describe, expect, it } from '@jest/globals';
import { backupName } from './backupName';

const at = new Date('2026-12-06T01:58:55.123Z');

describe('backupName', () => {
  it('is the instance and the UTC time to the second', () => {
    expect(backupName('orders-db', at)).toBe('orders-db-20261206015855');
    expect(backupName('orders-db', at, { asPrefix: true })).toBe('orders-db-20261206015855-');
  });

  it('stays a DNS label of at most 63 characters, with room for generateName, whatever the instance name', () => {
    for (const instance of ['a'.repeat(253), `${'a'.repeat(47)}-b`, 'x.y.z', `${'a'.repeat(40)}.${'b'.repeat(40)}`]) {
      const name = backupName(instance, at);
      expect(name.length).toBeLessThanOrEqual(63);
      expect(name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
      expect(`${backupName(instance, at, { asPrefix: true })}abcde`.length).toBeLessThanOrEqual(63);
    }
  });
});
