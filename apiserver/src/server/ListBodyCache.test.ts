import { describe, expect, it } from '@jest/globals';
import { gunzipSync } from 'node:zlib';
import { GzipBlocks } from './compression/GzipBlocks';
import { ListBodyCache } from './ListBodyCache';

describe('ListBodyCache', () => {
  const pieces = (text: string) => text.split('').map(c => Buffer.from(c.repeat(40)));

  it('builds a body once per item array, format and version', async () => {
    const cache = new ListBodyCache(new GzipBlocks());
    const items = [{}, {}];
    let builds = 0;
    const build = () => {
      builds++;
      return pieces('abc');
    };
    const a = cache.body(items, 'json', 0, build);
    expect(cache.body(items, 'json', 0, build)).toBe(a);
    expect(builds).toBe(1);
    cache.body(items, 'table', 0, build);
    cache.body(items, 'json', 1, build); // a Table's next second replaces the last one
    cache.body([...items], 'json', 1, build); // the store changed: another array
    expect(builds).toBe(4);
    expect(cache.body(items, 'json', 1, build)).not.toBe(a);
    expect(builds).toBe(4);
  });

  it('compresses a body once, to members that decompress to its pieces', async () => {
    const body = new ListBodyCache(new GzipBlocks()).body([], 'json', 0, () => pieces('xyz'));
    const first = body.gzipped();
    expect(body.gzipped()).toBe(first);
    expect(gunzipSync(Buffer.concat(await first)).toString()).toBe(`${'x'.repeat(40)}${'y'.repeat(40)}${'z'.repeat(40)}`);
  });
});
