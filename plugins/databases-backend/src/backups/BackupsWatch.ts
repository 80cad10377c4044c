import type { BackupChange, DatabaseBackup } from '@internal/plugin-databases-common';
import type { Impersonation, KubeClusterClient } from '../kube/KubeClusterClient';
import { backupPath } from '../kube/paths';
import { SelectedListWatch, type ListWatchSink } from '../kube/SelectedListWatch';

/** The instance whose backups are read. */
export interface BackupsOf {
  namespace: string;
  /** The instance's name: its backups' `spec.instanceRef.name`. */
  instance: string;
}

/** Where a watch of one instance's backups reports: the whole list (newest first), then each change. */
export type BackupsSink = ListWatchSink<DatabaseBackup, BackupChange>;

/** Newest first (a run's creation is when it was asked for); the name breaks ties, newest name first. */
export function newestFirst(a: DatabaseBackup, b: DatabaseBackup): number {
  const byTime = (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? '');
  return byTime || (b.metadata.name ?? '').localeCompare(a.metadata.name ?? '');
}

/**
 * One instance's backups as one user may read them, newest first: selected by
 * `spec.instanceRef.name` on the apiserver (see SelectedListWatch).
 */
export class BackupsWatch extends SelectedListWatch<DatabaseBackup, BackupChange> {
  constructor(client: KubeClusterClient, as: Impersonation, of: BackupsOf, watchTimeoutSeconds = 300) {
    super(
      client,
      as,
      {
        path: backupPath(of.namespace),
        fieldSelector: `spec.instanceRef.name=${of.instance}`,
        toItem: (o: DatabaseBackup) => o,
        order: newestFirst,
        toChange: (type, backup) => ({ type, backup }),
      },
      watchTimeoutSeconds,
    );
  }
}
