import { age, humanDuration, humanDurationChangesAt } from './humanDuration';
import type { Table, TablePrinter, TableRow } from './types';

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

interface CachedCells {
  rv: string | undefined;
  before: string;
  after: string;
  created: string | undefined;
}

const cellCache = new WeakMap<object, CachedCells>();

/** JSON of one row's cells; all but the age cell are memoised per object and resourceVersion. */
function encodeCells<T>(printer: TablePrinter<T>, obj: T, now: number): string {
  const ageIdx = printer.ageColumn;
  const meta = (obj as { metadata?: { resourceVersion?: string; creationTimestamp?: string } }).metadata;
  if (ageIdx === undefined || typeof obj !== 'object' || obj === null || !meta) {
    return JSON.stringify(printer.cells(obj, now));
  }
  let hit = cellCache.get(obj);
  if (!hit || hit.rv !== meta.resourceVersion) {
    const cells = printer.cells(obj, now);
    const before = JSON.stringify(cells.slice(0, ageIdx));
    const after = JSON.stringify(cells.slice(ageIdx + 1));
    hit = {
      rv: meta.resourceVersion,
      before: before.slice(1, -1),
      after: after.slice(1, -1),
      created: meta.creationTimestamp,
    };
    cellCache.set(obj, hit);
  }
  const ageCell = JSON.stringify(age(hit.created, now));
  return `[${hit.before}${hit.before ? ',' : ''}${ageCell}${hit.after ? ',' : ''}${hit.after}]`;
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
    const cells = encodeCells(opts.printer, obj, now);
    if (opts.includeObject === 'Metadata') return `{"cells":${cells},"object":${opts.encodedMetadataOf(obj)}}`;
    if (opts.includeObject === 'Object') return `{"cells":${cells},"object":${opts.encodedObjectOf(obj)}}`;
    return `{"cells":${cells}}`;
  });
  const columns = JSON.stringify(opts.withColumns === false ? [] : opts.printer.columns);
  return `{"kind":"Table","apiVersion":"meta.k8s.io/${opts.version}","metadata":${JSON.stringify(opts.listMeta ?? {})},"columnDefinitions":${columns},"rows":[${rows.join(',')}]}`;
}

interface CachedRow {
  rv: string | undefined;
  /** `{"cells":[` and the cells before the age cell (with their trailing comma). */
  head: Buffer;
  /** The cells after the age cell (with their leading comma) and `]`. */
  tail: Buffer;
  createdMs: number | undefined;
}

const rowCache = new WeakMap<object, CachedRow>();
const ageBytes = new Map<string, Buffer>();
const OBJECT_KEY = Buffer.from(',"object":');
const CLOSE_ROW = Buffer.from('}');
const COMMA = Buffer.from(',');

/** The JSON string of an age cell as bytes; ages repeat (`5m`, `3d`), so they are shared. */
function encodedAge(createdMs: number | undefined, now: number): Buffer {
  // what `age()` renders, without parsing the timestamp again for every row
  const text = createdMs === undefined ? '<unknown>' : humanDuration(now - createdMs);
  let hit = ageBytes.get(text);
  if (!hit) {
    if (ageBytes.size > 4096) ageBytes.clear();
    hit = Buffer.from(JSON.stringify(text));
    ageBytes.set(text, hit);
  }
  return hit;
}

function cachedRow<T>(printer: TablePrinter<T>, obj: T, ageIdx: number, now: number): CachedRow {
  const meta = (obj as { metadata?: { resourceVersion?: string; creationTimestamp?: string } }).metadata;
  let hit = rowCache.get(obj as object);
  if (!hit || hit.rv !== meta?.resourceVersion) {
    const cells = printer.cells(obj, now);
    const before = JSON.stringify(cells.slice(0, ageIdx)).slice(1, -1);
    const after = JSON.stringify(cells.slice(ageIdx + 1)).slice(1, -1);
    const created = meta?.creationTimestamp ? Date.parse(meta.creationTimestamp) : Number.NaN;
    const headText = `{"cells":[${before}${before ? ',' : ''}`;
    const tailText = `${after ? ',' : ''}${after}]`;
    // One allocation of its own per row (a slice of Node's shared pool would keep its whole
    // 8 KiB slab alive for as long as the row is cached).
    const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(headText) + Buffer.byteLength(tailText));
    const headLength = bytes.write(headText);
    bytes.write(tailText, headLength);
    hit = {
      rv: meta?.resourceVersion,
      head: bytes.subarray(0, headLength),
      tail: bytes.subarray(headLength),
      createdMs: Number.isNaN(created) ? undefined : created,
    };
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
 * cell is rendered per request (ages change with the clock), everything else is reused.
 */
export function encodeTableBytes<T>(opts: EncodeTableBytesOptions<T>): Buffer[] {
  const ageIdx = opts.printer.ageColumn;
  if (ageIdx === undefined) {
    return [Buffer.from(encodeTable({ ...opts, encodedMetadataOf: o => Buffer.concat(opts.encodedMetadataOf(o)).toString(), encodedObjectOf: o => opts.encodedObjectOf(o).toString() }))];
  }
  const now = opts.now ?? Date.now();
  const columns = JSON.stringify(opts.withColumns === false ? [] : opts.printer.columns);
  const pieces: Buffer[] = [
    Buffer.from(`{"kind":"Table","apiVersion":"meta.k8s.io/${opts.version}","metadata":${JSON.stringify(opts.listMeta ?? {})},"columnDefinitions":${columns},"rows":[`),
  ];
  let until = Infinity;
  opts.objects.forEach((obj, i) => {
    const row = cachedRow(opts.printer, obj, ageIdx, now);
    if (row.createdMs !== undefined) until = Math.min(until, row.createdMs + humanDurationChangesAt(now - row.createdMs));
    if (i > 0) pieces.push(COMMA);
    pieces.push(row.head, encodedAge(row.createdMs, now), row.tail);
    if (opts.includeObject === 'Metadata') pieces.push(OBJECT_KEY, ...opts.encodedMetadataOf(obj));
    else if (opts.includeObject === 'Object') pieces.push(OBJECT_KEY, opts.encodedObjectOf(obj));
    pieces.push(CLOSE_ROW);
  });
  pieces.push(Buffer.from(']}'));
  if (opts.validity) opts.validity.until = until;
  return pieces;
}

