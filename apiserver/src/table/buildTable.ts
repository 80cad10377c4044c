import { age } from './humanDuration';
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
