/** An object as stored (unstructured JSON, with apiVersion/kind/metadata). */
export interface StoredObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    uid: string;
    resourceVersion: string;
    generation?: number;
    creationTimestamp: string;
    deletionTimestamp?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    finalizers?: string[];
    ownerReferences?: Array<Record<string, unknown>>;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** Identifies a resource type the emulator serves. */
export interface ResourceKey {
  group: string; // '' for core
  version: string;
  plural: string;
}

export interface ResourceDefinition extends ResourceKey {
  kind: string;
  listKind: string;
  singular: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  /** Has a status subresource (spec and status written separately, generation bumps on spec). */
  statusSubresource: boolean;
  /** For CRDs: the openAPIV3Schema of this version (validated with ajv). */
  schema?: unknown;
  /** CRD additionalPrinterColumns for this version (Table output). */
  printerColumns?: Array<{
    name: string;
    type: string;
    jsonPath: string;
    description?: string;
    priority?: number;
    format?: string;
  }>;
}

export type StoreEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  type: StoreEventType;
  resource: ResourceDefinition;
  object: StoredObject;
  oldObject?: StoredObject;
  /** Global resourceVersion of this change (as a number; encoded as a decimal string on the wire). */
  rv: number;
}

/** Thrown by store writes; the HTTP layer turns it into a Kubernetes Status. */
export class StoreError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

/**
 * The emulator's storage: one global resourceVersion counter for every object, a bounded
 * history of changes for watch resumption, and synchronous event delivery to subscribers
 * (the HTTP watch handler, the aggregation layer, the emulated operators).
 */
export interface ObjectStore {
  currentRV(): number;
  /** Oldest RV still resumable by a watch (events with rv > this are kept). */
  oldestRV(): number;
  defineResource(def: ResourceDefinition): void;
  removeResource(key: ResourceKey): void;
  resource(key: ResourceKey): ResourceDefinition | undefined;
  resources(): ResourceDefinition[];
  get(
    key: ResourceKey,
    namespace: string | undefined,
    name: string,
  ): StoredObject | undefined;
  list(key: ResourceKey, namespace?: string): StoredObject[];
  /**
   * The stored object itself, not a copy (its apiVersion may be another served version's): for
   * a reader that only looks, such as the emulated operators, which read every member of every
   * object each round. Never to be changed, nor handed to a client.
   */
  peek(key: ResourceKey, namespace: string | undefined, name: string): StoredObject | undefined;
  /** `list` without copies, for the same readers as {@link ObjectStore.peek}. */
  peekList(key: ResourceKey, namespace?: string): StoredObject[];
  /** Validates (CRD schema), sets uid/creationTimestamp/generation/resourceVersion; 409 when it exists. */
  create(
    key: ResourceKey,
    obj: Record<string, unknown>,
    opts?: { dryRun?: boolean },
  ): StoredObject;
  /**
   * Replaces the object (or only its status when `subresource === 'status'`). A non-empty
   * metadata.resourceVersion that differs from the stored one is a 409 Conflict.
   */
  update(
    key: ResourceKey,
    obj: Record<string, unknown>,
    opts?: { subresource?: 'status'; dryRun?: boolean },
  ): StoredObject;
  /** Deletes (or marks deletionTimestamp while finalizers remain). */
  delete(
    key: ResourceKey,
    namespace: string | undefined,
    name: string,
    opts?: {
      preconditions?: { uid?: string; resourceVersion?: string };
      dryRun?: boolean;
    },
  ): StoredObject;
  /** All events with rv > fromRV from history, then live events, in order. Throws StoreError 410 if too old. */
  watch(
    fromRV: number | undefined,
    onEvent: (e: StoreEvent) => void,
  ): { stop(): void };
  /**
   * Optional: the objects of a resource as they were at `rv` (for Exact-resourceVersion lists and
   * consistent continue tokens). Throws StoreError 410 when `rv` is older than the history.
   */
  listAt?(
    key: ResourceKey,
    namespace: string | undefined,
    rv: number,
  ): StoredObject[];
}
