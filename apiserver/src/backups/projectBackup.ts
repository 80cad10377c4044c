import { DATABASE_BACKUP_KIND, DATABASES_GROUP_VERSION, type DatabaseBackup } from '@internal/plugin-databases-common';
import type { ProjectionInput } from '../cache/projectInstance';
import { projectionFailure, sourceMetadata } from '../cache/fallbackParts';
import { backupAdapterOf } from './backupRunAdapters';
import { sideProjection } from './sideProjection';

/** What we serve when an adapter throws: the backup object exists, its state is not understood. */
export function fallbackBackup(input: Pick<ProjectionInput, 'entry' | 'source'>, err: unknown): DatabaseBackup {
  const { entry, source } = input;
  return {
    apiVersion: DATABASES_GROUP_VERSION,
    kind: DATABASE_BACKUP_KIND,
    metadata: sourceMetadata(source),
    spec: { instanceRef: { name: '' } },
    status: { phase: 'Unknown', engine: entry.adapter.engine, restorable: false, ...projectionFailure(entry, source, err) },
  };
}

/** The store's projection for backup runs: each object as a DatabaseBackup (see sideProjection). */
export const projectBackup = sideProjection(
  (adapter, source, kind, related) => backupAdapterOf(adapter).backups.project(source, kind, related),
  fallbackBackup,
);
