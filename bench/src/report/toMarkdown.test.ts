import { describe, expect, it } from '@jest/globals';
import { makeFigure } from './Figure';
import { toMarkdown } from './toMarkdown';

describe('toMarkdown', () => {
  it('puts sizes in columns, marks only where a target applies, and shows missing sizes', () => {
    const md = toMarkdown({
      date: '',
      commit: 'abc1234',
      command: 'yarn bench',
      machine: { cpus: 2, cpuModel: '', memoryMiB: 0, node: '', platform: '', loadavg: [] },
      errors: [],
      figures: [
        makeFigure('list p50', 1000, 3.21, 'ms'),
        makeFigure('list p50', 10000, 31.4, 'ms', { op: '<=', value: 30 }),
        makeFigure('ratio', 10000, 0.123, 'ratio', { op: '<=', value: 0.5 }),
        makeFigure('cut off', 1000, 1, 'bool', { op: '>=', value: 1 }),
      ],
    });
    expect(md.split('\n')).toEqual([
      '| figure | 1,000 | 10,000 | target |',
      '|---|---:|---:|---|',
      '| list p50 (ms) | 3.2 | 31.4 ❌ | ≤ 30 |',
      '| ratio (ratio) | – | 0.12 ✅ | ≤ 0.5 |',
      '| cut off (bool) | yes ✅ | – | ≥ 1 |',
    ]);
  });
});
