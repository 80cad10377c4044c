import type { DatabaseBackupSchedule } from '@internal/plugin-databases-common';
import { age, humanDuration } from './humanDuration';
import { instanceTablePrinter } from './instanceTablePrinter';
import type { TablePrinter } from './types';

const [nameColumn] = instanceTablePrinter.columns;
const ageColumn = instanceTablePrinter.columns.find(c => c.name === 'Age')!;
const column = (name: string, description: string, priority = 0) =>
  ({ name, type: 'string', format: '', description, priority }) as const;

/** How long until the next run ("in" omitted, as kubectl prints durations); `<none>` when none is due. */
export function nextCell(obj: DatabaseBackupSchedule, now: number): string {
  const next = Date.parse(obj.status?.nextScheduleTime ?? '');
  if (Number.isNaN(next)) return '<none>';
  return humanDuration(Math.max(0, next - now));
}

/**
 * `kubectl get databasebackupschedules` columns, as `kubectl get cronjobs` prints a CronJob's
 * (SCHEDULE, SUSPEND, LAST SCHEDULE); priority 1 ones appear with `-o wide`. LAST SCHEDULE and
 * NEXT move with the clock like AGE, so no cell is cached across requests (no ageColumn).
 */
export const scheduleTablePrinter: TablePrinter<DatabaseBackupSchedule> = {
  columns: [
    { ...nameColumn },
    column('Instance', 'The instance backed up (spec.instanceRef.name).'),
    column('Schedule', 'When, as a 5-field cron in UTC (spec.schedule).'),
    { name: 'Suspend', type: 'boolean', format: '', description: 'No new runs start while true (spec.suspend).', priority: 0 },
    column('Last Schedule', 'How long ago the last run was started (status.lastScheduleTime).'),
    column('Next', 'How long until the next run (status.nextScheduleTime).'),
    ageColumn,
    column('Engine', 'Database engine (status.engine).', 1),
    column('Method', 'How the backups are taken, where the operator has several ways (spec.method).', 1),
    column('Retention', 'How long the runs are kept, where the schedule says (spec.retention).', 1),
    column('Last Success', 'How long ago a run last succeeded, where known (status.lastSuccessfulTime).', 1),
    column('Reason', 'What the schedule is doing (status.reason).', 1),
  ],
  cells(obj, now) {
    const ago = (t: string | undefined) => (t ? age(t, now) : '<none>');
    return [
      obj.metadata.name ?? '',
      obj.spec?.instanceRef?.name ?? '',
      obj.spec?.schedule ?? '',
      obj.spec?.suspend === true,
      ago(obj.status?.lastScheduleTime),
      nextCell(obj, now),
      age(obj.metadata.creationTimestamp, now),
      obj.status?.engine ?? '',
      obj.spec?.method ?? '',
      obj.spec?.retention ?? '',
      obj.status?.lastSuccessfulTime ? age(obj.status.lastSuccessfulTime, now) : '',
      obj.status?.reason ?? '',
    ];
  },
};
