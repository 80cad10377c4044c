import type { OperatorAdapter } from '../adapters/types';
import {
  InformerInstanceStore,
  type InformerInstanceStoreOptions,
} from '../cache/InformerInstanceStore';
import type { Projection, ProjectionInput } from '../cache/projectInstance';
import type { InstanceEvent, InstanceSource, WatchableStore, WatchSubscription } from '../cache/types';

/** The operator object behind a served object, with the adapter whose side reads it. */
export interface ProjectedSource<A extends OperatorAdapter> extends Omit<InstanceSource, 'adapter'> {
  adapter: A;
}

export type ProjectedStoreOptions = Omit<InformerInstanceStoreOptions, 'adapters' | 'project' | 'engineConfig'> & {
  adapters: readonly OperatorAdapter[];
};

/** What makes a {@link ProjectedStore} serve one kind: the side adapters, the projection, the way back. */
export interface ProjectedKind<A extends OperatorAdapter> {
  /** The side adapters the informers watch (see sideAdapters). */
  sides(adapters: readonly OperatorAdapter[]): OperatorAdapter[];
  /** How one source object is served (its projection under its served name, see asServed). */
  project(input: ProjectionInput): Projection;
  /** The real adapter a side adapter stands for. */
  adapterOf(side: OperatorAdapter): A;
}

/**
 * One served kind other than DatabaseInstance (backup runs, backup schedules) fed by watches:
 * the instance store's machinery (one informer per installed operator kind of the side and
 * over the objects they own; resourceVersions the cluster's, in order; history for watches)
 * with that kind's projection. Stores nothing of its own.
 */
export class ProjectedStore<T, A extends OperatorAdapter> implements WatchableStore<T> {
  // the instance store's element type is nominally DatabaseInstance: the projection fills it
  // with T, which this class alone reads back (the casts below)
  private readonly inner: InformerInstanceStore;

  constructor(options: ProjectedStoreOptions, private readonly kind: ProjectedKind<A>) {
    this.inner = new InformerInstanceStore({
      ...options,
      adapters: kind.sides(options.adapters),
      project: kind.project,
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

  list(namespace?: string): T[] {
    return this.inner.list(namespace) as unknown as T[];
  }

  listByLabel(key: string, value: string, namespace?: string): T[] {
    return this.inner.listByLabel(key, value, namespace) as unknown as T[];
  }

  get(namespace: string, name: string): T | undefined {
    return this.inner.get(namespace, name) as unknown as T | undefined;
  }

  watch(
    fromResourceVersion: string | undefined,
    onEvent: (event: InstanceEvent<T>) => void,
    onExpired?: () => void,
  ): WatchSubscription {
    return this.inner.watch(fromResourceVersion, onEvent as unknown as (e: InstanceEvent) => void, onExpired);
  }

  onApplied(listener: () => void): () => void {
    return this.inner.onApplied(listener);
  }

  /** The operator object behind `namespace/name`, with the adapter whose side reads it. */
  source(namespace: string, name: string): ProjectedSource<A> | undefined {
    const found = this.inner.source(namespace, name);
    return found && { ...found, adapter: this.kind.adapterOf(found.adapter) };
  }

  /** Every served operator object of any operator named exactly `name` in `namespace`. */
  claims(namespace: string, name: string): ProjectedSource<A>[] {
    return this.inner.claims(namespace, name).map(s => ({ ...s, adapter: this.kind.adapterOf(s.adapter) }));
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
