import type { BackupCapabilities, InstanceBackupStatus } from './backups';

/**
 * An engine's name (`mariadb`, `postgresql`...): a DNS label, the name of its DatabaseEngine.
 * Deliberately not a closed union: the engines are whatever the apiserver's adapters serve,
 * and clients learn them from DatabaseEngine, so adding an operator changes no shared type.
 */
export type DatabaseEngineName = string;

/** One lifecycle for every engine; see docs/architecture (phases). */
export type DatabasePhase =
  | 'Pending'
  | 'Provisioning'
  | 'Ready'
  | 'Updating'
  | 'Degraded'
  | 'Failed'
  | 'Paused'
  | 'Deleting'
  | 'Unknown';

export const DATABASE_PHASES: readonly DatabasePhase[] = [
  'Pending',
  'Provisioning',
  'Ready',
  'Updating',
  'Degraded',
  'Failed',
  'Paused',
  'Deleting',
  'Unknown',
];

/**
 * A topology's name (`standalone`, `replication`, `galera`, `innodbcluster`, `sentinel`,
 * `cluster`...): each engine offers a subset, listed in its DatabaseEngine. Open like
 * DatabaseEngineName, so that an operator with a topology of its own changes no shared type.
 */
export type DatabaseTopology = string;

/** Minimal Kubernetes object metadata as served on the wire. */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: Array<Record<string, unknown>>;
  finalizers?: string[];
  managedFields?: Array<Record<string, unknown>>;
}

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  observedGeneration?: number;
}

export interface ResourceList {
  cpu?: string;
  memory?: string;
}

export interface DatabaseInstanceSpec {
  engine: DatabaseEngineName;
  /** Engine version, e.g. "11.4"; mapped to the operator's image or version field. */
  version?: string;
  topology?: DatabaseTopology;
  replicas?: number;
  storage?: { size?: string; storageClassName?: string };
  resources?: { requests?: ResourceList; limits?: ResourceList };
  /** Delete is refused while true. */
  deletionProtection?: boolean;
  /**
   * True: the operator is told to stop (hibernate, suspend or stop reconciling) the instance;
   * false resumes it. Refused for operators that cannot (docs/phases.md).
   */
  paused?: boolean;
  /**
   * The member (pod) the operator is told to keep as primary; changing it is a switchover, where
   * the operator has one (mariadb-operator replication, CloudNativePG). Absent where the
   * operator picks its primary itself and has not been told one.
   */
  primary?: string;
  /**
   * Where a new instance's data comes from (only on create; an update that adds or changes it
   * is refused): a DatabaseBackup of this namespace, or, where the engine can stop a restore at
   * a point in time (DatabaseEngine spec.backup.pointInTime), an instance and an RFC 3339 time.
   * Read back from the operator object.
   */
  restoreFrom?: RestoreFrom;
}

/** `spec.restoreFrom`: either `{ backup }` or `{ instance, pointInTime }`. */
export interface RestoreFrom {
  /** Name of a Succeeded, restorable DatabaseBackup of the same engine in this namespace. */
  backup?: string;
  /** Name of the instance whose backups and archived WAL are replayed (point in time). */
  instance?: string;
  /** RFC 3339 time to stop the recovery at, not in the future. */
  pointInTime?: string;
}

export interface SourceRef {
  apiVersion: string;
  kind: string;
  name: string;
  /** Upstream operator project, e.g. `mariadb-operator`. */
  operator: string;
}

export interface Endpoint {
  /** `primary`, `readonly`, `http`, `amqp`, ... */
  name: string;
  host: string;
  port: number;
}

/** A member's role in the common vocabulary: `member` where all members are equal. */
export type DatabaseMemberRole = 'primary' | 'replica' | 'member';

/** One member (pod) of an instance, as its operator and its pod tell. */
export interface DatabaseMember {
  /** The pod's name. */
  name: string;
  role: DatabaseMemberRole;
  /** The engine's own word (InnoDB Cluster PRIMARY/SECONDARY, Redis master/slave, Elasticsearch node roles). */
  engineRole?: string;
  /** The pod's Ready condition is True. */
  ready: boolean;
  /** The member's own DNS name through the operator's headless Service (`<pod>.<service>.<ns>.svc`). */
  host?: string;
  /** The node the pod runs on. */
  node?: string;
  /** The zone of that node, where the pod carries it (`topology.kubernetes.io/zone`). */
  zone?: string;
  /** Since when it has had this role, where the operator records it. */
  since?: string;
}

export interface DatabaseInstanceStatus {
  phase: DatabasePhase;
  /** PascalCase, machine-readable. */
  reason?: string;
  /** The operator's own words, verbatim where it has them. */
  message?: string;
  conditions?: Condition[];
  source: SourceRef;
  /** The raw upstream status, untouched. */
  operatorStatus?: unknown;
  /** Running engine version as reported by the operator (or the spec's when it reports none). */
  version?: string;
  replicas?: { desired?: number; ready?: number };
  endpoints?: Endpoint[];
  credentialsSecretRef?: { name: string };
  /**
   * servicebinding.io's Provisioned Service: the Secret an application binds to (type, provider,
   * host, port, username, password, database, uri), kept by the apiserver; absent until it exists.
   */
  binding?: { name: string };
  /** What the instance can do about backups, and the last runs its operator records (see DatabaseBackup). */
  backup?: InstanceBackupStatus;
  observedGeneration?: number;
  /** Every member (pod) the operator runs for the instance, in the order the operator names them. */
  members?: DatabaseMember[];
}

export interface DatabaseInstance {
  apiVersion: 'dbaas.platform.dev/v1alpha1';
  kind: 'DatabaseInstance';
  metadata: ObjectMeta;
  spec: DatabaseInstanceSpec;
  status?: DatabaseInstanceStatus;
}

