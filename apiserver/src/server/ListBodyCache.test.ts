import { describe, expect, it } from '@jest/globals';
import { gunzipSync } from 'node:zlib';
import { GzipBlocks } from './compression/GzipBlocks';
import { ListBodyCache } from './ListBodyCache';

describe('ListBodyCache', () => {
  const pieces = (text: string) => text.split('').map(c => Buffer.from(c.repeat(40)));

  it('builds a body once per item array and format, until it says it would read differently', async () => {
    const cache = new ListBodyCache(new GzipBlocks());
    const items = [{}, {}];
    let builds = 0;
    const build = () => {
      builds++;
      return { pieces: pieces('abc') };
    };
    const a = cache.body(items, 'json', 0, build);
    expect(cache.body(items, 'json', 5000, build)).toBe(a);
    expect(builds).toBe(1);
    cache.body(items, 'table', 0, build);
    cache.body([...items], 'json', 0, build); // the store changed: another array
    expect(builds).toBe(3);
    expect(cache.body(items, 'json', 0, build)).toBe(a);

    // a Table built at 1,000 whose first age changes at 61,000
    const table = () => {
      builds++;
      return { pieces: pieces('abc'), validUntil: 61_000 };
    };
    const t = cache.body(items, 'table-ages', 1000, table);
    expect(cache.body(items, 'table-ages', 60_999, table)).toBe(t);
    expect(builds).toBe(4);
    expect(cache.body(items, 'table-ages', 61_000, table)).not.toBe(t);
    expect(builds).toBe(5);
  });

  it('compresses a body once, to members that decompress to its pieces', async () => {
    const body = new ListBodyCache(new GzipBlocks()).body([], 'json', 0, () => ({ pieces: pieces('xyz') }));
    const first = body.gzipped();
    expect(body.gzipped()).toBe(first);
    expect(gunzipSync(Buffer.concat((await first)!)).toString()).toBe(`${'x'.repeat(40)}${'y'.repeat(40)}${'z'.repeat(40)}`);
  });

  it('sends a body uncompressed when too much of it is not cached, and fills the cache meanwhile', async () => {
    const blocks = new GzipBlocks({ blockBytes: 1024 });
    const cache = new ListBodyCache(blocks);
    const rows = Array.from({ length: 200 }, (_, i) => Buffer.from(`{"cells":["row-${i}","${'x'.repeat(100)}"]}`));
    const first = cache.body([], 'table', 1000, () => ({ pieces: rows, validUntil: 2000 }), { maxMissingBytes: () => 4096 });
    expect(first.gzipped()).toBeUndefined();
    // the refused body's blocks were compressed in the background: it is served gzipped now, and
    // so is the next body made of the same pieces (a Table a minute later)
    // waits for those very blocks: GzipBlocks shares a block's compression in flight
    await blocks.compressBody(rows, Infinity);
    expect(gunzipSync(Buffer.concat((await first.gzipped())!)).equals(Buffer.concat(rows))).toBe(true);
    const next = cache.body([], 'table', 2000, () => ({ pieces: rows, validUntil: 3000 }), { maxMissingBytes: () => 4096 });
    const members = await next.gzipped();
    expect(gunzipSync(Buffer.concat(members!)).equals(Buffer.concat(rows))).toBe(true);
  });
});
