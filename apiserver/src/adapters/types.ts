import type {
  BackupCapabilities,
  ConnectionEndpoint,
  DatabaseBackup,
  DatabaseBackupSchedule,
  DatabaseBackupScheduleSpec,
  DatabaseBackupSpec,
  InstanceBackupStatus,
  DiagnosisFinding,
  DatabaseEngineName,
  DatabaseInstance,
  DatabaseInstanceSpec,
  DatabaseTopology,
  ResourceList,
  RestoreFrom,
} from '@internal/plugin-databases-common';
import type { FieldCause } from '../writes/FieldCause';
import type { EngineRules } from '../writes/EngineRules';
import type { PauseSwitch } from '../writes/pauseSwitch';
import type { PrimarySwitch, UpdateContext } from '../writes/primarySwitch';
import type { MemberSource } from './shared/members';

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
  /**
   * Only objects with these labels are watched (a label selector): an operator's member pods,
   * never every pod of the cluster. Part of the type's identity (its informer and object keys).
   */
  labelSelector?: string;
  /**
   * Only the objects of one namespace, or matching a field selector, are watched (the policy
   * ConfigMap: one object, where the apiserver may read ConfigMaps of that namespace only).
   */
  namespace?: string;
  fieldSelector?: string;
  /** What the cache keeps of each object (applied on arrival), where adapters read only a part. */
  slim?: (obj: KubeObject) => KubeObject;
}

/** A primary operator kind: each object of it is one DatabaseInstance. */
export interface SourceKind extends ResourceType {
  /** Topologies objects of this kind can have. */
  topologies: DatabaseTopology[];
  /**
   * Where one object of the kind holds several served ones (an InnoDBCluster's
   * `spec.backupSchedules[]`): each as an object of its own, named as served, carrying what its
   * projection reads. The store's informer of the kind then serves these instead (expandingInformer).
   */
  expand?(parent: KubeObject): KubeObject[];
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
   * Whether the cache serves `source` at all (default: every object of `kinds` is served). A
   * kind shared by two served resources (mariadb-operator's Backup: one run, or with
   * `spec.schedule` a schedule) is split by it; an object that stops being served is DELETED.
   * It may read the objects `relatedRefs` names (a Job is a run only of a scheduled Backup): the
   * cache asks again when one of them changes, served or not.
   */
  serves?(source: KubeObject, kind: SourceKind, related: RelatedLookup): boolean;
  /**
   * Pure projection of one operator object (and its related objects) to a DatabaseInstance.
   * Sets spec (engine, version, topology, replicas, storage, resources as read back from the
   * operator object) and status (phase via the shared phase table, reason, message,
   * conditions, source, operatorStatus, version, replicas, endpoints, credentialsSecretRef,
   * observedGeneration). Metadata: name/namespace/uid/creationTimestamp/labels/annotations
   * copied from the source; resourceVersion is set by the cache.
   */
  project(
    source: KubeObject,
    kind: SourceKind,
    related: RelatedLookup,
  ): DatabaseInstance;
  /**
   * Label selectors of the pods and volume claims the operator creates for `source` (its
   * documented labels; one per set of members), read by the `diagnosis` subresource. Without
   * it a diagnosis says only what the operator status tells.
   */
  memberSelectors?(
    source: KubeObject,
    kind: SourceKind,
  ): Array<Record<string, string>>;
  /**
   * What the operator's own status says is wrong, in plain words with a hint each (Galera
   * recovery per member, a cluster without quorum): pure, from the object alone.
   */
  findings?(source: KubeObject, instance: DatabaseInstance): DiagnosisFinding[];
  /** How its members (pods) and their roles are read; `withMembers` adds them to the projection. */
  members?: MemberSource;
  /**
   * The write side (self-service through the API). Optional so that read-only adapters and
   * test fakes stay valid; every shipped adapter has one. Without it, writes are refused.
   */
  write?: AdapterWriteSide;
  /**
   * The operator's backup runs, where it has backup objects (mariadb-operator, mysql-operator,
   * CloudNativePG). Absent: the engine has no backups, and requests for them are refused.
   */
  backups?: BackupSide;
}

/**
 * An operator's backups: each object of `kinds` is one backup run, served as a DatabaseBackup.
 * Pure functions, no I/O, like the rest of the adapter; the cache watches `kinds` and
 * `relatedTypes` and calls `project` when any of them changes.
 */
