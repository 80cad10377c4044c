import { humanDuration, humanDurationChangesAt } from './humanDuration';
import type { AgeCell, Table, TablePrinter, TableRow } from './types';

/** `includeObject` of a Table request. */
export type IncludeObject = 'Metadata' | 'Object' | 'None';

/** Options of {@link buildTable}. */
export interface BuildTableOptions<T> {
  printer: TablePrinter<T>;
  objects: T[];
  /** `meta.k8s.io` version asked for (`v1` or `v1beta1`). */
  version: string;
  includeObject: IncludeObject;
  /** Builds the row object for `Metadata` (a PartialObjectMetadata of the same version). */
  metadataOf(obj: T): unknown;
  listMeta?: Table['metadata'];
  /** False for watch events after the first (kubectl reuses the first definitions). */
  withColumns?: boolean;
  now?: number;
}

/** Builds a `meta.k8s.io` Table (contract §8.2); `rows` is `[]` when empty, never null. */
export function buildTable<T>(opts: BuildTableOptions<T>): Table {
  const now = opts.now ?? Date.now();
  const rows: TableRow[] = opts.objects.map(obj => {
    const row: TableRow = { cells: opts.printer.cells(obj, now) };
    if (opts.includeObject === 'Metadata') row.object = opts.metadataOf(obj);
    else if (opts.includeObject === 'Object') row.object = obj;
    return row;
  });
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${opts.version}`,
    metadata: opts.listMeta ?? {},
    columnDefinitions: opts.withColumns === false ? [] : opts.printer.columns,
    rows,
  };
}

/** Options of {@link encodeTable}. */
export interface EncodeTableOptions<T> extends Omit<BuildTableOptions<T>, 'metadataOf'> {
  /** Encoded row object for `Metadata` (memoised by the caller per object). */
  encodedMetadataOf(obj: T): string;
  /** Encoded full object for `Object`. */
  encodedObjectOf(obj: T): string;
}

/**
 * The same Table as {@link buildTable}, encoded as JSON text directly from pre-encoded row objects:
 * `kubectl get -A` over 10,000 instances must not re-serialise every object's metadata.
 */
export function encodeTable<T>(opts: EncodeTableOptions<T>): string {
  const now = opts.now ?? Date.now();
  const rows = opts.objects.map(obj => {
    const cells = JSON.stringify(opts.printer.cells(obj, now));
    if (opts.includeObject === 'Metadata') return `{"cells":${cells},"object":${opts.encodedMetadataOf(obj)}}`;
    if (opts.includeObject === 'Object') return `{"cells":${cells},"object":${opts.encodedObjectOf(obj)}}`;
    return `{"cells":${cells}}`;
  });
  const columns = JSON.stringify(opts.withColumns === false ? [] : opts.printer.columns);
  return `{"kind":"Table","apiVersion":"meta.k8s.io/${opts.version}","metadata":${JSON.stringify(opts.listMeta ?? {})},"columnDefinitions":${columns},"rows":[${rows.join(',')}]}`;
}

/** An age cell and the row's JSON after it, up to the next age cell (or the row's end). */
interface AgeSegment {
  /** What the cell is the age of (epoch ms); undefined renders `<unknown>`. */
  sinceMs: number | undefined;
  after: Buffer;
}

/**
 * A row's JSON around its age cells. The first age cell is held in the row itself, as the only
 * one of instances and engines: a cached row costs at 50,000 instances what it did before runs
 * had three.
 */
interface CachedRow {
  rv: string | undefined;
  /** `{"cells":[` and the cells before the first age cell (with their trailing comma); the whole row without any. */
  head: Buffer;
  sinceMs: number | undefined;
  /** What follows the first age cell; undefined when the row has none. */
  tail: Buffer | undefined;
  /** The age cells after the first. */
  rest?: AgeSegment[];
}

const rowCache = new WeakMap<object, CachedRow>();
const ageBytes = new Map<string, Buffer>();
const OBJECT_KEY = Buffer.from(',"object":');
const CLOSE_ROW = Buffer.from('}');
const COMMA = Buffer.from(',');

/** When the age of `sinceMs` reads differently next (never without a time). */
const changesAt = (sinceMs: number | undefined, now: number) =>
  sinceMs === undefined ? Infinity : sinceMs + humanDurationChangesAt(now - sinceMs);

/** The JSON string of an age cell as bytes; ages repeat (`5m`, `3d`), so they are shared. */
function encodedAge(sinceMs: number | undefined, now: number): Buffer {
  // what `age()` renders, without parsing the timestamp again for every row
  const text = sinceMs === undefined ? '<unknown>' : humanDuration(now - sinceMs);
  let hit = ageBytes.get(text);
  if (!hit) {
    if (ageBytes.size > 4096) ageBytes.clear();
    hit = Buffer.from(JSON.stringify(text));
    ageBytes.set(text, hit);
  }
  return hit;
}

function cachedRow<T>(printer: TablePrinter<T>, ageCells: (obj: T) => AgeCell[], obj: T, now: number): CachedRow {
  const meta = (obj as { metadata?: { resourceVersion?: string } }).metadata;
  let hit = rowCache.get(obj as object);
  if (!hit || hit.rv !== meta?.resourceVersion) {
    const cells = printer.cells(obj, now);
    const ages = new Map(ageCells(obj).map(c => [c.index, c.since]));
    const texts: string[] = [];
    const sinceMs: Array<number | undefined> = [];
    let text = '{"cells":[';
    cells.forEach((cell, i) => {
      if (i > 0) text += ',';
      if (ages.has(i)) {
        texts.push(text);
        text = '';
        const since = Date.parse(ages.get(i) ?? '');
        sinceMs.push(Number.isNaN(since) ? undefined : since);
      } else text += JSON.stringify(cell);
    });
    texts.push(`${text}]`);
    // One allocation of its own per row (a slice of Node's shared pool would keep its whole
    // 8 KiB slab alive for as long as the row is cached).
    const bytes = Buffer.allocUnsafeSlow(texts.reduce((n, t) => n + Buffer.byteLength(t), 0));
    let at = 0;
    const parts = texts.map(t => {
      const start = at;
      at += bytes.write(t, at);
      return bytes.subarray(start, at);
    });
    hit = { rv: meta?.resourceVersion, head: parts[0], sinceMs: sinceMs[0], tail: parts[1] };
    if (sinceMs.length > 1) hit.rest = sinceMs.slice(1).map((since, k) => ({ sinceMs: since, after: parts[k + 2] }));
    rowCache.set(obj as object, hit);
  }
  return hit;
}

/** Options of {@link encodeTableBytes}. */
export interface EncodeTableBytesOptions<T> extends Omit<BuildTableOptions<T>, 'metadataOf'> {
  /** Encoded row object for `Metadata`, in pieces (memoised by the caller per object). */
  encodedMetadataOf(obj: T): readonly Buffer[];
  /** Encoded full object for `Object`. */
  encodedObjectOf(obj: T): Buffer;
  /** Given `until`: when the first age cell would read differently (the body is right until then). */
  validity?: { until: number };
}

/**
 * {@link encodeTable} as the UTF-8 pieces of the body, from per-row cached pieces: only the age
 * cells are rendered per request (ages change with the clock), everything else is reused. A
 * printer without `ageCells` is rendered whole, as one piece.
 */
export function encodeTableBytes<T>(opts: EncodeTableBytesOptions<T>): Buffer[] {
  const ageCells = opts.printer.ageCells;
  if (!ageCells) {
    return [Buffer.from(encodeTable({ ...opts, encodedMetadataOf: o => Buffer.concat(opts.encodedMetadataOf(o)).toString(), encodedObjectOf: o => opts.encodedObjectOf(o).toString() }))];
  }
  const now = opts.now ?? Date.now();
  const columns = JSON.stringify(opts.withColumns === false ? [] : opts.printer.columns);
  const pieces: Buffer[] = [
    Buffer.from(`{"kind":"Table","apiVersion":"meta.k8s.io/${opts.version}","metadata":${JSON.stringify(opts.listMeta ?? {})},"columnDefinitions":${columns},"rows":[`),
  ];
  let until = Infinity;
  /** An age cell as of `now`, and the row's JSON after it; the body is right until it changes. */
  const pushAge = (sinceMs: number | undefined, after: Buffer) => {
    until = Math.min(until, changesAt(sinceMs, now));
    pieces.push(encodedAge(sinceMs, now), after);
  };
  opts.objects.forEach((obj, i) => {
    const row = cachedRow(opts.printer, ageCells, obj, now);
    if (i > 0) pieces.push(COMMA);
    pieces.push(row.head);
    if (row.tail) {
      pushAge(row.sinceMs, row.tail);
      for (const seg of row.rest ?? []) pushAge(seg.sinceMs, seg.after);
    }
    if (opts.includeObject === 'Metadata') pieces.push(OBJECT_KEY, ...opts.encodedMetadataOf(obj));
    else if (opts.includeObject === 'Object') pieces.push(OBJECT_KEY, opts.encodedObjectOf(obj));
    pieces.push(CLOSE_ROW);
  });
  pieces.push(Buffer.from(']}'));
  if (opts.validity) opts.validity.until = until;
  return pieces;
}
