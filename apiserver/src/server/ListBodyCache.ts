import type { GzipBlocks } from './compression/GzipBlocks';

/** The encoded items of one list (objects and the commas between them), with their gzip. */
export class ListBody {
  private gz?: Promise<Buffer[]>;
  /** Total length of the pieces. */
  readonly bytes: number;

  constructor(
    readonly pieces: readonly Buffer[],
    private readonly blocks: GzipBlocks,
  ) {
    let n = 0;
    for (const p of pieces) n += p.length;
    this.bytes = n;
  }

  /** Gzip members of the pieces, computed once per body. */
  gzipped(): Promise<Buffer[]> {
    this.gz ??= this.blocks.compressBody(this.pieces);
    return this.gz;
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

  constructor(private readonly blocks: GzipBlocks) {}

  body(items: object, format: string, version: number, build: () => Buffer[]): ListBody {
    let byFormat = this.bodies.get(items);
    if (!byFormat) {
      byFormat = new Map();
      this.bodies.set(items, byFormat);
    }
    const hit = byFormat.get(format);
    if (hit && hit.version === version) return hit.body;
    const body = new ListBody(build(), this.blocks);
    byFormat.set(format, { version, body });
    return body;
  }
}
