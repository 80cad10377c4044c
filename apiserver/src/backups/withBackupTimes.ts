import {
  backupRunTime,
  type DatabaseBackup,
  type DatabaseBackupSchedule,
  type DatabaseInstance,
  type InstanceBackupStatus,
} from '@internal/plugin-databases-common';

/** The served backup runs and schedules of one instance, and the largest resourceVersion among them. */
export interface InstanceBackups {
  backups: readonly DatabaseBackup[];
  schedules: readonly DatabaseBackupSchedule[];
  rv?: string;
}

const newest = (times: Array<string | undefined>) => pick(times, (a, b) => a > b);
const soonest = (times: Array<string | undefined>) => pick(times, (a, b) => a < b);

function pick(times: Array<string | undefined>, better: (a: number, b: number) => boolean): string | undefined {
  let best: string | undefined;
  for (const t of times) {
    if (t === undefined || Number.isNaN(Date.parse(t))) continue;
    if (best === undefined || better(Date.parse(t), Date.parse(best))) best = t;
  }
  return best;
}

/**
 * `status.backup` with what the instance's backups say: the last successful and failed run (the
 * newest of what the operator records on the instance itself, CloudNativePG's, of the served
 * DatabaseBackups, whose phase is decided from their Jobs, and of the schedules' runs, which
 * mariadb-operator keeps on its CronJob only) and the next scheduled run. Pure; an instance
 * without `status.backup` (an engine without backups) is returned as it is.
 */
export function withBackupTimes(instance: DatabaseInstance, found: InstanceBackups | undefined): DatabaseInstance {
  const backup = instance.status?.backup;
  if (!backup || !found) return instance;
  const { backups, schedules } = found;
  const phase = (p: string) => backups.filter(b => b.status?.phase === p).map(backupRunTime);
  const times: Partial<InstanceBackupStatus> = {
    lastSuccessfulTime: newest([backup.lastSuccessfulTime, ...phase('Succeeded'), ...schedules.map(s => s.status?.lastSuccessfulTime)]),
    lastFailedTime: newest([backup.lastFailedTime, ...phase('Failed'), ...schedules.map(s => s.status?.lastFailedTime)]),
    nextScheduleTime: soonest(schedules.filter(s => !s.spec.suspend).map(s => s.status?.nextScheduleTime)),
  };
  const merged: InstanceBackupStatus = { ...backup };
  for (const [k, v] of Object.entries(times) as Array<[keyof InstanceBackupStatus, string | undefined]>) {
    if (v !== undefined) (merged as any)[k] = v;
  }
  return { ...instance, status: { ...instance.status!, backup: merged } };
}
