import type { KubeObject, ResourceType } from '../adapters/types';

/**
 * What the store needs from an informer: client-node's `Informer & ObjectCache` (ListWatch)
 * satisfies it; tests drive a fake.
 */
export interface ResourceInformer {
  on(verb: 'add' | 'update' | 'delete', cb: (obj: KubeObject) => void): void;
  on(verb: 'error', cb: (err?: unknown) => void): void;
  /** Lists (unless it has a resourceVersion to resume from), then watches. */
  start(): Promise<void>;
  stop(): Promise<void>;
  get(name: string, namespace?: string): KubeObject | undefined;
  list(namespace?: string): ReadonlyArray<KubeObject>;
}

/** Hooks the store gives each informer it creates. */
export interface InformerHooks {
  /**
   * Call after each completed list, once its items have been delivered as add/update/delete,
   * with the list's resourceVersion (the cluster's RV at that moment).
   */
  onListed(resourceVersion?: string): void;
  /**
   * Call when a watch BOOKMARK arrives: every change up to its resourceVersion has been
   * delivered. Optional for factories whose watches have no bookmarks.
   */
  onProgress?(resourceVersion: string): void;
  /**
   * Call when a watch request has been answered 200 (the stream is open): after a failure, the
   * informer is current again from here on, before the changes it missed are replayed.
   */
  onWatching?(): void;
}

/** Makes an informer over every object of a type, in all namespaces. */
export type InformerFactory = (
  type: ResourceType,
  hooks: InformerHooks,
) => ResourceInformer;
