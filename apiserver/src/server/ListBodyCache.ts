import type { GzipBlocks } from './compression/GzipBlocks';

/** The encoded items of one list (objects and the commas between them), with their gzip. */
export class ListBody {
  private gz?: Promise<Buffer[]> | null;
  /** Total length of the pieces. */
  readonly bytes: number;

  constructor(
    readonly pieces: readonly Buffer[],
    private readonly blocks: GzipBlocks,
    /** Most bytes compressed for it at once (see `GzipBlocks.compressBody`); more: sent uncompressed. */
    private readonly maxMissingBytes = Infinity,
    /** Whether a refused body may fill the cache in the background (rate-limited by the cache). */
    private readonly mayWarm: () => boolean = () => false,
  ) {
    let n = 0;
    for (const p of pieces) n += p.length;
    this.bytes = n;
  }

  /** Gzip members of the pieces, computed once per body; undefined when too much is not cached. */
  gzipped(): Promise<Buffer[]> | undefined {
    if (this.gz === undefined) {
      this.gz = this.blocks.compressBody(this.pieces, this.maxMissingBytes) ?? null;
      // sent uncompressed now; the blocks are compressed off the event loop for the next request
      // (where nothing moves, as the ages of objects days old, the next one is compressed)
      if (this.gz === null && this.mayWarm()) this.blocks.compressBody(this.pieces)?.catch(() => undefined);
    }
    return this.gz ?? undefined;
  }
}

/**
 * Encoded list bodies by the identity of the item array they were built from. The store hands
 * out the same sorted array until an instance changes, so lists between two changes (a
 * dashboard, a controller relisting, `kubectl get -A` in a loop) reuse one body and its gzip
 * instead of walking 10,000 objects; the array changes with any instance, so a body is never
 * stale. Only the latest `version` of a format is kept (Table bodies are versioned by the second
 * their ages were computed at).
 */
export class ListBodyCache {
  private readonly bodies = new WeakMap<object, Map<string, { version: number; body: ListBody }>>();
  /** When each format last filled the gzip cache in the background. */
  private readonly warmedAt = new Map<string, number>();

  constructor(private readonly blocks: GzipBlocks) {}

  body(items: object, format: string, version: number, build: () => Buffer[], maxMissingBytes?: number): ListBody {
    let byFormat = this.bodies.get(items);
    if (!byFormat) {
      byFormat = new Map();
      this.bodies.set(items, byFormat);
    }
    const hit = byFormat.get(format);
    if (hit && hit.version === version) return hit.body;
    const body = new ListBody(build(), this.blocks, maxMissingBytes, () => {
      // at most every 10 s per format: a Table of young objects changes every block every second
      const now = Date.now();
      if (now - (this.warmedAt.get(format) ?? 0) < 10_000) return false;
      this.warmedAt.set(format, now);
      return true;
    });
    byFormat.set(format, { version, body });
    return body;
  }
}
