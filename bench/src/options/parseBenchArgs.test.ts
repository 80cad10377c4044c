import { describe, expect, it } from '@jest/globals';
import { GROUPS, parseBenchArgs } from './parseBenchArgs';

describe('parseBenchArgs', () => {
  it('defaults to the issue: three sizes, every group, full repetitions, results saved', () => {
    const o = parseBenchArgs([]);
    expect(o.sizes).toEqual([1000, 10_000, 50_000]);
    expect(o.only).toEqual([...GROUPS]);
    expect(o.iterations).toMatchObject({ watchers: 1000, eventStreams: 500, large: 60 });
    expect(o.save).toBe(true);
  });

  it('reads sizes, groups, quick/smoke and explicit repetitions', () => {
    const o = parseBenchArgs(['--sizes', '1000,10_000', '--only=list,watch', '--quick', '--iterations', '3', '--no-save', '--out', 'x']);
    expect(o).toMatchObject({ sizes: [1000, 10_000], only: ['list', 'watch'], save: false, outDir: 'x' });
    expect(o.iterations).toMatchObject({ warmup: 1, large: 3, small: 3, watchRounds: 3, watchers: 1000 });
    expect(parseBenchArgs(['--smoke']).iterations).toMatchObject({ watchers: 20, changeBurst: 100 });
  });

  it.each([
    [['--sizes', '0'], /--sizes/],
    [['--only', 'everything'], /unknown group everything/],
    [['--iterations'], /needs a value/],
    [['--fast'], /unknown argument --fast/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseBenchArgs(argv)).toThrow(message);
  });
});
