import {
  DATABASE_BACKUP_SCHEDULE_KIND,
  DATABASES_GROUP_VERSION,
  type DatabaseBackupSchedule,
  type DatabaseInstance,
} from '@internal/plugin-databases-common';
import type { KubeObject } from '../adapters/types';
import { asServed, type Projection, type ProjectionInput } from '../cache/projectInstance';
import { scheduleAdapterOf } from './backupRunAdapters';

/** What we serve when an adapter throws: the schedule object exists, its state is not understood. */
export function fallbackSchedule(input: Pick<ProjectionInput, 'entry' | 'source'>, err: unknown): DatabaseBackupSchedule {
  const { entry, source } = input;
  const m = source.metadata ?? {};
  return {
    apiVersion: DATABASES_GROUP_VERSION,
    kind: DATABASE_BACKUP_SCHEDULE_KIND,
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      creationTimestamp: m.creationTimestamp,
      ...(m.labels ? { labels: m.labels } : {}),
      ...(m.annotations ? { annotations: m.annotations } : {}),
    },
    spec: { instanceRef: { name: '' }, schedule: '' },
    status: {
      engine: entry.adapter.engine,
      reason: 'ProjectionFailed',
      message: `cannot read the ${entry.kind.kind} object: ${(err as Error)?.message ?? String(err)}`,
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

/** One schedule object as a DatabaseBackupSchedule. */
export function scheduleOf(input: Pick<ProjectionInput, 'entry' | 'source' | 'related'>): DatabaseBackupSchedule {
  const { entry, source } = input;
  try {
    return scheduleAdapterOf(entry.adapter).backups.schedules.project(source as KubeObject, entry.kind, input.related);
  } catch (err) {
    return fallbackSchedule(input, err);
  }
}

/**
 * The store's projection for schedules (InformerInstanceStore's `project`): the adapter's
 * schedule projection under its served name, with the Stale and NameConflict conditions, and
 * no rollout memory. Pure.
 */
export function projectSchedule(input: ProjectionInput): Projection {
  const served = asServed(scheduleOf(input), input);
  // the store's types name DatabaseInstance (its first and main kind); ScheduleStore reads it back
  return served as unknown as Projection & { projected: DatabaseInstance };
}
