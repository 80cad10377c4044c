import type { ResourceKey, StoredObject } from '../store/types';

/**
 * What the control API can ask of an emulated operator for one object:
 * `ready` lets it reconcile normally (towards ready), the others hold the object in that state
 * until told otherwise, `stalled` stops reconciling it altogether (its status stays as it is), and
 * `held` keeps every member from starting (provisioning for good, no member ever ready).
 */
export type HealthMode =
  'ready' | 'degraded' | 'failed' | 'provisioning' | 'updating' | 'stalled' | 'held';

/**
 * What keeps the members that are not ready from starting, as the kubelet, the scheduler and the
 * volume controller would show it on their pods and claims (`setFault`). Without one, a member
 * that is not ready simply fails its readiness probe.
 */
export type MemberFault =
  'image-pull' | 'crash-loop' | 'unschedulable' | 'volume-pending';

/** Identifies one operator object; `group` may be left out when the kind is unambiguous. */
export interface ObjectRef {
  group?: string;
  kind: string;
  namespace: string;
  name: string;
}

/** A custom resource kind an emulated operator reconciles. */
export interface CustomKind {
  group: string;
  version: string;
  plural: string;
  kind: string;
}

/** The lifecycle stage the emulation decided for an object this round; operators render it in their dialect. */
export type Stage =
  'provisioning' | 'ready' | 'updating' | 'degraded' | 'failed' | 'deleting';

/** Emulated pods of one StatefulSet. */
export interface StatefulSetState {
  name: string;
  /** Desired replicas (spec.replicas). */
  replicas: number;
  /** Pods that exist (status.replicas). */
  pods: number;
  ready: number;
  /** Pods at the update revision. */
  updated: number;
  revision: string;
  currentRevision: string;
  /** A spec change (replicas or pod template) is still rolling out. */
  rollingOut?: boolean;
  /** The last pod was created or replaced this round: not ready yet, and not (yet) failing. */
  starting?: boolean;
}

/** A StatefulSet the operator wants for an object. */
export interface DesiredStatefulSet {
  name: string;
  replicas: number;
  /** Changes whenever the pod template would change (version, resources, storage...): a rolling update. */
  revision: string;
  image: string;
  /** Headless Service governing the pods. */
  serviceName: string;
  labels: Record<string, string>;
  /** Main container name. */
  container: string;
  /**
   * The volume claim of each pod, as the operator names it (`<template>-<pod>` for a
   * StatefulSet's volumeClaimTemplates, the pod's own name for CloudNativePG); none when the
   * set keeps no data.
   */
  claim?: { name(pod: string): string; size?: string; storageClassName?: string };
  /**
   * The operator manages the pods itself, without a StatefulSet (CloudNativePG): the emulation
   * counts and rolls the pods as for a StatefulSet, but writes no StatefulSet object.
   */
  podsOnly?: boolean;
  /**
   * Labels the operator sets on one pod beyond the set's (its role as the operator last saw it:
   * CloudNativePG's `cnpg.io/instanceRole`, InnoDB Cluster's `mysql.oracle.com/cluster-role`,
   * redis-operator's `redis-role`), by the pod's position in the set.
   */
  podLabels?(pod: string, index: number): Record<string, string>;
}

/** A Service the operator wants for an object. */
export interface DesiredService {
  name: string;
  ports: Array<{ name: string; port: number }>;
  headless?: boolean;
  selector: Record<string, string>;
  labels?: Record<string, string>;
}

/** A Secret the operator creates when it does not exist (never rewritten: passwords stay stable). */
export interface DesiredSecret {
  name: string;
  /** Called once, when the Secret is created. */
  data: () => Record<string, string>;
  labels?: Record<string, string>;
}

/** A Deployment the operator wants (MySQL Router). Its pods are always reported ready. */
export interface DesiredDeployment {
  name: string;
  replicas: number;
  image: string;
  labels: Record<string, string>;
}

/** Everything an operator creates for one object, plus a reconcile error it wants to report. */
export interface DesiredState {
  statefulSets: DesiredStatefulSet[];
  services: DesiredService[];
  secrets: DesiredSecret[];
  deployments?: DesiredDeployment[];
  /** The version the spec asks for (reported once running). */
  version?: string;
  /** The operator refuses part of the spec (e.g. RabbitMQ scale-down); the rest still reconciles. */
  reconcileError?: { reason: string; message: string };
}

/** What the operator sees when it writes status. */
export interface Observation {
  stage: Stage;
  sets: StatefulSetState[];
  desiredReplicas: number;
  readyReplicas: number;
  generation: number;
  /** ISO timestamp of this round. */
  now: string;
  /** Message given with `setHealth`, if any. */
  message?: string;
  /** Version all pods run once an update finished (undefined before any pod was ready). */
  runningVersion?: string;
  /** Version the spec asks for. */
  desiredVersion?: string;
  /** When the operator first saw the object. */
  createTime: string;
  reconcileError?: { reason: string; message: string };
  /** The owner paused the object (EmulatedOperator.paused): its members were left as they were. */
  paused?: boolean;
  /**
   * What the operator keeps in memory about this object from one round to the next (a
   * switchover it has begun), gone with the object; `status` may change it.
   */
  memo?: Record<string, unknown>;
}

