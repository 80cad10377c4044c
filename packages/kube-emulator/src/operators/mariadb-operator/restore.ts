import type { StoredObject } from '../../store/types';
import { withCondition } from '../conditions';
import type { Observation } from '../types';

/** Rounds the Restore's Job runs (once the StatefulSet is healthy) before it completes. */
const RESTORE_ROUNDS = 2;

const RESTORING = { status: 'False' as const, reason: 'RestoreBackup', message: 'Restoring backup' };

/**
 * A MariaDB with `spec.bootstrapFrom` as mariadb-operator restores it
 * (internal/controller/mariadb_controller.go reconcileRestore): once the StatefulSet is healthy
 * it writes Ready=False and BackupRestored=False, reason RestoreBackup "Restoring backup"
 * (pkg/condition SetRestoringBackup), runs a Restore `<name>-restore` (its Job), and when that is
 * complete BackupRestored=True "Restored backup" (SetRestoredBackup); from then on Ready follows
 * the StatefulSet again. Before it is healthy the status is the StatefulSet's. The emulation
 * keeps the restore's rounds in the operator's memory instead of a Restore object.
 */
export function withRestore(cr: StoredObject, obs: Observation, status: Record<string, any> | undefined): Record<string, any> | undefined {
  const spec = (cr.spec as Record<string, any> | undefined) ?? {};
  if (!status || !spec.bootstrapFrom) return status;
  const previous = ((cr.status as Record<string, any> | undefined)?.conditions ?? []) as any[];
  const restored = previous.find(c => c.type === 'BackupRestored' && c.status === 'True');
  if (restored) return { ...status, conditions: withCondition(status.conditions, restored, obs.now) };
  const memo = (obs.memo ??= {});
  const started = memo.restoreRounds !== undefined;
  if (!started && obs.stage !== 'ready') return status;
  const rounds = ((memo.restoreRounds as number | undefined) ?? 0) + 1;
  memo.restoreRounds = rounds;
  if (rounds > RESTORE_ROUNDS)
    return {
      ...status,
      conditions: withCondition(status.conditions, { type: 'BackupRestored', status: 'True', reason: 'RestoreBackup', message: 'Restored backup' }, obs.now),
    };
  const conditions = withCondition(withCondition(status.conditions, { type: 'Ready', ...RESTORING }, obs.now), { type: 'BackupRestored', ...RESTORING }, obs.now);
  return { ...status, conditions };
}
