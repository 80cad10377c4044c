import { describe, expect, it } from '@jest/globals';
import { summarizeProfile, type CpuProfile } from './summarizeProfile';

const frame = (functionName: string) => ({ functionName, url: 'file:///x/src/a.ts', lineNumber: 0 });

describe('summarizeProfile', () => {
  it('attributes sample time to the sampled function and, once each, to its callers', () => {
    // root → main → encode → encode (recursion); root → (idle)
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(root)'), children: [2, 5] },
        { id: 2, callFrame: frame('main'), children: [3] },
        { id: 3, callFrame: frame('encode'), children: [4] },
        { id: 4, callFrame: frame('encode') },
        { id: 5, callFrame: frame('(idle)') },
      ],
      samples: [4, 4, 3, 2, 5],
      timeDeltas: [1000, 1000, 2000, 1000, 5000],
    };
    const s = summarizeProfile(profile);
    expect(s.totalMs).toBe(10);
    expect(s.self).toEqual([
      { fn: '(idle) src/a.ts:1', ms: 5 },
      { fn: 'encode src/a.ts:1', ms: 4 },
      { fn: 'main src/a.ts:1', ms: 1 },
    ]);
    expect(s.inclusive.find(e => e.fn.startsWith('encode'))!.ms).toBe(4);
    expect(s.inclusive.find(e => e.fn.startsWith('main'))!.ms).toBe(5);
    expect(s.inclusive[0]).toEqual({ fn: '(root) src/a.ts:1', ms: 10 });
  });
});
