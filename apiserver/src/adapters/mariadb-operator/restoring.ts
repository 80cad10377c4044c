import type { PhaseFacts } from '../../status/facts';
import { asRecord, asString, findCondition } from '../shared/read';
import type { KubeObject } from '../types';

/**
 * Ready=False reasons for a restore under way: `RestoreBackup` "Restoring backup" (current
 * releases, pkg/condition/backup_restored.go SetRestoringBackup), `RestoreNotComplete` (older
 * ones, as the Argo CD fixture shows).
 */
const RESTORE_REASONS = new Set(['RestoreBackup', 'RestoreNotComplete']);

/**
 * A MariaDB bootstrapped from a backup (`spec.bootstrapFrom`) is restoring until the operator
 * says `BackupRestored=True` ("Restored backup"; releases before it: `Bootstrapped=True`). Before
 * the restore starts the operator waits for the StatefulSet to be healthy, and its status
 * reconciler sets Ready from the StatefulSet until then (mariadb_controller_status.go skips it
 * only while IsRestoringBackup): an empty server that reads Ready=True "Running". It holds none
 * of the backup yet, so it is Restoring (a first creation, never Ready nor Updating) too.
 */
export function restoringFacts(source: KubeObject, facts: PhaseFacts): void {
  if (facts.error || facts.paused || facts.deleting || !facts.hasStatus) return;
  const status = asRecord(source.status) ?? {};
  const ready = findCondition(status, 'Ready');
  const backup = asString(asRecord(asRecord(asRecord(source.spec)?.bootstrapFrom)?.backupRef)?.name);
  const restored = findCondition(status, 'BackupRestored') ?? findCondition(status, 'Bootstrapped');
  let message: string | undefined;
  if (ready?.status === 'False' && RESTORE_REASONS.has(ready.reason ?? '')) message = ready.message;
  else if (asRecord(asRecord(source.spec)?.bootstrapFrom) && restored?.status !== 'True')
    message = restored?.message ?? `Waiting for the MariaDB to be ready to restore ${backup ? `backup ${backup}` : 'its backup'} into it`;
  else return;
  facts.progress = { reason: 'Restoring', ...(message && { message }) };
  delete facts.operatorReady;
  delete facts.readyMessage;
  delete facts.unhealthy;
  facts.onceReady = false;
}
