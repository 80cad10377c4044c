import { gzip, gzipSync } from 'node:zlib';

/** Options of {@link GzipBlocks}. */
export interface GzipBlocksOptions {
  /** zlib level of cached blocks (compressed once, served many times, so not kube-apiserver's 1). */
  level?: number;
  /** Average uncompressed size of one block (`compressBody` may be given another). */
  blockBytes?: number;
  /** Compressed bytes kept at most (least recently used dropped first). */
  maxBytes?: number;
  /** A block unused for this long is dropped (old versions of changed objects go away). */
  idleMs?: number;
  now?: () => number;
}

interface Entry {
  ids: Uint32Array;
  gz: Promise<Buffer>;
  bytes: number;
  usedAt: number;
}

/** Usage figures, for tests and the benchmark's notes. */
export interface GzipBlocksStats {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
}

/** List ends remembered (oldest dropped first), and the largest one remembered. */
const END_ENTRIES = 64;
const END_MAX_BYTES = 16 * 1024;

/** Knuth's multiplicative hash: a stable pseudo-random 32-bit value per id. */
const mix = (id: number) => Math.imul(id, 2654435761) >>> 0;

/**
 * Gzip of a response given as pieces (pre-encoded objects and the separators between them),
 * without compressing the whole body per request: the pieces are cut into blocks, each block is
 * one gzip member (RFC 1952 §2.2: a gzip stream is a series of members; Go's gzip reader, which
 * kubectl and kube-apiserver use, and Node's read them as one stream), and a block's member is
 * cached by the identity of the pieces in it. Pre-encoded pieces are the same Buffer until their
 * object changes, so a list after one change recompresses one block, not 10,000 objects.
 *
 * Block boundaries depend on the pieces themselves (content-defined, as in rsync): a piece ends a
 * block with a probability proportional to its size, decided by a hash of its identity. Inserting
 * or removing an object then changes only the block around it, not every block after it.
 */
export class GzipBlocks {
  private readonly ids = new WeakMap<Buffer, number>();
  private nextId = 1;
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private readonly level: number;
  private readonly blockBytes: number;
  private readonly maxBytes: number;
  private readonly idleMs: number;
  private readonly now: () => number;
  private hits = 0;
  private misses = 0;
  private readonly ends = new Map<string, Buffer>();

