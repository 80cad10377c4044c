import {
  DATABASE_BACKUP_SCHEDULE_KIND,
  DATABASES_GROUP_VERSION,
  type CreateScheduleRequest,
  type DatabaseBackupSchedule,
  type UpdateScheduleRequest,
} from '@internal/plugin-databases-common';
import type { Impersonation, KubeClusterClient } from '../kube/KubeClusterClient';
import { schedulePath } from '../kube/paths';

/** Where a schedule call goes: one cluster's client, one namespace, as one user. */
export interface ScheduleTarget {
  client: KubeClusterClient;
  namespace: string;
  as: Impersonation;
}

const dryRunQuery = (dryRun?: boolean) => ({ dryRun: dryRun ? 'All' : undefined });

export function getSchedule(t: ScheduleTarget, name: string): Promise<DatabaseBackupSchedule> {
  return t.client.request<DatabaseBackupSchedule>({ path: schedulePath(t.namespace, name), as: t.as });
}

/**
 * A new DatabaseBackupSchedule of `instance` (the apiserver writes the operator's object and
 * refuses what the operator cannot do, naming the fields): `name`, or `generateName` plus the
 * apiserver's suffix.
 */
export function createSchedule(
  t: ScheduleTarget,
  naming: { name: string } | { generateName: string },
  instance: string,
  request: CreateScheduleRequest,
): Promise<DatabaseBackupSchedule> {
  const { dryRun, schedule, suspend, retention, method } = request;
  return t.client.request<DatabaseBackupSchedule>({
    method: 'POST',
    path: schedulePath(t.namespace),
    query: dryRunQuery(dryRun),
    body: {
      apiVersion: DATABASES_GROUP_VERSION,
      kind: DATABASE_BACKUP_SCHEDULE_KIND,
      metadata: { ...naming, namespace: t.namespace },
      spec: {
        instanceRef: { name: instance },
        schedule,
        ...(suspend !== undefined && { suspend }),
        ...(retention !== undefined && { retention }),
        ...(method !== undefined && { method }),
      },
    },
    as: t.as,
  });
}

/**
 * Changes what `request` names, guarded by the resourceVersion the caller read (a JSON merge
 * patch: what it leaves out is kept; `retention: null` removes it). A schedule changed meanwhile
 * is a 409 Conflict, not a silent overwrite.
 */
export function updateSchedule(t: ScheduleTarget, name: string, request: UpdateScheduleRequest): Promise<DatabaseBackupSchedule> {
  const { dryRun, resourceVersion, ...spec } = request;
  return t.client.request<DatabaseBackupSchedule>({
    method: 'PATCH',
    path: schedulePath(t.namespace, name),
    query: dryRunQuery(dryRun),
    contentType: 'application/merge-patch+json',
    body: { metadata: { ...(resourceVersion && { resourceVersion }) }, spec },
    as: t.as,
  });
}

/** Deletes a schedule as `t.as`; resolves with the apiserver's warnings (the runs it took are kept). */
export async function deleteSchedule(t: ScheduleTarget, name: string): Promise<string[]> {
  const warnings: string[] = [];
  await t.client.request<unknown>({ method: 'DELETE', path: schedulePath(t.namespace, name), as: t.as, warnings });
  return warnings;
}
