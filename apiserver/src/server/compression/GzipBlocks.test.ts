import { describe, expect, it } from '@jest/globals';
import { gunzipSync } from 'node:zlib';
import { GzipBlocks } from './GzipBlocks';

const COMMA: Buffer = Buffer.from(',');

/** A list body as the list handlers build it: header, objects joined by one shared comma, footer. */
function listPieces(objects: Buffer[], rv: string): Buffer[] {
  const pieces: Buffer[] = [Buffer.from(`{"metadata":{"resourceVersion":"${rv}"},"items":[`)];
  objects.forEach((o, i) => {
    if (i > 0) pieces.push(COMMA);
    pieces.push(o);
  });
  pieces.push(Buffer.from(']}'));
  return pieces;
}

const object = (i: number, rev = 0) =>
  Buffer.from(JSON.stringify({ metadata: { name: `db-${i}`, resourceVersion: String(rev) }, spec: { replicas: i % 5, filler: 'x'.repeat(300 + (i % 700)) } }));

describe('GzipBlocks', () => {
  it('compresses a list into gzip members that decompress to exactly the body', async () => {
    const blocks = new GzipBlocks({ blockBytes: 8 * 1024 });
    const pieces = listPieces(Array.from({ length: 2000 }, (_, i) => object(i)), '7');
    const members = await blocks.compress(pieces);
    expect(members.length).toBeGreaterThan(20);
    const body = gunzipSync(Buffer.concat(members));
    expect(body.equals(Buffer.concat(pieces))).toBe(true);
    expect(JSON.parse(body.toString()).items).toHaveLength(2000);
  });

  it('recompresses only the blocks around a changed, added or removed object', async () => {
    const blocks = new GzipBlocks({ blockBytes: 8 * 1024 });
    const objects = Array.from({ length: 2000 }, (_, i) => object(i));
    const first = await blocks.compress(listPieces(objects, '1'));
    const cold = blocks.stats();
    expect(cold.hits).toBe(0);

    objects[1000] = object(1000, 1); // changed
    objects.splice(500, 0, object(5000)); // added
    objects.splice(1500, 1); // removed
    const pieces = listPieces(objects, '2');
    const second = await blocks.compress(pieces);
    const warm = blocks.stats();
    const misses = warm.misses - cold.misses;
    // each change invalidates its own block and at most the next one (a moved boundary)
    expect(misses).toBeGreaterThanOrEqual(3);
    expect(misses).toBeLessThanOrEqual(6);
    expect(warm.hits).toBeGreaterThan(first.length - 10);
    expect(gunzipSync(Buffer.concat(second)).equals(Buffer.concat(pieces))).toBe(true);
  });

  it('shares a block being compressed between concurrent requests', async () => {
    const blocks = new GzipBlocks({ blockBytes: 8 * 1024 });
    const pieces = listPieces(Array.from({ length: 500 }, (_, i) => object(i)), '1');
    const [a, b] = await Promise.all([blocks.compress(pieces), blocks.compress(pieces)]);
    expect(Buffer.concat(a).equals(Buffer.concat(b))).toBe(true);
    expect(blocks.stats().misses).toBe(a.length - 2);
  });

  it('keeps within its byte budget and drops blocks left unused', async () => {
    let now = 0;
    const blocks = new GzipBlocks({ blockBytes: 8 * 1024, maxBytes: 64 * 1024, idleMs: 1000, now: () => now });
    for (let rev = 0; rev < 5; rev++) {
      await blocks.compress(listPieces(Array.from({ length: 2000 }, (_, i) => object(i, rev)), String(rev)));
      await blocks.compress([Buffer.from('['), Buffer.from(']')]); // evicts what the last compression added
      expect(blocks.stats().bytes).toBeLessThanOrEqual(64 * 1024 + 16 * 1024);
    }
    now = 5000;
    await blocks.compress([Buffer.from('['), object(1), Buffer.from(']')]);
    expect(blocks.stats().entries).toBe(1);
  });

  it('gives small bodies one member per piece', async () => {
    const members = await new GzipBlocks().compress([Buffer.from('{"a":'), Buffer.from('1}')]);
    expect(gunzipSync(Buffer.concat(members)).toString()).toBe('{"a":1}');
  });

  it('remembers the member of a list end by its bytes, not by the buffer', () => {
    const blocks = new GzipBlocks();
    const header = (rv: string) => Buffer.from(`{"kind":"Table","metadata":{"resourceVersion":"${rv}"},"rows":[`);
    const first = blocks.end(header('7'));
    // a new Buffer with the same bytes (each request encodes its header again)
    expect(blocks.end(header('7'))).toBe(first);
    const changed = blocks.end(header('8'));
    expect(changed).not.toBe(first);
    expect(gunzipSync(changed).toString()).toBe(header('8').toString());
    expect(gunzipSync(first).toString()).toBe(header('7').toString());
  });

  it('does not remember large ends, nor more than a few', () => {
    const blocks = new GzipBlocks();
    const large = Buffer.alloc(64 * 1024, 'a');
    expect(blocks.end(large)).not.toBe(blocks.end(large));
    const first = blocks.end(Buffer.from('{"rv":"0"}'));
    for (let i = 1; i <= 64; i++) blocks.end(Buffer.from(`{"rv":"${i}"}`));
    expect(blocks.end(Buffer.from('{"rv":"0"}'))).not.toBe(first);
  });
});
