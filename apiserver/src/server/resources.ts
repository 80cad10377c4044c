import {
  DATABASE_BACKUP_KIND,
  DATABASE_BACKUP_PLURAL,
  DATABASE_BACKUP_SHORT_NAMES,
  DATABASE_BACKUP_SINGULAR,
  DATABASE_BACKUP_SCHEDULE_KIND,
  DATABASE_BACKUP_SCHEDULE_PLURAL,
  DATABASE_BACKUP_SCHEDULE_SHORT_NAMES,
  DATABASE_BACKUP_SCHEDULE_SINGULAR,
  DATABASE_ENGINE_KIND,
  DATABASE_ENGINE_PLURAL,
  DATABASE_ENGINE_SINGULAR,
  DATABASE_INSTANCE_KIND,
  DATABASE_INSTANCE_PLURAL,
  DATABASE_INSTANCE_SHORT_NAMES,
  DATABASE_INSTANCE_SINGULAR,
  DATABASES_CATEGORY,
  type DatabaseBackup,
  type DatabaseBackupSchedule,
  type DatabaseEngine,
  type DatabaseInstance,
} from '@internal/plugin-databases-common';
import { backupTablePrinter } from '../table/backupTablePrinter';
import { scheduleTablePrinter } from '../table/scheduleTablePrinter';
import { engineTablePrinter } from '../table/engineTablePrinter';
import { instanceTablePrinter } from '../table/instanceTablePrinter';
import type { TablePrinter } from '../table/types';

/** A Kubernetes verb as RBAC and discovery name it. */
export type Verb =
  | 'get'
  | 'list'
  | 'watch'
  | 'create'
  | 'update'
  | 'patch'
  | 'delete'
  | 'deletecollection';

/** Static description of one served resource: names, scope and how it prints and filters. */
export interface ResourceDefinition<T = unknown> {
  plural: string;
  singular: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  description: string;
  /** Fields usable in `fieldSelector`, with their values for one object. */
  fieldSelectors: readonly string[];
  fieldsOf(obj: T): Record<string, string>;
  printer: TablePrinter<T>;
}

/** `databaseinstances`: namespaced. Field selectors beyond metadata.* are `spec.engine` and `status.phase`. */
export const databaseInstances: ResourceDefinition<DatabaseInstance> = {
  plural: DATABASE_INSTANCE_PLURAL,
  singular: DATABASE_INSTANCE_SINGULAR,
  kind: DATABASE_INSTANCE_KIND,
  listKind: `${DATABASE_INSTANCE_KIND}List`,
  namespaced: true,
  shortNames: [...DATABASE_INSTANCE_SHORT_NAMES],
  categories: [DATABASES_CATEGORY],
  description:
    'DatabaseInstance is one database of any supported engine, projected from the object of the operator that runs it.',
  fieldSelectors: ['metadata.name', 'metadata.namespace', 'spec.engine', 'status.phase'],
  fieldsOf: o => ({
    'metadata.name': o.metadata.name ?? '',
    'metadata.namespace': o.metadata.namespace ?? '',
    'spec.engine': o.spec?.engine ?? '',
    'status.phase': o.status?.phase ?? '',
  }),
  printer: instanceTablePrinter,
};

/** `databaseengines`: cluster-scoped, one per supported operator. */
export const databaseEngines: ResourceDefinition<DatabaseEngine> = {
  plural: DATABASE_ENGINE_PLURAL,
  singular: DATABASE_ENGINE_SINGULAR,
  kind: DATABASE_ENGINE_KIND,
  listKind: `${DATABASE_ENGINE_KIND}List`,
  namespaced: false,
  categories: [DATABASES_CATEGORY],
  description:
    'DatabaseEngine describes one supported database operator: whether it is installed, what it offers and how many instances it runs.',
  fieldSelectors: ['metadata.name', 'metadata.namespace'],
  fieldsOf: o => ({ 'metadata.name': o.metadata.name ?? '', 'metadata.namespace': '' }),
  printer: engineTablePrinter,
};

/** `databasebackups`: namespaced, one per backup run. Field selectors beyond metadata.* are `spec.instanceRef.name` and `status.phase`. */
export const databaseBackups: ResourceDefinition<DatabaseBackup> = {
  plural: DATABASE_BACKUP_PLURAL,
  singular: DATABASE_BACKUP_SINGULAR,
  kind: DATABASE_BACKUP_KIND,
  listKind: `${DATABASE_BACKUP_KIND}List`,
  namespaced: true,
  shortNames: [...DATABASE_BACKUP_SHORT_NAMES],
  categories: [DATABASES_CATEGORY],
  description:
    'DatabaseBackup is one backup run of a DatabaseInstance, projected from the backup object of the operator that runs it. Deleting it deletes that object only: no supported operator deletes the stored backup data.',
  fieldSelectors: ['metadata.name', 'metadata.namespace', 'spec.instanceRef.name', 'status.phase'],
  fieldsOf: o => ({
    'metadata.name': o.metadata.name ?? '',
    'metadata.namespace': o.metadata.namespace ?? '',
    'spec.instanceRef.name': o.spec?.instanceRef?.name ?? '',
    'status.phase': o.status?.phase ?? '',
  }),
  printer: backupTablePrinter,
};

/** `databasebackupschedules`: namespaced, one per operator schedule object. Field selectors beyond metadata.* are `spec.instanceRef.name` and `spec.suspend`. */
export const databaseBackupSchedules: ResourceDefinition<DatabaseBackupSchedule> = {
  plural: DATABASE_BACKUP_SCHEDULE_PLURAL,
  singular: DATABASE_BACKUP_SCHEDULE_SINGULAR,
  kind: DATABASE_BACKUP_SCHEDULE_KIND,
  listKind: `${DATABASE_BACKUP_SCHEDULE_KIND}List`,
  namespaced: true,
  shortNames: [...DATABASE_BACKUP_SCHEDULE_SHORT_NAMES],
  categories: [DATABASES_CATEGORY],
  description:
    'DatabaseBackupSchedule is one backup schedule of a DatabaseInstance (a 5-field cron in UTC), projected from the schedule object of the operator that runs it (mariadb-operator Backup with spec.schedule, CloudNativePG ScheduledBackup).',
  fieldSelectors: ['metadata.name', 'metadata.namespace', 'spec.instanceRef.name', 'spec.suspend'],
  fieldsOf: o => ({
    'metadata.name': o.metadata.name ?? '',
    'metadata.namespace': o.metadata.namespace ?? '',
    'spec.instanceRef.name': o.spec?.instanceRef?.name ?? '',
    'spec.suspend': String(o.spec?.suspend === true),
  }),
  printer: scheduleTablePrinter,
};
