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
   * Index of the only cell that depends on `now` (AGE). Lets encoders cache every other cell per
   * object version and only re-render the age.
   */
  ageColumn?: number;
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
