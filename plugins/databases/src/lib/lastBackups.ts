import { backupRunTime, type DatabaseBackup } from '@internal/plugin-databases-common';

/** When a run ended (or, still going, began): what "last" is measured by. */
const whenOf = (b: DatabaseBackup) => Date.parse(backupRunTime(b) ?? '');

/**
 * The newest run that succeeded and the newest that failed, of the runs the user can see: what a
 * reader of the instance page asks first ("is it backed up, and did the last one work?").
 */
export function lastBackups(runs: readonly DatabaseBackup[]): { succeeded?: DatabaseBackup; failed?: DatabaseBackup } {
  const newest = (phase: string) =>
    runs
      .filter(b => b.status?.phase === phase && !Number.isNaN(whenOf(b)))
      .reduce<DatabaseBackup | undefined>((best, b) => (!best || whenOf(b) > whenOf(best) ? b : best), undefined);
  return { succeeded: newest('Succeeded'), failed: newest('Failed') };
}
