import { DATABASE_BACKUP_SCHEDULE_KIND, DATABASES_GROUP_VERSION, type DatabaseBackupSchedule } from '@internal/plugin-databases-common';
import type { ProjectionInput } from '../cache/projectInstance';
import { projectionFailure, sourceMetadata } from '../cache/fallbackParts';
import { scheduleAdapterOf } from './backupRunAdapters';
import { sideProjection } from './sideProjection';

/** What we serve when an adapter throws: the schedule object exists, its state is not understood. */
export function fallbackSchedule(input: Pick<ProjectionInput, 'entry' | 'source'>, err: unknown): DatabaseBackupSchedule {
  const { entry, source } = input;
  return {
    apiVersion: DATABASES_GROUP_VERSION,
    kind: DATABASE_BACKUP_SCHEDULE_KIND,
    metadata: sourceMetadata(source),
    spec: { instanceRef: { name: '' }, schedule: '' },
    status: { engine: entry.adapter.engine, ...projectionFailure(entry, source, err) },
  };
}

/** The store's projection for schedules: each object as a DatabaseBackupSchedule (see sideProjection). */
export const projectSchedule = sideProjection(
  (adapter, source, kind, related) => scheduleAdapterOf(adapter).backups.schedules.project(source, kind, related),
  fallbackSchedule,
);
