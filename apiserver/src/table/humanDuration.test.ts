import { describe, expect, it } from '@jest/globals';
import { age, humanDuration, humanDurationChangesAt } from './humanDuration';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;
const y = 365 * d;

describe('humanDuration (apimachinery HumanDuration)', () => {
  it.each([
    [-2 * s, '<invalid>'],
    [-1 * s, '0s'],
    [-500, '0s'],
    [0, '0s'],
    [119 * s, '119s'],
    [2 * m, '2m'],
    [5 * m + 12 * s, '5m12s'],
    [9 * m + 59 * s, '9m59s'],
    [10 * m + 30 * s, '10m'],
    [179 * m, '179m'],
    [3 * h, '3h'],
    [7 * h + 59 * m, '7h59m'],
    [8 * h + 30 * m, '8h'],
    [47 * h, '47h'],
    [2 * d, '2d'],
    [2 * d + 3 * h, '2d3h'],
    [8 * d, '8d'],
    [729 * d, '729d'],
    [2 * y, '2y'],
    [2 * y + 10 * d, '2y10d'],
    [8 * y + 10 * d, '8y'],
  ])('%d ms ⇒ %s', (ms, expected) => {
    expect(humanDuration(ms)).toBe(expected);
  });

  it('ages from creationTimestamp, <unknown> without one', () => {
    const now = Date.parse('2025-01-03T03:00:00Z');
    expect(age('2025-01-01T00:00:00Z', now)).toBe('2d3h');
    expect(age(undefined, now)).toBe('<unknown>');
  });
});

describe('humanDurationChangesAt', () => {
  it('names a time the text may change at, and it does not change before', () => {
    // every boundary where the format changes, and random durations up to ten years
    const samples = [-2500, -1000, -1, 0, 119_999, 120_000, 599_999, 600_000, 3 * h - 1, 8 * h - 1, 8 * h, 48 * h - 1, 8 * d - 1, 8 * d, 2 * y - 1, 8 * y - 1];
    for (let i = 0; i < 2000; i++) samples.push(Math.floor(Math.random() * 10 * y));
    for (const ms of samples) {
      const next = humanDurationChangesAt(ms);
      expect(next).toBeGreaterThan(ms);
      expect(humanDuration(next - 1)).toBe(humanDuration(ms));
    }
  });

  it('steps by the unit the text shows', () => {
    expect(humanDurationChangesAt(5 * m + 12 * s + 300)).toBe(5 * m + 13 * s);
    expect(humanDurationChangesAt(3 * h + 5 * m + 7 * s)).toBe(3 * h + 6 * m);
    expect(humanDurationChangesAt(2 * d + 3 * h + 5 * m)).toBe(2 * d + 4 * h);
    expect(humanDurationChangesAt(40 * d + 5 * h)).toBe(41 * d);
    // ten minutes and more: the next minute, though `10m` shows no seconds
    expect(humanDurationChangesAt(10 * m + 30 * s)).toBe(11 * m);
  });
});