export interface DatabaseInstanceList {
  apiVersion: 'dbaas.platform.dev/v1alpha1';
  kind: 'DatabaseInstanceList';
  metadata: {
    resourceVersion?: string;
    continue?: string;
    remainingItemCount?: number;
  };
  items: DatabaseInstance[];
}

/** One per supported operator (cluster-scoped). */
export interface DatabaseEngineSpec {
  engine: DatabaseEngineName;
  operator: string;
  /** OperatorHub capability level 1..5. */
  capabilityLevel: number;
  /** Kinds the operator serves, `Kind.group/version`. */
  kinds: Array<{
    group: string;
    version: string;
    kind: string;
    plural: string;
    topologies: DatabaseTopology[];
  }>;
  topologies: DatabaseTopology[];
  /** Versions offered for new instances and upgrades, newest first (the platform may narrow them). */
  versions: string[];
  defaults?: Partial<DatabaseInstanceSpec>;
  /** Size presets, smallest first (absent from apiservers that predate them). */
  sizes?: EngineSize[];
  /**
   * Longest instance name the operator's derived object names allow (ECK's `<name>-es-<nodeSet>`
   * Services, for example, make it shorter than Kubernetes' 63).
   */
  maxNameLength?: number;
  /** Whether `spec.paused` can pause its instances (absent from apiservers that predate it). */
  pausable?: boolean;
  /**
   * Whether `spec.primary` can move the primary of its instances (a switchover), where their
   * topology has one (absent from apiservers that predate it).
   */
  switchover?: boolean;
  /** Per offered topology: the replica counts it allows (absent from apiservers that predate them). */
  replicas?: Partial<Record<DatabaseTopology, EngineReplicas>>;
  /** What its operator can do about backups (absent from apiservers that predate them). */
  backup?: BackupCapabilities;
}

/** A size preset: what a developer picks instead of typing storage and resources. */
export interface EngineSize {
  /** Unique per engine, e.g. `small`. */
  name: string;
  /** What the portal shows, e.g. `Small`. */
  title: string;
  storage: { size: string };
  resources: {
    requests: { cpu: string; memory: string };
    limits?: ResourceList;
  };
}

/** The replica counts one topology allows, and what a new instance gets. */
export interface EngineReplicas {
  min: number;
  /** No upper bound when absent. */
  max?: number;
  /** Only odd counts (quorum-based topologies). */
  odd?: boolean;
  default: number;
  /** The rule in words: what the apiserver answers for a count outside it. */
  description: string;
}

export interface DatabaseEngineStatus {
  /** True when every primary CRD of the operator is served by the cluster. */
  installed: boolean;
  /** Per kind: is its CRD served. */
  crds?: Array<{ kind: string; group: string; installed: boolean }>;
  instances: number;
  phases: Partial<Record<DatabasePhase, number>>;
  conditions?: Condition[];
}

export interface DatabaseEngine {
  apiVersion: 'dbaas.platform.dev/v1alpha1';
  kind: 'DatabaseEngine';
  metadata: ObjectMeta;
  spec: DatabaseEngineSpec;
  status: DatabaseEngineStatus;
}

/** One way into an instance, with the URI a client would use for it. */
export interface ConnectionEndpoint extends Endpoint {
  uri?: string;
}

/**
 * What `GET .../databaseinstances/<name>/connection` returns: where to connect and with which
 * credentials, read from the operator's Secret. `password` is absent when the engine runs
 * without auth (Redis without a password) or the Secret does not exist yet.
 */
export interface DatabaseInstanceConnection {
  apiVersion: 'dbaas.platform.dev/v1alpha1';
  kind: 'DatabaseInstanceConnection';
  metadata: {
    name: string;
    namespace: string;
    uid?: string;
    resourceVersion?: string;
  };
  engine: DatabaseEngineName;
  /** Primary (read-write) endpoint. */
  host: string;
  port: number;
  username?: string;
  password?: string;
  /** Database to connect to, where the engine has named databases and the operator made one. */
  database?: string;
  /** Connection URI of the primary endpoint (`mysql://`, `redis://`, `https://`, `amqp://`), credentials URL-encoded. */
  uri: string;
  /** Every endpoint (primary, readonly, sentinel, management ...). */
  endpoints: ConnectionEndpoint[];
  /** The Secret the credentials were read from. */
  secretRef?: { name: string };
}

/** How bad a finding is: `Error` stops the instance serving, `Warning` weakens it, `Info` explains. */
export type DiagnosisSeverity = 'Error' | 'Warning' | 'Info';

/** An object a finding is about (a Pod, a PersistentVolumeClaim, the operator object). */
export interface DiagnosisObjectRef {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
}

/** One thing wrong with an instance, in plain words, with what to do about it. */
export interface DiagnosisFinding {
  /** Machine-readable, PascalCase (`PersistentVolumeClaimPending`, `CrashLoopBackOff`, ...). */
  reason: string;
  severity: DiagnosisSeverity;
  message: string;
  /** What to do (or check) next. */
  hint: string;
  objects: DiagnosisObjectRef[];
}

/**
 * What `GET .../databaseinstances/<name>/diagnosis` returns: the instance's phase and what is
 * wrong with it, from the operator object's status, its pods and its volume claims. `findings`
 * is empty when all is well.
 */
export interface DatabaseInstanceDiagnosis {
  apiVersion: 'dbaas.platform.dev/v1alpha1';
  kind: 'DatabaseInstanceDiagnosis';
  metadata: { name: string; namespace: string; uid?: string };
  phase?: DatabasePhase;
  reason?: string;
  findings: DiagnosisFinding[];
}