export interface BackupSide {
  capabilities: BackupCapabilities;
  /** Kinds of which each object is one backup run (their `topologies` are empty). */
  kinds: SourceKind[];
  /** What the phase is decided from beside the object itself (the Job a run owns, batch/v1). */
  relatedTypes: ResourceType[];
  /** Which related objects the backup run `source` is built from. */
  relatedRefs(source: KubeObject, kind: SourceKind): RelatedRef[];
  /**
   * Pure projection of one backup object (and its related objects) to a DatabaseBackup: spec
   * (instanceRef, method) read back from the object; status with the phase decided from what
   * the operator documents and its Job, never from one completion flag alone. Metadata: name,
   * namespace, uid, creationTimestamp, labels, annotations from the source; the cache sets
   * resourceVersion.
   */
  project(source: KubeObject, kind: SourceKind, related: RelatedLookup): DatabaseBackup;
  /**
   * Every bad field of a request to back up `target` (the instance's operator object) now:
   * an unknown `spec.method`, or one the object is not configured for. Kubernetes field paths.
   */
  validate(spec: DatabaseBackupSpec, target: KubeObject): FieldCause[];
  /** The operator object that takes the backup `backup` of `target` now (valid, defaulted). */
  toOperatorObject(backup: DatabaseBackup, target: KubeObject, options?: BuildOptions): KubeObject;
  /** Which objects of `kinds` are runs (default: all; see OperatorAdapter.serves). */
  serves?(source: KubeObject, kind: SourceKind, related: RelatedLookup): boolean;
  /** The operator's schedules, each served as a DatabaseBackupSchedule, where this API serves them. */
  schedules?: ScheduleSide;
  /** Why schedules of this operator are refused although it has them (no `schedules`). */
  scheduleRefusal?: string;
  /**
   * The last runs the operator records on the instance's own object (`target`), where it does
   * (CloudNativePG's status.lastSuccessfulBackup); served in `status.backup`.
   */
  recordedRuns?(target: KubeObject): Pick<InstanceBackupStatus, 'lastSuccessfulTime' | 'lastFailedTime' | 'firstRecoverabilityPoint'>;
}

/**
 * An operator's backup schedules: each object of `kinds` that `serves` accepts is one schedule,
 * served as a DatabaseBackupSchedule. Pure, like the rest of the adapter.
 */
export interface ScheduleSide {
  kinds: SourceKind[];
  relatedTypes: ResourceType[];
  relatedRefs(source: KubeObject, kind: SourceKind): RelatedRef[];
  serves?(source: KubeObject, kind: SourceKind, related: RelatedLookup): boolean;
  /** One schedule object (and what it runs: a CronJob) as a DatabaseBackupSchedule. */
  project(source: KubeObject, kind: SourceKind, related: RelatedLookup): DatabaseBackupSchedule;
  /**
   * Every bad field of `spec` for `target` (the instance's operator object) that this operator
   * cannot honour (retention it keeps elsewhere, a method the instance lacks). The cron itself
   * is checked before, the same for every operator (validateCron). Kubernetes field paths.
   */
  validate(spec: DatabaseBackupScheduleSpec, target: KubeObject): FieldCause[];
  /** The operator object that runs `schedule` for `target` (valid, defaulted). */
  toOperatorObject(schedule: DatabaseBackupSchedule, target: KubeObject, options?: BuildOptions): KubeObject;
  /** `current` (the schedule's operator object) changed to run as `spec` says; the rest kept. */
  applyUpdate(current: KubeObject, spec: DatabaseBackupScheduleSpec): KubeObject;
  /**
   * Where the operator keeps its schedules as entries of the instance's own object (mysql-operator's
   * InnoDBCluster `spec.backupSchedules[]`), not as objects of their own: `kinds` expand to one
   * object per entry (SourceKind.expand), `toOperatorObject` and `applyUpdate` build such an entry
   * object, and a write changes the instance's object instead.
   */
  embedded?: EmbeddedSchedules;
}

/** How schedules kept inside the instance's object are written (see ScheduleSide.embedded). */
export interface EmbeddedSchedules {
  /** The entry the served name `name` stands for in `target`, or why no entry can have it (a field of `metadata`). */
  entryName(name: string, target: KubeObject): { entry: string } | { cause: FieldCause };
  /** The instance `entryObject` (an expanded entry object) belongs to. */
  instanceOf(entryObject: KubeObject): string;
  /** A merge patch of `target`'s spec that puts `entryObject`'s entry in place of the one served as `name` (adds it when new), or removes that one (no entryObject). */
  specPatch(target: KubeObject, name: string, entryObject: KubeObject | undefined): Record<string, unknown>;
  /** Why labels and annotations cannot be kept (the entries carry none). */
  noMetadata: string;
}

/** What a new instance gets for each field the request leaves out (per engine and topology). */
export interface InstanceDefaults {
  version: string;
  replicas: number;
  storage: { size: string };
  resources: { requests?: ResourceList; limits?: ResourceList };
}

/** Options for building an operator object. */
export interface BuildOptions {
  /**
   * The authenticated user who asked (`X-Remote-User`). Stamped on the operator object as a
   * sanitised label and, verbatim, as an annotation; values the client sent are replaced.
   */
  requestedBy?: string;
}

/** Per-cluster knobs for validation (config may narrow what an engine offers). */
export interface ValidationContext {
  /** Versions allowed for new instances and upgrades; defaults to the adapter's `versions`. */
  versions?: readonly string[];
}

