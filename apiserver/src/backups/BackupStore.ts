import type { DatabaseBackup } from '@internal/plugin-databases-common';
import type { OperatorAdapter } from '../adapters/types';
import {
  InformerInstanceStore,
  type InformerInstanceStoreOptions,
} from '../cache/InformerInstanceStore';
import type { InstanceEvent, InstanceSource, WatchableStore, WatchSubscription } from '../cache/types';
import { backupAdapterOf, backupRunAdapters, type AdapterWithBackups } from './backupRunAdapters';
import { projectBackup } from './projectBackup';

/** The operator backup object behind a served DatabaseBackup, with the adapter that reads it. */
export interface BackupSource extends Omit<InstanceSource, 'adapter'> {
  adapter: AdapterWithBackups;
}

export type BackupStoreOptions = Omit<InformerInstanceStoreOptions, 'adapters' | 'project' | 'engineConfig'> & {
  adapters: readonly OperatorAdapter[];
};

/**
 * Every backup run of every operator with backup objects, as DatabaseBackups, fed by watches:
 * the instance store's machinery (one informer per installed backup kind and one over the Jobs
 * they own; resourceVersions the cluster's, in order; history for watches) with the backup
 * projection. Stores nothing of its own.
 */
export class BackupStore implements WatchableStore<DatabaseBackup> {
  // the instance store's element type is nominally DatabaseInstance: projectBackup fills it with
  // DatabaseBackups, which this class alone reads back (the casts below)
  private readonly inner: InformerInstanceStore;

  constructor(options: BackupStoreOptions) {
    this.inner = new InformerInstanceStore({
      ...options,
      adapters: backupRunAdapters(options.adapters),
      project: projectBackup,
    });
  }

  start(): void {
    this.inner.start();
  }

  stop(): void {
    this.inner.stop();
  }

  whenSynced(): Promise<void> {
    return this.inner.whenSynced();
  }

  hasSynced(): boolean {
    return this.inner.hasSynced();
  }

  resourceVersion(): string {
    return this.inner.resourceVersion();
  }

  list(namespace?: string): DatabaseBackup[] {
    return this.inner.list(namespace) as unknown as DatabaseBackup[];
  }

  listByLabel(key: string, value: string, namespace?: string): DatabaseBackup[] {
    return this.inner.listByLabel(key, value, namespace) as unknown as DatabaseBackup[];
  }

  get(namespace: string, name: string): DatabaseBackup | undefined {
    return this.inner.get(namespace, name) as unknown as DatabaseBackup | undefined;
  }

  watch(
    fromResourceVersion: string | undefined,
    onEvent: (event: InstanceEvent<DatabaseBackup>) => void,
    onExpired?: () => void,
  ): WatchSubscription {
    return this.inner.watch(fromResourceVersion, onEvent as unknown as (e: InstanceEvent) => void, onExpired);
  }

  onApplied(listener: () => void): () => void {
    return this.inner.onApplied(listener);
  }

  /** The backup object behind `namespace/name`, with the adapter whose backup side reads it. */
  source(namespace: string, name: string): BackupSource | undefined {
    const found = this.inner.source(namespace, name);
    return found && { ...found, adapter: backupAdapterOf(found.adapter) };
  }

  /** Every backup object of any operator named exactly `name` in `namespace`. */
  claims(namespace: string, name: string): BackupSource[] {
    return this.inner.claims(namespace, name).map(s => ({ ...s, adapter: backupAdapterOf(s.adapter) }));
  }

  builtFromRv(namespace: string, name: string): string | undefined {
    return this.inner.builtFromRv(namespace, name);
  }

  holdsChanges(): boolean {
    return this.inner.holdsChanges();
  }

  problems(): string[] {
    return this.inner.problems();
  }

  staleSince(): number | undefined {
    return this.inner.staleSince();
  }

  watchHealth(): { failing: number; total: number; since?: number } {
    return this.inner.watchHealth();
  }
}
