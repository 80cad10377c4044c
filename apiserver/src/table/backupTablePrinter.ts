import type { DatabaseBackup } from '@internal/plugin-databases-common';
import { age, humanDuration } from './humanDuration';
import { instanceTablePrinter } from './instanceTablePrinter';
import type { TablePrinter } from './types';

const [nameColumn] = instanceTablePrinter.columns;
const ageColumn = instanceTablePrinter.columns.find(c => c.name === 'Age')!;
const column = (name: string, description: string, priority = 0) =>
  ({ name, type: 'string', format: '', description, priority }) as const;

/** Whether DURATION is the age of the start (a run still going), not a fixed length. */
const durationRuns = (obj: DatabaseBackup) =>
  !Number.isNaN(Date.parse(obj.status?.startTime ?? '')) &&
  Number.isNaN(Date.parse(obj.status?.completionTime ?? '')) &&
  (obj.status?.phase === 'Running' || obj.status?.phase === 'Pending');

/**
 * How long the run took, or has been running, as `kubectl get jobs` prints a Job's DURATION;
 * empty before it started.
 */
export function durationCell(obj: DatabaseBackup, now: number): string {
  const start = Date.parse(obj.status?.startTime ?? '');
  if (Number.isNaN(start)) return '';
  const end = Date.parse(obj.status?.completionTime ?? '');
  if (!Number.isNaN(end)) return humanDuration(end - start);
  return durationRuns(obj) ? humanDuration(now - start) : '';
}

/**
 * `kubectl get databasebackups` columns; priority 1 ones appear with `-o wide`. STARTED, AGE and
 * a running run's DURATION move with the clock: encoders render only those per request.
 */
export const backupTablePrinter: TablePrinter<DatabaseBackup> = {
  columns: [
    { ...nameColumn },
    column('Instance', 'The instance backed up (spec.instanceRef.name).'),
    column('Phase', 'Phase of the backup run (status.phase).'),
    column('Started', 'How long ago the run started (status.startTime).'),
    column('Duration', 'How long the run took, or has been running.'),
    column('Size', 'Size of the backup as the operator reports it (status.size).'),
    ageColumn,
    column('Engine', 'Database engine (status.engine).', 1),
    column('Method', 'How the backup is taken, where the operator has several ways (spec.method).', 1),
    column('Reason', 'Why the run is in its phase (status.reason).', 1),
    column('Location', 'Where the backup was written (status.location).', 1),
  ],
  ageCells(obj) {
    return [
      ...(obj.status?.startTime ? [{ index: 3, since: obj.status.startTime }] : []),
      ...(durationRuns(obj) ? [{ index: 4, since: obj.status?.startTime }] : []),
      { index: 6, since: obj.metadata.creationTimestamp },
    ];
  },
  cells(obj, now) {
    return [
      obj.metadata.name ?? '',
      obj.spec?.instanceRef?.name ?? '',
      obj.status?.phase ?? '',
      obj.status?.startTime ? age(obj.status.startTime, now) : '',
      durationCell(obj, now),
      obj.status?.size ?? '',
      age(obj.metadata.creationTimestamp, now),
      obj.status?.engine ?? '',
      obj.spec?.method ?? '',
      obj.status?.reason ?? '',
      obj.status?.location ?? '',
    ];
  },
};
