import { describe, expect, it } from '@jest/globals';
import { ringDelete, ringFilter, ringGet, ringPut } from './mirrorRing';

describe('mirrorRing', () => {
  it('puts the newest last, moves a mirror written again to the end, and drops the oldest beyond max', () => {
    let { ring, dropped } = ringPut(undefined, 'a', 1, 2);
    expect(ring).toEqual(['a', 1]);
    expect(dropped).toEqual([]);
    ({ ring } = ringPut(ring, 'b', 2, 2));
    ({ ring, dropped } = ringPut(ring, 'a', 3, 2));
    expect(ring).toEqual(['b', 2, 'a', 3]);
    expect(dropped).toEqual([]);
    ({ ring, dropped } = ringPut(ring, 'c', 4, 2));
    expect(ring).toEqual(['a', 3, 'c', 4]);
    expect(dropped).toEqual(['b']);
  });

  it('drops as many as the ring is over a lowered max', () => {
    const { ring, dropped } = ringPut(['a', 1, 'b', 2, 'c', 3], 'd', 4, 2);
    expect(ring).toEqual(['c', 3, 'd', 4]);
    expect(dropped).toEqual(['a', 'b']);
  });

  it('gets a signature by name, and nothing for a name it does not hold', () => {
    expect(ringGet(['a', 1, 'b', 2], 'b')).toBe(2);
    expect(ringGet(['a', 1], 'z')).toBeUndefined();
    expect(ringGet(undefined, 'a')).toBeUndefined();
  });

  it('deletes and filters without changing the ring it was given', () => {
    const ring = ['a', 1, 'b', 2, 'c', 3];
    expect(ringDelete(ring, 'b')).toEqual(['a', 1, 'c', 3]);
    expect(ringFilter(ring, n => n !== 'a')).toEqual(['b', 2, 'c', 3]);
    expect(ringFilter(ring, () => true)).toBe(ring);
    expect(ring).toEqual(['a', 1, 'b', 2, 'c', 3]);
  });
});
