import type {
  DatabaseEngineName,
  DatabaseInstance,
  DatabaseTopology,
} from '@internal/plugin-databases-common';

/** Any Kubernetes object as it comes off the wire (unstructured). */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    generation?: number;
    creationTimestamp?: string;
    deletionTimestamp?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    [key: string]: unknown;
  };
  spec?: any;
  status?: any;
  [key: string]: unknown;
}

/** A Kubernetes resource type an adapter reads (an operator CRD, or a core kind it depends on). */
export interface ResourceType {
  group: string; // '' for core
  version: string;
  plural: string;
  kind: string;
}

/** A primary operator kind: each object of it is one DatabaseInstance. */
export interface SourceKind extends ResourceType {
  /** Topologies objects of this kind can have. */
  topologies: DatabaseTopology[];
}

/** Reference to a related object an instance is built from. */
export interface RelatedRef {
  type: ResourceType;
  namespace: string;
  name: string;
}

/**
 * Read access to related objects (StatefulSets and the like), served from watch caches,
 * never from per-request calls.
 */
export interface RelatedLookup {
  get(ref: RelatedRef): KubeObject | undefined;
}

/**
 * An operator adapter: pure functions from upstream objects to a DatabaseInstance.
 * Adding an operator means one folder exporting one of these and one registry line.
 */
export interface OperatorAdapter {
  /** Folder name = upstream project id, e.g. `mariadb-operator`. */
  id: string;
  engine: DatabaseEngineName;
  /** Human name of the upstream operator project. */
  operator: string;
  /** OperatorHub capability level (1..5). */
  capabilityLevel: number;
  /** Primary kinds; every object of these is an instance. */
  kinds: SourceKind[];
  /** Related kinds the projection reads (watched by the cache), e.g. apps/v1 StatefulSets. */
  relatedTypes: ResourceType[];
  /** Versions offered for new instances (documented default list; config may override). */
  versions: string[];
  /**
   * Which related objects the instance for `source` is built from. The cache re-projects the
   * instance when one of them changes, and takes the largest resourceVersion among them.
   */
  relatedRefs(source: KubeObject, kind: SourceKind): RelatedRef[];
  /**
   * Pure projection of one operator object (and its related objects) to a DatabaseInstance.
   * Sets spec (engine, version, topology, replicas, storage, resources as read back from the
   * operator object) and status (phase via the shared phase table, reason, message,
   * conditions, source, operatorStatus, version, replicas, endpoints, credentialsSecretRef,
   * observedGeneration). Metadata: name/namespace/uid/creationTimestamp/labels/annotations
   * copied from the source; resourceVersion is set by the cache.
   */
  project(source: KubeObject, kind: SourceKind, related: RelatedLookup): DatabaseInstance;
}
