import type { BackupChange, DatabaseBackup } from '@internal/plugin-databases-common';
import { applyListChange } from '../../lib/applyListChange';

/** Newest first (when the run was asked for); the name breaks ties, newest name first. */
const newestFirst = (a: DatabaseBackup, b: DatabaseBackup) =>
  (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? '') ||
  (b.metadata.name ?? '').localeCompare(a.metadata.name ?? '');

/** The runs after one change (see applyListChange): newest first. */
export function applyBackupChange(list: DatabaseBackup[], change: BackupChange): DatabaseBackup[] {
  return applyListChange(list, change.type, change.backup, newestFirst);
}
