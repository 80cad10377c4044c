import type { DatabaseBackup, DatabaseBackupSchedule } from './backups';
import type {
  DatabaseEngine,
  DatabaseEngineName,
  DatabaseInstance,
  DatabaseInstanceConnection,
  DatabaseInstanceSpec,
  DatabasePhase,
} from './types';

/**
 * The portal's REST API (`/api/databases`), shared by the backend and frontend plugins.
 * Every instance is addressed by cluster, namespace and name.
 */

/** A cluster the backend talks to (from `databases.clusters[]` in app-config). */
export interface DatabasesCluster {
  name: string;
  title?: string;
}

/**
 * A problem with one cluster while others answered (the rest of the data still comes back).
 * `TLS`: the connection was refused at the TLS handshake, most often because the cluster's
 * certificate is not signed by the configured CA (the message names the certificate problem).
 */
export interface DatabasesFetchError {
  errorType: 'UNAUTHORIZED' | 'FORBIDDEN' | 'UNREACHABLE' | 'TIMEOUT' | 'TLS' | 'BAD_RESPONSE' | 'UNKNOWN';
  cluster: string;
  statusCode?: number;
  message: string;
}

/** An instance as the portal sees it: the Kubernetes object plus where it lives. */
export interface PortalInstance {
  cluster: string;
  instance: DatabaseInstance;
}

/** `GET /instances` query (all optional; repeatable where it makes sense). */
export interface ListInstancesQuery {
  cluster?: string;
  namespace?: string;
  engine?: DatabaseEngineName;
  phase?: DatabasePhase;
  /** Owner entity ref, e.g. `group:default/team-a`. */
  owner?: string;
  /** Catalog entity ref, e.g. `component:default/orders`. */
  entity?: string;
  /** Free-text search over name, namespace, engine, owner. */
  q?: string;
  /** Pagination: page size (default 100, max 500) and opaque cursor. */
  limit?: number;
  cursor?: string;
  /** Sort key and direction, e.g. `name`, `-age`, `phase`. */
  sort?: string;
}

/** `GET /instances` answer. */
export interface ListInstancesResponse {
  items: PortalInstance[];
  /** Total matching items across pages. */
  totalItems: number;
  /** Counts of all matching items by phase and engine (for the page's summary). */
  counts: {
    byPhase: Partial<Record<DatabasePhase, number>>;
    byEngine: Partial<Record<DatabaseEngineName, number>>;
  };
  nextCursor?: string;
  errors: DatabasesFetchError[];
}

/** `GET /clusters/:cluster/engines` answer. */
export interface ListEnginesResponse {
  cluster: string;
  items: DatabaseEngine[];
}

/** `POST /clusters/:cluster/namespaces/:namespace/instances` body. */
export interface CreateInstanceRequest {
  name: string;
  /**
   * With `restoreFrom`, the new instance is restored from a backup (`{ backup }`) or, where the
   * engine offers it, an instance to a point in time (`{ instance, pointInTime }`): the
   * "Restore into a new database" of the Backups card. Passed to the apiserver unchanged.
   */
  spec: DatabaseInstanceSpec;
  /** Owner entity ref, must be one of the caller's groups unless a policy allows otherwise. */
  owner: string;
  /** Catalog entity ref of the component it serves (sets `backstage.io/kubernetes-id`). */
  entityRef?: string;
  /**
   * The entity may not be in the catalog yet (a template creating the component and its database
   * in one run): its name is then the `backstage.io/kubernetes-id`, instead of a 400.
   */
  entityMayBeNew?: boolean;
  /** Validate, default and check policy without creating (the server's dryRun=All). */
  dryRun?: boolean;
}

/** `PATCH /clusters/:cluster/namespaces/:namespace/instances/:name` body. */
export interface UpdateInstanceRequest {
  version?: string;
  replicas?: number;
  storage?: { size?: string };
  resources?: DatabaseInstanceSpec['resources'];
  deletionProtection?: boolean;
  /** Pause (true) or resume (false) the instance, where its operator can. */
  paused?: boolean;
  /** Make this member (pod) the primary: a switchover, where the operator has one. */
  primary?: string;
  /** The resourceVersion the user saw (409 when the instance changed since). */
  resourceVersion?: string;
  dryRun?: boolean;
}

/**
 * One line of `GET /clusters/:cluster/namespaces/:namespace/instances/:name/ready?timeoutSeconds=N`
 * (newline-delimited JSON, `application/x-ndjson`): the instance first and on every change of its
 * phase, reason or message, then `ready`, or `error` (a Backstage error: the instance failed, was
 * deleted, or was not Ready in time). Errors before the first line are ordinary error answers.
 */
