import type {
  DatabaseEngine,
  DatabaseInstance,
} from '@internal/plugin-databases-common';
import type { KubeObject, OperatorAdapter, SourceKind } from '../adapters/types';

/**
 * A change to one served object (an instance; a backup run in the backup store), as delivered to
 * watchers in resourceVersion order.
 */
export interface InstanceEvent<T = DatabaseInstance> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  /** New state (for DELETED: the last state, carrying the deletion's resourceVersion). */
  object: T;
  /** Previous state for MODIFIED/DELETED (needed for selector transitions). */
  oldObject?: T;
  /** Decimal resourceVersion of this event (= object.metadata.resourceVersion). */
  resourceVersion: string;
}

/** Thrown by `InstanceStore.watch` when the asked-for resourceVersion is older than the kept window. */
export class ResourceVersionExpiredError extends Error {
  constructor(
    readonly requested: string,
    readonly oldest: string,
  ) {
    super(`too old resource version: ${requested} (${oldest})`);
    this.name = 'ResourceVersionExpiredError';
  }
}

/** The operator object an instance is projected from, with the adapter and kind that read it. */
export interface InstanceSource {
  /** As last seen by the watch cache (bulky fields stripped); never mutate it. */
  object: KubeObject;
  adapter: OperatorAdapter;
  kind: SourceKind;
}

export interface WatchSubscription {
  stop(): void;
}

/** What lists and watches of one served resource read (see InstanceStore for the rules). */
export interface WatchableStore<T> {
  hasSynced(): boolean;
  resourceVersion(): string;
  list(namespace?: string): T[];
  watch(
    fromResourceVersion: string | undefined,
    onEvent: (event: InstanceEvent<T>) => void,
    onExpired?: () => void,
  ): WatchSubscription;
  onApplied(listener: () => void): () => void;
}

/**
 * In-memory projection of every operator object as a DatabaseInstance, fed by watches.
 * The HTTP layer reads only this; it never calls the Kubernetes API per request.
 */
export interface InstanceStore {
  /** True once every informer has listed once. */
  hasSynced(): boolean;
  /** Largest resourceVersion seen (decimal string; "0" before sync). */
  resourceVersion(): string;
  /**
   * Every instance, or those of one namespace, sorted by namespace then name. The array may be
   * shared with other callers until the next change: never mutate it.
   */
  list(namespace?: string): DatabaseInstance[];
  /**
   * Instances labelled `key=value` (in `namespace` when given), sorted like `list`, from an
   * index rather than a scan. Optional: callers fall back to filtering `list`.
   */
  listByLabel?(key: string, value: string, namespace?: string): DatabaseInstance[];
  get(namespace: string, name: string): DatabaseInstance | undefined;
  /**
   * Calls `onEvent` for every change with resourceVersion > fromResourceVersion (from the kept
   * history, then live), in increasing resourceVersion order. Throws ResourceVersionExpiredError
   * when fromResourceVersion is older than the kept window. Without fromResourceVersion, only
   * live events are delivered. `onExpired`: a change could only be told at a resourceVersion
   * the watcher already holds (informers ignore an update at the same resourceVersion), so the
   * watch ends there and the client must list again, as kube-apiserver's 410 says; a watcher
   * without it gets that change as an event.
   */
  watch(
    fromResourceVersion: string | undefined,
    onEvent: (event: InstanceEvent) => void,
    onExpired?: () => void,
  ): WatchSubscription;
  /**
   * The operator object behind the instance served as `namespace/name` (served names can be
   * engine-qualified, `orders.redis`, when two operators use one name), for writes and for
   * the connection subresource.
   */
  source(namespace: string, name: string): InstanceSource | undefined;
  /**
   * How `object`, a would-be version of the operator object behind `namespace/name`, would be
   * served: projected with the related objects and rollout memory the instance has now (a dry
   * run shows what a client will see next). Nothing is kept. Optional: callers fall back to
   * projecting the object alone.
   */
  preview?(namespace: string, name: string, object: KubeObject): DatabaseInstance | undefined;
  /**
   * The resourceVersion of the operator object the served `namespace/name` was last built
   * from, which can be newer than the instance's own (a change that alters nothing served).
   */
  builtFromRv?(namespace: string, name: string): string | undefined;
  /**
   * Whether changes the informers delivered are not applied yet: in the batch window, or late
   * changes waiting for a newer resourceVersion (see LateChanges). Optional.
   */
  holdsChanges?(): boolean;
  /**
   * Every operator object of any supported kind named exactly `name` in `namespace`
   * (a create must not reuse a name any operator already holds there).
   */
  claims(namespace: string, name: string): InstanceSource[];
  /** One DatabaseEngine per adapter, with installed flags and instance counts. */
  engines(): DatabaseEngine[];
  /** Human-readable problems (for /readyz detail and status conditions), empty when healthy. */
  problems(): string[];
  /**
   * Calls `listener` after every change the store applied (instances, sources or its
   * resourceVersion may have moved), so that a request waits on the store instead of polling
   * it. Returns the unsubscribe.
   */
  onApplied(listener: () => void): () => void;
}
