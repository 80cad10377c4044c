import type { DatabaseBackupSchedule } from '@internal/plugin-databases-common';
import type { KubeObject, SourceKind } from '../../adapters/types';
import type { AdapterWithSchedules } from '../../backups/backupRunAdapters';

/** The schedule object `object` projects to by itself (no CronJob: before the watch cache has it), its resourceVersion kept. */
export function projectAlone(adapter: AdapterWithSchedules, kind: SourceKind, object: KubeObject): DatabaseBackupSchedule {
  const projected = adapter.backups.schedules.project(object, kind, { get: () => undefined });
  const rv = object.metadata?.resourceVersion;
  return { ...projected, metadata: { ...projected.metadata, ...(rv ? { resourceVersion: rv } : {}) } };
}
