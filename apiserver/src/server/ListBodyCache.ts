import type { GzipBlocks } from './compression/GzipBlocks';

/** How a list body is compressed. */
export interface ListBodyGzipOptions {
  /** Most bytes compressed for it at once, given its size (see `GzipBlocks.compressBody`); more: sent uncompressed. */
  maxMissingBytes?: (bodyBytes: number) => number;
  /** Average size of its gzip blocks (`GzipBlocks`' own when unset). */
  blockBytes?: number;
}

/** The encoded items of one list (objects and the commas between them), with their gzip. */
export class ListBody {
  private gz?: Promise<Buffer[]> | null;
  private refusedAt = 0;
  /** Total length of the pieces. */
  readonly bytes: number;

  constructor(
    readonly pieces: readonly Buffer[],
    private readonly blocks: GzipBlocks,
    private readonly gzipOptions: ListBodyGzipOptions = {},
    /** Whether a refused body may fill the cache in the background (rate-limited by the cache). */
    private readonly mayWarm: () => boolean = () => false,
  ) {
    let n = 0;
    for (const p of pieces) n += p.length;
    this.bytes = n;
  }

  /**
   * Gzip members of the pieces, computed once per body; undefined when too much is not cached
   * (asked again once the cache was filled, or a second later).
   */
  gzipped(now = Date.now()): Promise<Buffer[]> | undefined {
    if (this.gz === undefined || (this.gz === null && now - this.refusedAt >= 1000)) {
      const { maxMissingBytes, blockBytes } = this.gzipOptions;
      this.gz = this.blocks.compressBody(this.pieces, maxMissingBytes?.(this.bytes), blockBytes) ?? null;
      if (this.gz === null) {
        this.refusedAt = now;
        // sent uncompressed now; the blocks are compressed off the event loop for the next request
        if (this.mayWarm()) {
          this.blocks
            .compressBody(this.pieces, Infinity, blockBytes)
            ?.then(() => this.gz === null && (this.gz = undefined))
            .catch(() => undefined);
        }
      }
    }
    return this.gz ?? undefined;
  }
}

/** What a list body is built into: its pieces, and until when they are right (a Table's ages). */
export interface BuiltListBody {
  pieces: Buffer[];
  /** Epoch ms from which the body would read differently; never when unset. */
  validUntil?: number;
}

/**
 * Encoded list bodies by the identity of the item array they were built from. The store hands
 * out the same sorted array until an instance changes, so lists between two changes (a
 * dashboard, a controller relisting, `kubectl get -A` in a loop) reuse one body and its gzip
 * instead of walking 10,000 objects; the array changes with any instance, so a body is never
 * stale. A Table's body is also rebuilt when one of its ages would read differently; only the
 * latest body of a format is kept.
 */
export class ListBodyCache {
  private readonly bodies = new WeakMap<object, Map<string, { validUntil: number; body: ListBody }>>();
  /** When each format last filled the gzip cache in the background. */
  private readonly warmedAt = new Map<string, number>();

  constructor(private readonly blocks: GzipBlocks) {}

  body(items: object, format: string, now: number, build: () => BuiltListBody, gzipOptions?: ListBodyGzipOptions): ListBody {
    let byFormat = this.bodies.get(items);
    if (!byFormat) {
      byFormat = new Map();
      this.bodies.set(items, byFormat);
    }
    const hit = byFormat.get(format);
    if (hit && now < hit.validUntil) return hit.body;
    const built = build();
    const body = new ListBody(built.pieces, this.blocks, gzipOptions, () => {
      // at most every 10 s per format: a Table of young objects changes every block every second
      const at = Date.now();
      if (at - (this.warmedAt.get(format) ?? 0) < 10_000) return false;
      this.warmedAt.set(format, at);
      return true;
    });
    byFormat.set(format, { validUntil: built.validUntil ?? Infinity, body });
    return body;
  }
}
