import type { BackupSide, OperatorAdapter, ScheduleSide } from '../adapters/types';
import { originOf, sideAdapters } from './sideAdapters';

/** An adapter whose operator has backup objects. */
export type AdapterWithBackups = OperatorAdapter & { backups: BackupSide };

/** An adapter whose operator's backup schedules this API serves. */
export type AdapterWithSchedules = OperatorAdapter & { backups: BackupSide & { schedules: ScheduleSide } };

export const hasBackups = (adapter: OperatorAdapter): adapter is AdapterWithBackups =>
  adapter.backups !== undefined;

export const hasSchedules = (adapter: OperatorAdapter): adapter is AdapterWithSchedules =>
  adapter.backups?.schedules !== undefined;

/**
 * Each backup side as the store's informers see an adapter: its backup kinds are the "source"
 * kinds (only the objects that are runs: `serves`), the Jobs they own the related ones.
 */
export function backupRunAdapters(adapters: readonly OperatorAdapter[]): OperatorAdapter[] {
  return sideAdapters(adapters, a => a.backups, 'backup runs');
}

/** Each schedule side likewise: the schedule objects are the sources, their CronJobs related. */
export function scheduleAdapters(adapters: readonly OperatorAdapter[]): OperatorAdapter[] {
  return sideAdapters(adapters, a => a.backups?.schedules, 'backup schedules');
}

/** The adapter a backup-run adapter of {@link backupRunAdapters} stands for. */
export function backupAdapterOf(runs: OperatorAdapter): AdapterWithBackups {
  const adapter = originOf(runs);
  if (!hasBackups(adapter)) throw new Error(`${runs.id} is not a backup-run adapter`);
  return adapter;
}

/** The adapter a schedule adapter of {@link scheduleAdapters} stands for. */
export function scheduleAdapterOf(stand: OperatorAdapter): AdapterWithSchedules {
  const adapter = originOf(stand);
  if (!hasSchedules(adapter)) throw new Error(`${stand.id} is not a schedule adapter`);
  return adapter;
}