/** Lets `desired` look at the emulated pods as they are before this round. */
export interface DesiredContext {
  current(statefulSetName: string): StatefulSetState | undefined;
  /** What the operator keeps in memory about the object (Observation.memo), as the last round left it. */
  memo?: Readonly<Record<string, unknown>>;
}

/**
 * One emulated operator: which kinds it owns, what it creates for an object, and how it renders
 * an observation as that object's upstream-shaped status. Pure functions; OperatorEmulator runs them.
 */
export interface EmulatedOperator {
  /** Upstream project id (folder name), e.g. `mariadb-operator`. */
  id: string;
  kinds: CustomKind[];
  /** The finalizer the real operator puts on objects of this kind, if any. */
  finalizer?(kind: CustomKind): string | undefined;
  desired(
    cr: StoredObject,
    kind: CustomKind,
    ctx: DesiredContext,
  ): DesiredState;
  /** The status to write, or undefined for kinds without status upstream (Redis, RedisSentinel). */
  status(
    cr: StoredObject,
    kind: CustomKind,
    obs: Observation,
  ): Record<string, unknown> | undefined;
  /**
   * The owner told the operator to keep its hands off (a suspend field, a pause label or
   * annotation): members stay as they are and `status` renders the observation with `paused`.
   */
  paused?(cr: StoredObject): boolean;
  /** When failed, keep pods running (e.g. Elasticsearch red: nodes up, primaries unassigned). */
  failedKeepsPods?: boolean;
  /**
   * What keeps this object's members from ever starting, by the operator's own doing (a restore
   * the emulator was told to fail that runs inside a member): the object stays provisioning and
   * its members show the fault.
   */
  heldBack?(cr: StoredObject): MemberFault | undefined;
  /**
   * The pod the operator has as primary, where it has one that can be lost (`failPrimary`):
   * while lost it is not ready and `memo.lostPrimary` names it, until the operator's failover
   * (in `status`, or `adjustSpec`) is done and clears it.
   */
  primaryPod?(cr: StoredObject): string | undefined;
  /** A spec change the operator makes itself this round (mariadb-operator's autoFailover moves podIndex). */
  adjustSpec?(cr: StoredObject, memo: Readonly<Record<string, unknown>>): ((spec: Record<string, any>) => void) | undefined;
  /** This operator's objects in the demo seed. */
  demo?: OperatorDemo;
  /** Its backup kinds and how it runs them (BackupEmulator), where the operator has any. */
  backups?: EmulatedBackups;
}

/** How a backup run is told to go (the emulator's fail switch, never a real operator's). */
export type BackupFate = 'succeed' | 'fail' | 'pending';

/** What an operator's backup emulation may read this round. */
export interface BackupWorld {
  /** This round's time (Kubernetes second precision: `kubeTime(now)`). */
  now: Date;
  get(key: ResourceKey, namespace: string | undefined, name: string): StoredObject | undefined;
  list(key: ResourceKey, namespace: string): StoredObject[];
  /** How a backup object's run is meant to end (its fail annotation or `failBackup`). */
  fate(obj: StoredObject): BackupFate;
}

/** One object to create (kept when it exists, as the operators create-if-absent). */
export interface BackupCreate {
  resource: ResourceKey;
  body: Record<string, any>;
}

/** What an operator does about one of its backup objects this round. */
export interface BackupStep {
  create?: BackupCreate[];
  /** Objects it owns whose spec it sets again (the body is the whole object, as read, changed). */
  update?: BackupCreate[];
  /** Objects it deletes, in the namespace of the object reconciled. */
  delete?: Array<{ resource: ResourceKey; name: string }>;
  /** The status to write (undefined: leave it as it is). */
  status?: Record<string, unknown>;
}

/**
 * An operator's backup objects (one-off runs and schedules): pure functions of the object and
 * what it reads of the cluster, run each round by BackupEmulator beside OperatorEmulator. The
 * Jobs and CronJobs they create are run by the emulated batch controllers (batch/).
 */
export interface EmulatedBackups {
  kinds: CustomKind[];
  reconcile(obj: StoredObject, kind: CustomKind, world: BackupWorld): BackupStep;
  /** Backup objects of the demo, created after its instances. */
  demo?: DemoBackup[];
}

/** One backup object of the demo. */
export interface DemoBackup {
  kind: string;
  namespace: string;
  name: string;
  spec: Record<string, unknown>;
  annotations?: Record<string, string>;
}

/** The phase a demo instance is meant to show once the emulated operators have run. */
export type DemoPhase =
  'Ready' | 'Provisioning' | 'Degraded' | 'Failed' | 'Pending';

/** One operator object of the demo. */
export interface DemoInstance {
  kind: CustomKind;
  namespace: string;
  name: string;
  /** Catalog component (`backstage.io/kubernetes-id`). */
  component: string;
  spec: Record<string, unknown>;
  phase: DemoPhase;
  /** How the control API holds it there (`ready` = converge normally). */
  mode: HealthMode;
  message?: string;
  /** What the demo's members that are not ready show (a finding of the diagnosis). */
  fault?: MemberFault;
}

/**
 * An operator's part of the demo: its objects (`kind` names one of its kinds) and how its own
 * status dialect shows each demo phase, so the seed's tests need no switch over operators.
 */
export interface OperatorDemo {
  instances: ReadonlyArray<Omit<DemoInstance, 'kind'> & { kind: string }>;
  observedPhase(
    object: StoredObject,
    pods: { allReady: boolean },
  ): DemoPhase | 'other';
}
