import type { InstanceStore } from '../cache/types';
import type { DatabaseBackup, DatabaseBackupSchedule, DatabaseEngine, DatabaseInstance } from '@internal/plugin-databases-common';
import type { BackupStore } from '../backups/BackupStore';
import type { ScheduleStore } from '../backups/ScheduleStore';
import { databaseBackups, databaseBackupSchedules, databaseEngines, databaseInstances, type ResourceDefinition } from './resources';
import type { KubeObject } from './encode';

/** Read access to one resource's objects, whatever holds them. */
export interface ResourceSource<T extends KubeObject> {
  definition: ResourceDefinition<T>;
  /** Current resourceVersion the data is consistent with. */
  resourceVersion(): string;
  /** Every object, or those of one namespace ('' = all), in a stable order. */
  list(namespace: string): T[];
  /** Objects labelled `key=value` (in `namespace` unless ''), from an index; absent = filter `list`. */
  listByLabel?(key: string, value: string, namespace: string): T[];
  get(namespace: string, name: string): T | undefined;
  /** After every change applied to the data (see InstanceStore.onApplied). */
  onApplied(listener: () => void): () => void;
}

/** `databaseinstances` from the InstanceStore. */
export function instanceSource(store: InstanceStore): ResourceSource<DatabaseInstance> {
  return {
    definition: databaseInstances,
    resourceVersion: () => store.resourceVersion(),
    list: ns => store.list(ns || undefined),
    ...(store.listByLabel
      ? { listByLabel: (key: string, value: string, ns: string) => store.listByLabel!(key, value, ns || undefined) }
      : {}),
    get: (ns, name) => store.get(ns, name),
    onApplied: listener => store.onApplied(listener),
  };
}

/** `databaseengines` from the InstanceStore (a handful of objects, built by the store). */
export function engineSource(store: InstanceStore): ResourceSource<DatabaseEngine> {
  const byName = (a: DatabaseEngine, b: DatabaseEngine) =>
    (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');
  return {
    definition: databaseEngines,
    resourceVersion: () => store.resourceVersion(),
    list: () => [...store.engines()].sort(byName),
    get: (_ns, name) => store.engines().find(e => e.metadata.name === name),
    onApplied: listener => store.onApplied(listener),
  };
}

/** `databasebackups` from the BackupStore. */
export function backupSource(store: BackupStore): ResourceSource<DatabaseBackup> {
  return {
    definition: databaseBackups,
    resourceVersion: () => store.resourceVersion(),
    list: ns => store.list(ns || undefined),
    listByLabel: (key, value, ns) => store.listByLabel(key, value, ns || undefined),
    get: (ns, name) => store.get(ns, name),
    onApplied: listener => store.onApplied(listener),
  };
}

/** `databasebackupschedules` from the ScheduleStore. */
export function scheduleSource(store: ScheduleStore): ResourceSource<DatabaseBackupSchedule> {
  return {
    definition: databaseBackupSchedules,
    resourceVersion: () => store.resourceVersion(),
    list: ns => store.list(ns || undefined),
    listByLabel: (key, value, ns) => store.listByLabel(key, value, ns || undefined),
    get: (ns, name) => store.get(ns, name),
    onApplied: listener => store.onApplied(listener),
  };
}
