import { describe, expect, it } from '@jest/globals';
import { kubeTime, nextCronTime, parseCron, validateCron, withoutSeconds, withSeconds } from './cron';
import { asGoDuration, validateRetention } from './retention';

describe('a schedule\'s 5-field cron', () => {
  it.each(['*/1 * * * *', '0 3 * * *', '30 2 * * 1-5', '0 0 1 JAN,jul *', '15 */6 1,15 * SUN', '0 0 * * 7', '  5 4 * * *  '])('takes %j', cron => {
    expect(validateCron(cron)).toEqual([]);
  });

  it('refuses 6 fields (seconds), naming spec.schedule and saying why', () => {
    const [cause] = validateCron('* * * * * *');
    expect(cause).toMatchObject({ reason: 'FieldValueInvalid', field: 'spec.schedule' });
    expect(cause.message).toContain('6 fields carry seconds');
    expect(cause.message).toContain('at most once a minute');
  });

  it.each([
    ['61 * * * *', 'outside 0-59'],
    ['* * *', 'expected exactly 5 fields, found 3'],
    ['* * * * MON-', '"" is not a number'],
    ['*/0 * * * *', 'a step must be at least 1'],
    ['5-1 * * * *', 'starts after it ends'],
    ['x * * * *', '"x" is not a number'],
    ['@daily', 'descriptors'],
  ])('refuses %j (%s)', (cron, words) => {
    const causes = validateCron(cron);
    expect(causes).toHaveLength(1);
    expect(causes[0].field).toBe('spec.schedule');
    expect(causes[0].message).toContain(words);
  });

  it('requires one, as a string', () => {
    expect(validateCron(undefined)[0]).toMatchObject({ reason: 'FieldValueRequired', field: 'spec.schedule' });
    expect(validateCron(5)[0]).toMatchObject({ reason: 'FieldValueInvalid', field: 'spec.schedule' });
  });

  it("translates to CloudNativePG's 6 fields (seconds first) and back", () => {
    expect(withSeconds(' */1  * * * * ')).toBe('0 */1 * * * *');
    expect(withoutSeconds('0 0 0 * * *')).toBe('0 0 * * *');
    expect(withoutSeconds('30 0 0 * * *')).toBeUndefined();
    expect(withoutSeconds('0 0 * * *')).toBeUndefined();
  });

  it('fires next at the first matching minute after a time (UTC)', () => {
    const next = (cron: string, after: string) => kubeTime(nextCronTime(parseCron(cron), new Date(after))!);
    expect(next('*/1 * * * *', '2026-07-01T10:02:30Z')).toBe('2026-07-01T10:03:00Z');
    expect(next('*/1 * * * *', '2026-07-01T10:03:00Z')).toBe('2026-07-01T10:04:00Z');
    expect(next('0 3 * * *', '2026-07-01T10:02:30Z')).toBe('2026-07-02T03:00:00Z');
    expect(next('0 0 * * MON', '2026-07-01T00:00:00Z')).toBe('2026-07-06T00:00:00Z');
    // day of month and day of week both restricted: either matches
    expect(next('0 0 13 * FRI', '2026-07-01T00:00:00Z')).toBe('2026-07-03T00:00:00Z');
  });
});

describe("a schedule's retention", () => {
  it.each(['30d', '720h', '36h30m', '90m'])('takes %j', r => expect(validateRetention(r)).toEqual([]));
  it.each(['30', '1w', 'forever', '0d', '0h', ''])('refuses %j naming spec.retention', r => {
    expect(validateRetention(r)[0]).toMatchObject({ reason: 'FieldValueInvalid', field: 'spec.retention' });
  });
  it('days become hours for a Go duration (mariadb-operator maxRetention)', () => {
    expect(asGoDuration('30d')).toBe('720h');
    expect(asGoDuration('36h30m')).toBe('36h30m');
  });
});
