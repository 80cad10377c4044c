import { describe, expect, it } from '@jest/globals';
import { linearSlope } from './linearSlope';

describe('linearSlope', () => {
  it('is the least-squares slope', () => {
    expect(linearSlope([{ x: 0, y: 1 }, { x: 1, y: 3 }, { x: 2, y: 5 }])).toBeCloseTo(2);
    expect(linearSlope([{ x: 0, y: 10 }, { x: 1, y: 12 }, { x: 2, y: 10 }, { x: 3, y: 12 }])).toBeCloseTo(0.4);
  });

  it('is 0 without enough points or spread', () => {
    expect(linearSlope([])).toBe(0);
    expect(linearSlope([{ x: 1, y: 5 }])).toBe(0);
    expect(linearSlope([{ x: 1, y: 5 }, { x: 1, y: 9 }])).toBe(0);
  });
});
