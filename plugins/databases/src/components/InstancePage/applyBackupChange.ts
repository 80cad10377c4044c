import type { BackupChange, DatabaseBackup } from '@internal/plugin-databases-common';

/** Newest first (when the run was asked for); the name breaks ties, newest name first. */
const newestFirst = (a: DatabaseBackup, b: DatabaseBackup) =>
  (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? '') ||
  (b.metadata.name ?? '').localeCompare(a.metadata.name ?? '');

/** Is `a` an older state of the same object than `b`? resourceVersions are opaque; one cluster's are integers in practice. */
function older(a: DatabaseBackup, b: DatabaseBackup): boolean {
  const x = Number(a.metadata.resourceVersion);
  const y = Number(b.metadata.resourceVersion);
  return Number.isFinite(x) && Number.isFinite(y) && x < y;
}

/**
 * The list after one change: a run is known by its name. A change older than what is shown is
 * dropped: the answer to "Back up now" may arrive after the stream already moved the run on.
 */
export function applyBackupChange(list: DatabaseBackup[], change: BackupChange): DatabaseBackup[] {
  const { backup } = change;
  const shown = list.find(b => b.metadata.name === backup.metadata.name);
  const others = list.filter(b => b.metadata.name !== backup.metadata.name);
  if (change.type === 'DELETED') return others;
  if (shown && older(backup, shown)) return list;
  return [...others, backup].sort(newestFirst);
}
