import { describe, expect, it } from '@jest/globals';
import { lastCronBetween, nextCron, parseCron } from './cron';

const at = (iso: string) => new Date(iso);
const next = (expr: string, after: string, seconds = false) =>
  nextCron(parseCron(expr, seconds), at(after))?.toISOString();

describe('cron schedules', () => {
  it.each([
    ['*/1 * * * *', '2025-01-01T10:00:30Z', '2025-01-01T10:01:00.000Z'],
    ['0 3 * * *', '2025-01-01T10:00:00Z', '2025-01-02T03:00:00.000Z'],
    ['30 2 * * 1-5', '2025-01-03T03:00:00Z', '2025-01-06T02:30:00.000Z'], // Friday → Monday
    ['@daily', '2025-01-01T00:00:00Z', '2025-01-02T00:00:00.000Z'],
    ['0 0 1 JAN *', '2025-03-01T00:00:00Z', '2026-01-01T00:00:00.000Z'],
    ['0 0 13 * FRI', '2025-01-01T00:00:00Z', '2025-01-03T00:00:00.000Z'], // day of month OR day of week
  ])('%s after %s → %s (Kubernetes CronJob, 5 fields)', (expr, after, expected) =>
    expect(next(expr, after)).toBe(expected),
  );

  it('reads CloudNativePG schedules with seconds first (6 fields)', () => {
    expect(next('0 0 0 * * *', '2025-01-01T10:00:00Z', true)).toBe('2025-01-02T00:00:00.000Z');
    expect(next('*/20 * * * * *', '2025-01-01T10:00:05Z', true)).toBe('2025-01-01T10:00:20.000Z');
    expect(() => parseCron('0 0 * * *', true)).toThrow('expected exactly 6 fields, found 5');
    expect(() => parseCron('0 0 0 * * *')).toThrow('expected exactly 5 fields, found 6');
  });

  it('finds the latest firing missed since a time, as the CronJob controller does', () => {
    const s = parseCron('*/5 * * * *');
    expect(lastCronBetween(s, at('2025-01-01T10:00:00Z'), at('2025-01-01T10:17:00Z'))?.toISOString()).toBe(
      '2025-01-01T10:15:00.000Z',
    );
    expect(lastCronBetween(s, at('2025-01-01T10:00:00Z'), at('2025-01-01T10:04:59Z'))).toBeUndefined();
  });
});
