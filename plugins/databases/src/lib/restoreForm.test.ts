import { describe, expect, it } from '@jest/globals';
import { makeBackup, makeEngine, makeInstance } from '../testUtils/FakeDatabasesApi';
import { fromUtcInput, restoreBlocker, restoredName, restoreVersion, toRestoreRequest, toUtcInput, validateRestore } from './restoreForm';

const NOW = Date.parse('2026-12-01T12:00:00Z');
const source = makeInstance({ name: 'payments-pg', engine: 'postgresql', owner: 'group:default/team-a' }).instance;

describe('restoreForm', () => {
  it('names the new database after the source, within the engine\'s longest name', () => {
    expect(restoredName('orders-db')).toBe('orders-db-restored');
    const long = `${'a'.repeat(40)}-b`;
    expect(restoredName(long, 40)).toBe(`${'a'.repeat(31)}-restored`);
    expect(restoredName(long, 40)).toHaveLength(40);
  });

  it('reads and writes the picker in UTC, to the second', () => {
    expect(toUtcInput('2026-11-30T23:10:05.123Z')).toBe('2026-11-30T23:10:05');
    expect(toUtcInput('2026-12-01T01:10:05+02:00')).toBe('2026-11-30T23:10:05');
    expect(toUtcInput(undefined)).toBe('');
    expect(fromUtcInput('2026-11-30T23:10')).toBe('2026-11-30T23:10:00Z');
    expect(fromUtcInput('2026-11-30T23:10:05.000')).toBe('2026-11-30T23:10:05Z');
    expect(fromUtcInput('')).toBeUndefined();
    expect(fromUtcInput('2026-13-40T99:00')).toBeUndefined();
  });

  it('refuses a time in the future, before the earliest recoverable point, or none; a name taken by the source', () => {
    const values = { name: 'payments-pg-restored', storage: '1Gi', mode: 'time' as const, pointInTime: '2026-12-01T11:59:00' };
    expect(validateRestore(values, source, undefined, NOW)).toEqual({});
    expect(validateRestore({ ...values, pointInTime: '2026-12-01T12:00:01' }, source, undefined, NOW).pointInTime).toMatch(/in the future/);
    expect(validateRestore({ ...values, pointInTime: '' }, source, undefined, NOW).pointInTime).toMatch(/Pick a date/);
    const withFirst = { ...source, status: { ...source.status!, backup: { onDemand: true, schedule: true, restore: true, pointInTime: true, firstRecoverabilityPoint: '2026-12-01T00:00:00Z' } } };
    expect(validateRestore({ ...values, pointInTime: '2026-11-30T00:00:00' }, withFirst, undefined, NOW).pointInTime).toBe(
      'The earliest time payments-pg can go back to is 2026-12-01T00:00:00Z.',
    );
    // exactly the backup: no time asked
    expect(validateRestore({ ...values, mode: 'exact', pointInTime: '' }, source, undefined, NOW)).toEqual({});
    expect(validateRestore({ ...values, name: 'payments-pg' }, source, undefined, NOW).name).toMatch(/name of its own/);
  });

  it('sends restoreFrom as the backup or as the source instance and time, the rest copied from the source', () => {
    const backup = makeBackup({ name: 'payments-pg-nightly', instance: 'payments-pg', phase: 'Succeeded' });
    const values = { name: 'pg-restored', storage: '2Gi', mode: 'time' as const, pointInTime: '2026-12-01T11:59' };
    expect(toRestoreRequest(source, backup, values)).toEqual({
      name: 'pg-restored',
      owner: 'group:default/team-a',
      spec: {
        engine: 'postgresql',
        version: '11.4',
        topology: 'galera',
        replicas: 3,
        storage: { size: '2Gi' },
        restoreFrom: { instance: 'payments-pg', pointInTime: '2026-12-01T11:59:00Z' },
      },
    });
    expect(toRestoreRequest(source, backup, { ...values, mode: 'exact' }).spec.restoreFrom).toEqual({ backup: 'payments-pg-nightly' });
  });

  it("asks for the engine's listed version the source runs, not the operator's full one", () => {
    const mariadb = makeEngine('mariadb', true, { versions: ['11.8', '11.4', '10.11', '10.6'] });
    const running = (version: string) => makeInstance({ name: 'orders-db', version }).instance;
    expect(restoreVersion(running('11.4.2'), mariadb)).toBe('11.4');
    expect(restoreVersion(running('10.11'), mariadb)).toBe('10.11');
    // not listed: the source's own, for the apiserver to judge
    expect(restoreVersion(running('12.0.1'), mariadb)).toBe('12.0.1');
    expect(restoreVersion(running('11.4.2'), undefined)).toBe('11.4.2');
  });

  it('is blocked until the engine is known, where it cannot restore, and without the permission', () => {
    expect(restoreBlocker(true, undefined)).toMatch(/Reading/);
    expect(restoreBlocker(true, makeEngine('redis'))).toBe('redis-operator has no backup or restore objects');
    expect(restoreBlocker(false, makeEngine('mariadb'))).toMatch(/permission/);
    expect(restoreBlocker(true, makeEngine('mariadb'))).toBeUndefined();
  });
});