export type ReadyFrame =
  | { type: 'progress'; instance: DatabaseInstance }
  | { type: 'ready'; instance: DatabaseInstance }
  | { type: 'error'; error: { name: string; message: string } };

/** `GET /clusters/:cluster/namespaces/:namespace/instances/:name/connection` answer. */
export type ConnectionResponse = DatabaseInstanceConnection;

/** One lifecycle transition the backend saw (request history). */
export interface PhaseTransition {
  cluster: string;
  namespace: string;
  name: string;
  from?: DatabasePhase;
  to: DatabasePhase;
  reason?: string;
  message?: string;
  /** ISO timestamp. */
  at: string;
}

/** One request made through the portal (request history). */
export interface RequestRecord {
  id: string;
  cluster: string;
  namespace: string;
  name: string;
  /**
   * `backup`: back up now; `delete-backup`: one of its backups deleted; `schedule`,
   * `update-schedule`, `delete-schedule`: one of its backup schedules (the request names it).
   */
  action: 'create' | 'update' | 'delete' | 'backup' | 'delete-backup' | 'schedule' | 'update-schedule' | 'delete-schedule';
  /** User entity ref. */
  actor: string;
  request: unknown;
  /** HTTP status of the answer and, on failure, the Status message. */
  outcome: { status: number; message?: string };
  at: string;
}

/** `GET /clusters/:cluster/namespaces/:namespace/instances/:name/history` answer. */
export interface InstanceHistoryResponse {
  transitions: PhaseTransition[];
  requests: RequestRecord[];
}

/** Server-sent event on `GET /events` (event name `instance`). */
export interface InstanceEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  cluster: string;
  instance: DatabaseInstance;
  /** Set when the phase changed with this event. */
  transition?: PhaseTransition;
}

/** Server-sent event on `GET /events` (event name `cluster`): a cluster went down or came back. */
export interface ClusterStatusEvent {
  cluster: string;
  healthy: boolean;
  message?: string;
}

/** One field-level problem, from a Kubernetes `Status.details.causes[]` entry (422 Invalid). */
export interface DatabasesFieldError {
  /** JSON path as Kubernetes reports it, e.g. `spec.replicas`, `metadata.name`. */
  field?: string;
  message: string;
  /** Kubernetes cause reason, e.g. `FieldValueInvalid`, `FieldValueRequired`. */
  reason?: string;
}

/**
 * Error body of every `/api/databases` route: Backstage's error JSON. When the error came from the
 * cluster, `error.reason` is the Kubernetes `Status.reason` (`Invalid`, `Forbidden`, `AlreadyExists`,
 * `Conflict`, ...) and `error.causes` the Status's `details.causes` (field errors), so the UI can show
 * them next to the form fields.
 */
export interface DatabasesErrorBody {
  error: {
    name: string;
    message: string;
    reason?: string;
    causes?: DatabasesFieldError[];
  };
  request?: { method: string; url: string };
  response: { statusCode: number };
}

/** `GET /clusters` answer. */
export interface ListClustersResponse {
  items: Array<
    DatabasesCluster & {
      /** False while the backend's watch of the cluster fails. */
      healthy: boolean;
      message?: string;
    }
  >;
}

/** One Kubernetes event of an instance, as `kubectl describe` lists it. */
export interface InstanceKubeEvent {
  /** The Event object's name: the key of a live list (each change of it replaces it). */
  name?: string;
  type: string;
  reason?: string;
  message?: string;
  count: number;
  firstTimestamp?: string;
  lastTimestamp?: string;
  /** The component that reported it (`kubelet`, `default-scheduler`, the operator). */
  from?: string;
  /** The object it is about (`Pod orders-db-0`), when not the instance's operator object. */
  about?: string;
}

/** `GET /clusters/:cluster/namespaces/:namespace/instances/:name/events` answer: newest last. */
export interface InstanceEventsResponse {
  cluster: string;
  items: InstanceKubeEvent[];
}

/**
 * The same route asked with `Accept: text/event-stream`: server-sent events, `events` with an
 * {@link InstanceEventsResponse} (first, and again whenever the watch behind it had to list
 * again), then `event` with one {@link InstanceKubeEventChange} per change.
 */
export interface InstanceKubeEventChange {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  item: InstanceKubeEvent;
}

