import {
  DATABASE_INSTANCE_CONNECTION_KIND,
  DATABASE_INSTANCE_CONNECTION_SUBRESOURCE,
  DATABASE_INSTANCE_DIAGNOSIS_KIND,
  DATABASE_INSTANCE_DIAGNOSIS_SUBRESOURCE,
  type DatabaseBackup,
  type DatabaseBackupSchedule,
  type DatabaseEngine,
  type DatabaseInstance,
} from '@internal/plugin-databases-common';
import type { BackupStore } from '../backups/BackupStore';
import type { ScheduleStore } from '../backups/ScheduleStore';
import type { InstanceStore } from '../cache/types';
import type { ServedResource } from './discovery';
import { ListSnapshots } from './ListSnapshots';
import {
  createBackup,
  createInstance,
  deleteBackup,
  deleteCollection,
  deleteInstance,
  patchInstance,
  serveConnection,
  serveDiagnosis,
  updateInstance,
  type WriteDeps,
} from './mutate';
import { createSchedule, deleteSchedule, patchSchedule, updateSchedule } from './mutate/scheduleWrites';
import { serveGet, serveList, type HandlerContext } from './readHandlers';
import { backupSource, engineSource, instanceSource, scheduleSource } from './ResourceSource';
import type { Verb } from './resources';
import { serveWatch, type WatchSettings } from './watch';

/** Handles one verb on one resource (or subresource). */
export type VerbHandler = (ctx: HandlerContext) => Promise<void>;

/** The per-resource handler table: discovery advertises exactly the verbs present here. */
export interface ResourceHandlers {
  served: ServedResource;
  /** Whether the cache it is served from has listed everything once. */
  synced: () => boolean;
  verbs: Partial<Record<Verb, VerbHandler>>;
  subresources: Record<string, Partial<Record<Verb, VerbHandler>>>;
}

/** What {@link buildResourceTable} serves from. */
export interface ResourceTableParts {
  store: InstanceStore;
  backups?: BackupStore;
  schedules?: ScheduleStore;
  /** Without them the API is read-only: writes are neither routed nor advertised. */
  writes?: WriteDeps;
  /** How long continue tokens stay valid. */
  continueTtlMs?: number;
  /** What every watch of every resource shares (its store and definition are the resource's). */
  watch: Omit<WatchSettings, 'store' | 'definition'>;
}

/**
 * The served resources, each with the handlers of its verbs and subresources: discovery, the
 * OpenAPI documents and routing all follow this table, so a verb is advertised exactly when it
 * has a handler. databaseinstances and databaseengines always; databasebackups and
 * databasebackupschedules when their stores are given.
 */
export function buildResourceTable(parts: ResourceTableParts): Record<string, ResourceHandlers> {
  const { store, writes, watch } = parts;
  const instances = instanceSource(store);
  const engines = engineSource(store);
  const instanceSnapshots = new ListSnapshots<DatabaseInstance>({ ttlMs: parts.continueTtlMs });
  const engineSnapshots = new ListSnapshots<DatabaseEngine>({ ttlMs: parts.continueTtlMs });
  const instanceWatches = { ...watch, store, definition: instances.definition };
  const table: Record<string, ResourceHandlers> = {};
  const register = (
    served: Omit<ServedResource, 'verbs' | 'subresources'>,
    verbs: ResourceHandlers['verbs'],
    subresources: ResourceHandlers['subresources'] = {},
    subresourceKinds: Record<string, string> = {},
    synced: () => boolean = () => store.hasSynced(),
  ) => {
    table[served.definition.plural] = {
      synced,
      served: {
        ...served,
        verbs: Object.keys(verbs) as Verb[],
        subresources: Object.entries(subresources).map(([name, v]) => ({
          name,
          verbs: Object.keys(v) as Verb[],
          ...(subresourceKinds[name] ? { kind: subresourceKinds[name] } : {}),
        })),
      },
      verbs,
      subresources,
    };
  };
  register(
    { definition: instances.definition },
    {
      get: ctx => serveGet(ctx, instances),
      list: ctx => serveList(ctx, instances, instanceSnapshots),
      watch: ctx => serveWatch(ctx, instanceWatches),
      ...(writes
        ? {
            create: ctx => createInstance(ctx, writes),
            update: ctx => updateInstance(ctx, writes),
            patch: ctx => patchInstance(ctx, writes),
            delete: ctx => deleteInstance(ctx, writes),
            deletecollection: ctx => deleteCollection(ctx, writes),
          }
        : {}),
    },
    {
      status: { get: ctx => serveGet(ctx, instances) },
      ...(writes
        ? {
            [DATABASE_INSTANCE_CONNECTION_SUBRESOURCE]: { get: ctx => serveConnection(ctx, writes) },
            [DATABASE_INSTANCE_DIAGNOSIS_SUBRESOURCE]: { get: ctx => serveDiagnosis(ctx, writes) },
          }
        : {}),
    },
    {
      [DATABASE_INSTANCE_CONNECTION_SUBRESOURCE]: DATABASE_INSTANCE_CONNECTION_KIND,
      [DATABASE_INSTANCE_DIAGNOSIS_SUBRESOURCE]: DATABASE_INSTANCE_DIAGNOSIS_KIND,
    },
  );
  register(
    { definition: engines.definition },
    { get: ctx => serveGet(ctx, engines), list: ctx => serveList(ctx, engines, engineSnapshots) },
  );
  if (parts.backups) {
    const backupStore = parts.backups;
    const backups = backupSource(backupStore);
    const backupSnapshots = new ListSnapshots<DatabaseBackup>({ ttlMs: parts.continueTtlMs });
    const backupWatches = { ...watch, store: backupStore, definition: backups.definition };
    const backupWrites = writes && { ...writes, backups: backupStore };
    register(
      { definition: backups.definition },
      {
        get: ctx => serveGet(ctx, backups),
        list: ctx => serveList(ctx, backups, backupSnapshots),
        watch: ctx => serveWatch(ctx, backupWatches),
        ...(backupWrites
          ? {
              create: ctx => createBackup(ctx, backupWrites),
              delete: ctx => deleteBackup(ctx, backupWrites),
            }
          : {}),
      },
      { status: { get: ctx => serveGet(ctx, backups) } },
      {},
      () => backupStore.hasSynced(),
    );
  }

  if (parts.schedules) {
    const scheduleStore = parts.schedules;
    const schedules = scheduleSource(scheduleStore);
    const scheduleSnapshots = new ListSnapshots<DatabaseBackupSchedule>({ ttlMs: parts.continueTtlMs });
    const scheduleWatches = { ...watch, store: scheduleStore, definition: schedules.definition };
    const scheduleWrites = writes && { ...writes, schedules: scheduleStore, backups: parts.backups };
    register(
      { definition: schedules.definition },
      {
        get: ctx => serveGet(ctx, schedules),
        list: ctx => serveList(ctx, schedules, scheduleSnapshots),
        watch: ctx => serveWatch(ctx, scheduleWatches),
        ...(scheduleWrites
          ? {
              create: ctx => createSchedule(ctx, scheduleWrites),
              update: ctx => updateSchedule(ctx, scheduleWrites),
              patch: ctx => patchSchedule(ctx, scheduleWrites),
              delete: ctx => deleteSchedule(ctx, scheduleWrites),
            }
          : {}),
      },
      { status: { get: ctx => serveGet(ctx, schedules) } },
      {},
      () => scheduleStore.hasSynced(),
    );
  }
  return table;
}