/** Result of mapping a spec change onto an existing operator object. */
export type UpdateResult = { object: KubeObject } | { causes: FieldCause[] };

/** Connection details of an instance, before they are wrapped into the wire object. */
export interface ConnectionDetails {
  host: string;
  port: number;
  /** Absent when the engine runs without users (Redis without a password). */
  username?: string;
  /** Absent when the engine runs without auth, or the credentials Secret is not there (yet). */
  password?: string;
  /** Database to connect to, where the operator created one for the application. */
  database?: string;
  /** Connection URI for the engine's clients, with credentials URL-encoded. */
  uri: string;
  endpoints: ConnectionEndpoint[];
  /** The Secret the credentials come from. */
  secretRef?: { name: string };
}

/**
 * The write side of an adapter: pure functions from a DatabaseInstance to the operator object
 * and back, no I/O. The HTTP layer applies defaults, validates, checks policy, then creates
 * `secretsToCreate` and `toOperatorObject`; updates go through `applyUpdate`.
 */
export interface AdapterWriteSide {
  /** The operator's rules as data (versions, replica counts, what may change). */
  rules: EngineRules;
  /** Topologies offered for new instances. */
  topologies: DatabaseTopology[];
  /** How the operator pauses an instance (`spec.paused`); absent where it cannot. */
  pause?: PauseSwitch;
  /** How the operator moves its primary (`spec.primary`); absent where it has no switchover. */
  primary?: PrimarySwitch;
  /** How the operator creates an instance from a backup (`spec.restoreFrom`); absent where it cannot. */
  restore?: RestoreWrite;
  /** Topology of a new instance that names none. */
  defaultTopology: DatabaseTopology;
  /** Documented defaults for a topology (docs/engines.md). */
  defaults(topology: DatabaseTopology): InstanceDefaults;
  /** Longest instance name the operator's derived object names allow. */
  maxNameLength: number;
  /** The operator kind a topology is created as. */
  kindFor(topology: DatabaseTopology): SourceKind;
  /**
   * Every bad field of a (defaulted) spec, with Kubernetes field paths and messages.
   * The caller has already checked that `spec.engine` is this adapter's engine.
   */
  validate(spec: DatabaseInstanceSpec, ctx?: ValidationContext): FieldCause[];
  /** The operator object to create for a valid, defaulted instance. */
  toOperatorObject(
    instance: DatabaseInstance,
    options?: BuildOptions,
  ): KubeObject;
  /**
   * Maps a spec change onto the current operator object (a deep copy is returned; everything
   * the spec does not cover is kept), or says why the operator cannot make the change.
   * `previous` is the spec as projected from `current`; `next` is defaulted and validated.
   */
  applyUpdate(
    current: KubeObject,
    next: DatabaseInstanceSpec,
    previous: DatabaseInstanceSpec,
    context?: UpdateContext,
  ): UpdateResult;
  /**
   * Secrets that must exist before the operator can start the instance (only where the
   * operator does not generate credentials itself). Create them before the operator object.
   */
  secretsToCreate(
    instance: DatabaseInstance,
    generatePassword: () => string,
  ): KubeObject[];
  /** Name of the Secret holding the credentials of `source`, if any (to fetch for `connection`). */
  connectionSecretName(source: KubeObject): string | undefined;
  /** Connection details from the instance, its operator object and the credentials Secret. */
  connection(
    instance: DatabaseInstance,
    source: KubeObject,
    secret: KubeObject | undefined,
  ): ConnectionDetails;
}

/**
 * Where a new instance's data comes from, as the apiserver resolved `spec.restoreFrom` from its
 * caches: a DatabaseBackup (with its operator object and, while it exists, the operator object
 * of the instance it backed up), or a source instance and a point in time.
 */
export type RestoreSource =
  | { backup: DatabaseBackup; backupObject: KubeObject; backedUp?: KubeObject }
  | { instance: KubeObject; pointInTime: string };

/**
 * How an operator creates a new instance from a backup: pure functions, like the write side.
 * The apiserver has checked what is the same for every engine (the backup Succeeded and
 * restorable, of this engine; a point in time well-formed, past, and offered by the engine).
 */
export interface RestoreWrite {
  /**
   * Why `spec.restoreFrom.pointInTime` is refused, in the operator's terms, where the engine
   * cannot stop a restore at a point in time (BackupCapabilities.pointInTime false).
   */
  pointInTimeRefusal?: string;
  /** Every reason this operator cannot restore from `source` (a source without a backup destination). */
  validate(source: RestoreSource): FieldCause[];
  /** `object` (built by toOperatorObject) told to restore from `source`: a copy. */
  apply(object: KubeObject, source: RestoreSource): KubeObject;
  /** `spec.restoreFrom` as the operator object says it, for the projection. */
  read(object: KubeObject): RestoreFrom | undefined;
}