/** What the caller may do with one instance (set by `GET` of one instance). */
export interface InstanceActions {
  update: boolean;
  delete: boolean;
  readConnection: boolean;
  /** Back up now (create a DatabaseBackup of this instance). */
  backUp: boolean;
  /** Delete this instance's backup runs (their operator objects). */
  deleteBackups: boolean;
  /** Add a backup schedule of this instance (create a DatabaseBackupSchedule). */
  createSchedule: boolean;
  /** Change its schedules (cron, suspend, retention). */
  updateSchedules: boolean;
  /** Delete its schedules. */
  deleteSchedules: boolean;
}

/** `GET /clusters/:cluster/namespaces/:namespace/instances/:name` answer. */
export interface GetInstanceResponse extends PortalInstance {
  /** What the caller may do with this instance: the portal's permission policy and the cluster's RBAC both allow it. */
  actions: InstanceActions;
}

/** `GET /entity-instances?entityRef=…` answer: the instances of one catalog entity. */
export interface EntityInstancesResponse {
  entityRef: string;
  items: PortalInstance[];
  errors: DatabasesFetchError[];
}

/**
 * `GET /clusters/:cluster/namespaces/:namespace/instances/:name/backups` answer: the instance's
 * DatabaseBackups (one per run), as the user may list them, newest first.
 */
export interface ListBackupsResponse {
  cluster: string;
  items: DatabaseBackup[];
}

/**
 * The same route asked with `Accept: text/event-stream`: server-sent events, `backups` with a
 * {@link ListBackupsResponse} (first, and again whenever the watch behind it had to list again),
 * then `backup` with one {@link BackupChange} per change, `error` when the watch failed (the
 * stream then ends, and the browser opens it again).
 */
export interface BackupChange {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  backup: DatabaseBackup;
}

/** `POST /clusters/:cluster/namespaces/:namespace/instances/:name/backups` body: back up now. */
export interface CreateBackupRequest {
  /** How, where the engine's operator has several ways (DatabaseEngine `spec.backup.methods`). */
  method?: string;
  /** Validate without creating (the server's dryRun=All). */
  dryRun?: boolean;
}

/** A backup as the portal sees it: the Kubernetes object plus the cluster it is in. */
export interface PortalBackup {
  cluster: string;
  backup: DatabaseBackup;
}

/** `DELETE /clusters/:cluster/namespaces/:namespace/instances/:name/backups/:backup` answer. */
export interface DeleteBackupResponse {
  cluster: string;
  namespace: string;
  /** The backup deleted. */
  name: string;
  /**
   * What the apiserver warned (its `Warning` headers): that the stored backup data is not deleted
   * with the backup object. Shown to the user as it is.
   */
  warnings: string[];
}

/**
 * `GET /clusters/:cluster/namespaces/:namespace/instances/:name/schedules` answer: the instance's
 * DatabaseBackupSchedules, as the user may list them, by name. With `Accept: text/event-stream`:
 * `schedules` with this answer, then `schedule` with one {@link ScheduleChange} per change, as
 * the backups route does.
 */
export interface ListSchedulesResponse {
  cluster: string;
  items: DatabaseBackupSchedule[];
}

/** One change of an instance's schedules on the live route. */
export interface ScheduleChange {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  schedule: DatabaseBackupSchedule;
}

/** `POST /clusters/:cluster/namespaces/:namespace/instances/:name/schedules` body: a new schedule. */
export interface CreateScheduleRequest {
  /** 5-field cron, UTC (`30 2 * * *`). */
  schedule: string;
  suspend?: boolean;
  /** How long runs are kept (`30d`, `720h`), where the operator keeps them per schedule. */
  retention?: string;
  /** How, where the engine's operator has several ways (DatabaseEngine `spec.backup.methods`). */
  method?: string;
  /** Validate without creating (the server's dryRun=All). */
  dryRun?: boolean;
}

/**
 * `PATCH /clusters/:cluster/namespaces/:namespace/instances/:name/schedules/:schedule` body: what
 * changes (absent: kept); `retention: null` goes back to the operator's default.
 */
export interface UpdateScheduleRequest {
  schedule?: string;
  suspend?: boolean;
  retention?: string | null;
  /** The version the caller read: a schedule changed meanwhile is a 409 Conflict, not overwritten. */
  resourceVersion?: string;
  dryRun?: boolean;
}

/** A schedule as the portal sees it: the Kubernetes object plus the cluster it is in. */
export interface PortalSchedule {
  cluster: string;
  schedule: DatabaseBackupSchedule;
}

/** `DELETE /clusters/:cluster/namespaces/:namespace/instances/:name/schedules/:schedule` answer. */
export interface DeleteScheduleResponse {
  cluster: string;
  namespace: string;
  /** The schedule deleted. */
  name: string;
  /** What the apiserver warned (its `Warning` headers): that the runs it took are kept. */
  warnings: string[];
}
