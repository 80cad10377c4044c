import { describe, expect, it } from '@jest/globals';
import { shouldSettle } from './heapSettler';

const MiB = 1024 * 1024;
const fragmented = { committed: 532 * MiB, used: 443 * MiB };

describe('shouldSettle', () => {
  it('compacts a quiet process whose old space holds a burst\'s holes, once per interval', () => {
    expect(shouldSettle(fragmented, 0.02, 300_000, 300_000)).toBe(true);
    // too soon after the last compaction (or the start), busy, or switched off
    expect(shouldSettle(fragmented, 0.02, 299_999, 300_000)).toBe(false);
    expect(shouldSettle(fragmented, 0.5, 600_000, 300_000)).toBe(false);
    expect(shouldSettle(fragmented, 0.02, 600_000, 0)).toBe(false);
  });

  it('leaves small or tightly used heaps alone: the pause must buy back enough', () => {
    // 40 MiB free: under 64 MiB
    expect(shouldSettle({ committed: 140 * MiB, used: 100 * MiB }, 0, 600_000, 300_000)).toBe(false);
    // 70 MiB free of 1 GiB: under a tenth
    expect(shouldSettle({ committed: 1024 * MiB, used: 954 * MiB }, 0, 600_000, 300_000)).toBe(false);
  });
});
