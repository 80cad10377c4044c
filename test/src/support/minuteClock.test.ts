import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { minuteClock } from './minuteClock';

describe('minuteClock', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });
  const wallAt = (iso: string) => jest.spyOn(Date, 'now').mockReturnValue(Date.parse(iso));

  it('starts behind the wall clock and moves forward to the lead before its next minute', () => {
    wallAt('2026-12-07T10:00:20.000Z');
    const clock = minuteClock(180_000);
    expect(clock.now().toISOString()).toBe('2026-12-07T09:57:20.000Z');
    clock.nearMinute(10_000);
    expect(clock.now().toISOString()).toBe('2026-12-07T09:57:50.000Z');
    // nearer already: it stays
    clock.nearMinute(15_000);
    expect(clock.now().toISOString()).toBe('2026-12-07T09:57:50.000Z');
    // the wall clock moves on, the offset stays
    wallAt('2026-12-07T10:00:25.000Z');
    expect(clock.now().toISOString()).toBe('2026-12-07T09:57:55.000Z');
  });

  it('never runs ahead of the wall clock', () => {
    wallAt('2026-12-07T10:00:20.000Z');
    const clock = minuteClock(20_000);
    // 10:00:00 now; 10 s before its next minute would be 10:00:50, ahead of the wall's 10:00:20
    expect(() => clock.nearMinute(10_000)).toThrow(/ahead of the wall clock/);
    expect(clock.now().toISOString()).toBe('2026-12-07T10:00:00.000Z');
  });
});