  constructor(options: GzipBlocksOptions = {}) {
    this.level = options.level ?? 6;
    this.blockBytes = options.blockBytes ?? 128 * 1024;
    this.maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
    this.idleMs = options.idleMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * Gzip members whose concatenation decompresses to the concatenation of `pieces`. The first
   * and the last piece (a list's header with its resourceVersion, and its closing bracket) are
   * compressed on their own every time; everything between comes from the cache.
   */
  async compress(pieces: readonly Buffer[]): Promise<Buffer[]> {
    if (pieces.length <= 2) return pieces.map(p => this.end(p));
    const last = pieces.length - 1;
    return [this.end(pieces[0]), ...(await this.compressBody(pieces.slice(1, last))!), this.end(pieces[last])];
  }

  /**
   * The gzip member of a list's first or last piece, remembered by its bytes: the same header
   * (resourceVersion, a Table's column definitions) goes out with every list until something
   * changes, and setting up zlib's deflate state for a few KiB cost 50 µs a call.
   */
  end(piece: Buffer): Buffer {
    if (piece.length > END_MAX_BYTES) return gzipSync(piece, { level: this.level });
    const key = piece.toString('latin1');
    let gz = this.ends.get(key);
    if (!gz) {
      gz = gzipSync(piece, { level: this.level });
      if (this.ends.size >= END_ENTRIES) this.ends.delete(this.ends.keys().next().value!);
      this.ends.set(key, gz);
    }
    return gz;
  }

  /**
   * Gzip members of `pieces`, every one of them from the cache of blocks. With
   * `maxMissingBytes`, undefined (and nothing compressed) when more than that many bytes are not
   * cached: compressing tens of MiB (level 6, some 40 MB/s) would cost the client more than the
   * bytes it saves on a fast network.
   */
  compressBody(pieces: readonly Buffer[], maxMissingBytes = Infinity, blockBytes = this.blockBytes): Promise<Buffer[]> | undefined {
    const now = this.now();
    this.evict(now);
    const blocks: Array<{ start: number; end: number; key: string; size: number }> = [];
    let start = 0;
    let size = 0;
    let h1 = 0x811c9dc5;
    let h2 = 0;
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i];
      const id = this.idOf(piece);
      h1 = Math.imul(h1 ^ id, 16777619) >>> 0;
      h2 = (Math.imul(h2, 31) + id) >>> 0;
      size += piece.length;
      // a boundary needs a piece of some size (shared separators, commas, would cut everywhere)
      // and half a block before it: blocks of even sizes, so a changed piece is rarely in a big one
      const boundary =
        (size >= blockBytes / 2 && piece.length >= 16 && mix(id) / 4294967296 < (2 * piece.length) / blockBytes) ||
        size >= 4 * blockBytes;
      if (boundary || i === pieces.length - 1) {
        blocks.push({ start, end: i + 1, key: `${h1}:${h2}:${i + 1 - start}`, size });
        start = i + 1;
        size = 0;
        h1 = 0x811c9dc5;
        h2 = 0;
      }
    }
    if (maxMissingBytes !== Infinity) {
      let missing = 0;
      for (const b of blocks) {
        const hit = this.entries.get(b.key);
        if (!hit || !this.sameIds(hit.ids, pieces, b.start, b.end)) missing += b.size;
      }
      if (missing > maxMissingBytes) return undefined;
    }
    return Promise.all(blocks.map(b => this.block(pieces, b.start, b.end, b.key, b.size, now)));
  }

  stats(): GzipBlocksStats {
    return { hits: this.hits, misses: this.misses, entries: this.entries.size, bytes: this.bytes };
  }

  private idOf(piece: Buffer): number {
    let id = this.ids.get(piece);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(piece, id);
    }
    return id;
  }

  private block(pieces: readonly Buffer[], start: number, end: number, key: string, size: number, now: number): Promise<Buffer> {
    const hit = this.entries.get(key);
    if (hit && this.sameIds(hit.ids, pieces, start, end)) {
      this.hits++;
      hit.usedAt = now;
      // re-inserted: the map's order is least recently used first
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.gz;
    }
    this.misses++;
    if (hit) this.drop(key, hit);
    const ids = new Uint32Array(end - start);
    for (let i = start; i < end; i++) ids[i - start] = this.idOf(pieces[i]);
    const input = Buffer.concat(pieces.slice(start, end) as Buffer[], size);
    const entry: Entry = {
      ids,
      bytes: 0,
      usedAt: now,
      // on libuv's thread pool: a cold 10,000-instance list does not block the event loop
      gz: new Promise<Buffer>((resolve, reject) =>
        gzip(input, { level: this.level }, (err, out) => (err ? reject(err) : resolve(out))),
      ),
    };
    entry.gz.then(
      out => {
        if (this.entries.get(key) !== entry) return;
        entry.bytes = out.length;
        this.bytes += out.length;
        if (this.bytes > this.maxBytes) this.evict(this.now());
      },
      () => this.entries.get(key) === entry && this.drop(key, entry),
    );
    this.entries.set(key, entry);
    return entry.gz;
  }

  private sameIds(ids: Uint32Array, pieces: readonly Buffer[], start: number, end: number): boolean {
    if (ids.length !== end - start) return false;
    for (let i = start; i < end; i++) if (this.ids.get(pieces[i]) !== ids[i - start]) return false;
    return true;
  }

  private drop(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }

  private evict(now: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.usedAt > now - this.idleMs && this.bytes <= this.maxBytes) break;
      this.drop(key, entry);
    }
  }
}
