import {
  DATABASE_BACKUP_KIND,
  DATABASES_GROUP_VERSION,
  type DatabaseBackup,
  type DatabaseInstance,
} from '@internal/plugin-databases-common';
import type { KubeObject } from '../adapters/types';
import { asServed, type Projection, type ProjectionInput } from '../cache/projectInstance';
import { backupAdapterOf } from './backupRunAdapters';

/** What we serve when an adapter throws: the backup object exists, its state is not understood. */
export function fallbackBackup(input: Pick<ProjectionInput, 'entry' | 'source'>, err: unknown): DatabaseBackup {
  const { entry, source } = input;
  const m = source.metadata ?? {};
  return {
    apiVersion: DATABASES_GROUP_VERSION,
    kind: DATABASE_BACKUP_KIND,
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      creationTimestamp: m.creationTimestamp,
      ...(m.labels ? { labels: m.labels } : {}),
      ...(m.annotations ? { annotations: m.annotations } : {}),
    },
    spec: { instanceRef: { name: '' } },
    status: {
      phase: 'Unknown',
      reason: 'ProjectionFailed',
      message: `cannot read the ${entry.kind.kind} object: ${(err as Error)?.message ?? String(err)}`,
      engine: entry.adapter.engine,
      restorable: false,
      source: {
        apiVersion: `${entry.kind.group}/${entry.kind.version}`,
        kind: entry.kind.kind,
        name: m.name ?? '',
        operator: entry.adapter.operator,
      },
      ...(source.status !== undefined ? { operatorStatus: source.status } : {}),
    },
  };
}

/** One backup object as a DatabaseBackup. */
export function backupOf(input: Pick<ProjectionInput, 'entry' | 'source' | 'related'>): DatabaseBackup {
  const { entry, source } = input;
  try {
    return backupAdapterOf(entry.adapter).backups.project(source as KubeObject, entry.kind, input.related);
  } catch (err) {
    return fallbackBackup(input, err);
  }
}

/**
 * The store's projection for backup runs (InformerInstanceStore's `project`): the adapter's
 * backup projection under its served name, with the Stale and NameConflict conditions, and no
 * rollout memory (a run has no rollout). Pure.
 */
export function projectBackup(input: ProjectionInput): Projection {
  const served = asServed(backupOf(input), input);
  // the store's types name DatabaseInstance (its first and main kind); BackupStore reads it back
  return served as unknown as Projection & { projected: DatabaseInstance };
}
