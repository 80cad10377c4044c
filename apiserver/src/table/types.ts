/** `meta.k8s.io` TableColumnDefinition. */
export interface TableColumnDefinition {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format: string;
  description: string;
  priority: number;
}

/** A resource's printer: its columns and how one object becomes cells (same order). */
export interface TablePrinter<T> {
  columns: TableColumnDefinition[];
  cells(obj: T, now: number): Array<string | number | boolean | null>;
  /**
   * The cells of `obj` that depend on `now`, each the age of one of its times as `age(since, now)`
   * renders it (AGE, a run's STARTED). Lets encoders cache every other cell per object version
   * and render only these; a printer without it is rendered whole on every request.
   */
  ageCells?(obj: T): AgeCell[];
}

/** A cell that reads `age(since, now)` (humanDuration.ts). */
export interface AgeCell {
  index: number;
  since: string | undefined;
}

/** `meta.k8s.io` TableRow. */
export interface TableRow {
  cells: Array<string | number | boolean | null>;
  object?: unknown;
}

/** `meta.k8s.io` Table. */
export interface Table {
  kind: 'Table';
  apiVersion: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  columnDefinitions: TableColumnDefinition[];
  rows: TableRow[];
}
