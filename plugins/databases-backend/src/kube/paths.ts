import {
  DATABASE_BACKUP_PLURAL,
  DATABASE_BACKUP_SCHEDULE_PLURAL,
  DATABASE_ENGINE_PLURAL,
  DATABASE_INSTANCE_PLURAL,
  DATABASES_GROUP_VERSION,
} from '@internal/plugin-databases-common';

const GV = `/apis/${DATABASES_GROUP_VERSION}`;

/** Every DatabaseInstance of the cluster. */
export const INSTANCES_PATH = `${GV}/${DATABASE_INSTANCE_PLURAL}`;
/** Every DatabaseEngine. */
export const ENGINES_PATH = `${GV}/${DATABASE_ENGINE_PLURAL}`;

/** DatabaseInstances of one namespace, or one of them, or one subresource of it. */
export function instancePath(namespace: string, name?: string, subresource?: string): string {
  let p = `${GV}/namespaces/${encodeURIComponent(namespace)}/${DATABASE_INSTANCE_PLURAL}`;
  if (name) p += `/${encodeURIComponent(name)}`;
  if (name && subresource) p += `/${subresource}`;
  return p;
}

/** Objects of a namespaced resource of the API in one namespace, or one of them. */
const namespacedPath = (plural: string) => (namespace: string, name?: string): string => {
  let p = `${GV}/namespaces/${encodeURIComponent(namespace)}/${plural}`;
  if (name) p += `/${encodeURIComponent(name)}`;
  return p;
};

/** DatabaseBackups of one namespace, or one of them. */
export const backupPath = namespacedPath(DATABASE_BACKUP_PLURAL);

/** DatabaseBackupSchedules of one namespace, or one of them. */
export const schedulePath = namespacedPath(DATABASE_BACKUP_SCHEDULE_PLURAL);
