import type { DatabaseBackup } from '@internal/plugin-databases-common';
import { backupAdapterOf, backupRunAdapters, type AdapterWithBackups } from './backupRunAdapters';
import { projectBackup } from './projectBackup';
import { ProjectedStore, type ProjectedSource, type ProjectedStoreOptions } from './ProjectedStore';

/** The operator backup object behind a served DatabaseBackup, with the adapter that reads it. */
export type BackupSource = ProjectedSource<AdapterWithBackups>;

export type BackupStoreOptions = ProjectedStoreOptions;

/**
 * Every backup run of every operator with backup objects, as DatabaseBackups: informers over
 * each installed backup kind (the objects that are runs) and the Jobs they own, through the
 * instance store's machinery (ProjectedStore) with the backup projection.
 */
export class BackupStore extends ProjectedStore<DatabaseBackup, AdapterWithBackups> {
  constructor(options: BackupStoreOptions) {
    super(options, { sides: backupRunAdapters, project: projectBackup, adapterOf: backupAdapterOf });
  }
}
