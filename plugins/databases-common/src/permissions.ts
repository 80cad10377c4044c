import {
  createPermission,
  type ResourcePermission,
} from '@backstage/plugin-permission-common';

/**
 * Resource type of every databases permission: one DatabaseInstance in one cluster.
 * Resource refs have the form `<cluster>:<namespace>/<name>` (see {@link instanceResourceRef}).
 */
export const DATABASES_INSTANCE_RESOURCE_TYPE = 'databases-instance';

/** Resource permission on one instance. */
export type DatabasesInstancePermission = ResourcePermission<
  typeof DATABASES_INSTANCE_RESOURCE_TYPE
>;

/** See an instance (lists are filtered by it). */
export const databasesInstanceReadPermission = createPermission({
  name: 'databases.instance.read',
  attributes: { action: 'read' },
  resourceType: DATABASES_INSTANCE_RESOURCE_TYPE,
});

/**
 * Request a new instance. Conditions apply to the would-be instance (its cluster, namespace,
 * engine and requested owner), so "teams create for themselves" is expressible.
 */
export const databasesInstanceCreatePermission = createPermission({
  name: 'databases.instance.create',
  attributes: { action: 'create' },
  resourceType: DATABASES_INSTANCE_RESOURCE_TYPE,
});

/** Scale, upgrade, resize or toggle deletion protection. */
export const databasesInstanceUpdatePermission = createPermission({
  name: 'databases.instance.update',
  attributes: { action: 'update' },
  resourceType: DATABASES_INSTANCE_RESOURCE_TYPE,
});

/** Delete an instance. */
export const databasesInstanceDeletePermission = createPermission({
  name: 'databases.instance.delete',
  attributes: { action: 'delete' },
  resourceType: DATABASES_INSTANCE_RESOURCE_TYPE,
});

/** Read an instance's connection details (credentials): separate from read on purpose. */
export const databasesInstanceConnectionReadPermission = createPermission({
  name: 'databases.instance.connection.read',
  attributes: { action: 'read' },
  resourceType: DATABASES_INSTANCE_RESOURCE_TYPE,
});

/**
 * Back an instance up now (a new DatabaseBackup of it). The resource is the instance, so the
 * instance rules (its owner, namespace, cluster, engine) decide who may back what up. Reading
 * its backups is `databases.instance.read`.
 */
export const databasesBackupCreatePermission = createPermission({
  name: 'databases.backup.create',
  attributes: { action: 'create' },
  resourceType: DATABASES_INSTANCE_RESOURCE_TYPE,
});

/**
 * Delete one of an instance's backups (the operator's backup object; the stored data stays, as
 * no supported operator deletes it). The resource is the instance the backup is of.
 */
export const databasesBackupDeletePermission = createPermission({
  name: 'databases.backup.delete',
  attributes: { action: 'delete' },
  resourceType: DATABASES_INSTANCE_RESOURCE_TYPE,
});

/**
 * Create, change (cron, suspend, retention) or delete an instance's backup schedules
 * (DatabaseBackupSchedules). The resource is the instance the schedule backs up, so the instance
 * rules decide; reading them is `databases.instance.read`.
 */
export const databasesScheduleUpdatePermission = createPermission({
  name: 'databases.schedule.update',
  attributes: { action: 'update' },
  resourceType: DATABASES_INSTANCE_RESOURCE_TYPE,
});

/** Every permission of the databases plugins. */
export const databasesPermissions = [
  databasesInstanceReadPermission,
  databasesInstanceCreatePermission,
  databasesInstanceUpdatePermission,
  databasesInstanceDeletePermission,
  databasesInstanceConnectionReadPermission,
  databasesBackupCreatePermission,
  databasesBackupDeletePermission,
  databasesScheduleUpdatePermission,
];

/** The permission framework's resource ref of one instance. */
export function instanceResourceRef(
  cluster: string,
  namespace: string,
  name: string,
): string {
  return `${cluster}:${namespace}/${name}`;
}

/** Inverse of {@link instanceResourceRef}; undefined when the ref is malformed. */
export function parseInstanceResourceRef(
  ref: string,
): { cluster: string; namespace: string; name: string } | undefined {
  const match = /^([^:]+):([^/]+)\/(.+)$/.exec(ref);
  if (!match) return undefined;
  return { cluster: match[1], namespace: match[2], name: match[3] };
}
