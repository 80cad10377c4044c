import { createApiRef } from '@backstage/core-plugin-api';
import type {
  BackupChange,
  CreateBackupRequest,
  CreateScheduleRequest,
  DatabaseBackup,
  DatabaseBackupSchedule,
  DeleteScheduleResponse,
  PortalSchedule,
  ScheduleChange,
  UpdateScheduleRequest,
  DeleteBackupResponse,
  ListBackupsResponse,
  PortalBackup,
  ClusterStatusEvent,
  ConnectionResponse,
  DatabaseInstanceDiagnosis,
  CreateInstanceRequest,
  DatabasesCluster,
  InstanceEvent,
  InstanceEventsResponse,
  InstanceHistoryResponse,
  InstanceKubeEvent,
  InstanceKubeEventChange,
  ListEnginesResponse,
  ListInstancesQuery,
  ListInstancesResponse,
  PortalInstance,
  UpdateInstanceRequest,
  InstanceActions,
} from '@internal/plugin-databases-common';

/** Addresses one instance: cluster, namespace and name. */
export interface InstanceRef {
  cluster: string;
  namespace: string;
  name: string;
}

/** Callbacks of a live subscription to the backend's event stream. */
export interface DatabasesEventHandlers {
  onInstance?(event: InstanceEvent): void;
  onCluster?(event: ClusterStatusEvent): void;
  /**
   * The stream is (re)connected. Events from before are lost, so callers reload what they show:
   * a change between their first load and the connection would otherwise never arrive.
   */
  onOpen?(): void;
  /** The stream broke; the client reconnects by itself, this is for showing it. */
  onError?(error: Error): void;
}

/** Callbacks of a live watch of one instance's Kubernetes events. */
export interface InstanceEventsHandlers {
  /** The whole list, newest last: first, and again after every reconnection. */
  onList(items: InstanceKubeEvent[]): void;
  /** One event was added, changed (its count) or deleted. */
  onChange(change: InstanceKubeEventChange): void;
  onOpen?(): void;
  /** The stream broke (or the cluster refused); the client opens it again by itself. */
  onError?(error: Error): void;
}

/** Callbacks of a live watch of a list of one instance's objects (its backups, its schedules). */
export interface LiveListHandlers<T, C> {
  /** The whole list, in the route's order: first, and again after every reconnection. */
  onList(items: T[]): void;
  /** One was added, changed or deleted. */
  onChange(change: C): void;
  onOpen?(): void;
  /** The stream broke (or the cluster refused); the client opens it again by itself. */
  onError?(error: Error): void;
}

/** Callbacks of a live watch of one instance's backups (newest first). */
export type BackupsHandlers = LiveListHandlers<DatabaseBackup, BackupChange>;

/** Callbacks of a live watch of one instance's backup schedules (by name). */
export type SchedulesHandlers = LiveListHandlers<DatabaseBackupSchedule, ScheduleChange>;

/**
 * The frontend's view of the databases backend (`/api/databases`). Every method rejects with a
 * {@link DatabasesApiError} when the backend answers with an error.
 *
 * @public
 */
export interface DatabasesApi {
  listClusters(): Promise<DatabasesCluster[]>;
  listInstances(query?: ListInstancesQuery): Promise<ListInstancesResponse>;
  /** The instance, with what the caller may do with it (both the portal's policy and the cluster's RBAC allow it). */
  getInstance(ref: InstanceRef): Promise<PortalInstance & { actions?: InstanceActions }>;
  listEngines(cluster: string): Promise<ListEnginesResponse>;
  createInstance(
    cluster: string,
    namespace: string,
    request: CreateInstanceRequest,
  ): Promise<PortalInstance>;
  updateInstance(
    ref: InstanceRef,
    request: UpdateInstanceRequest,
  ): Promise<PortalInstance>;
  deleteInstance(ref: InstanceRef): Promise<void>;
  getConnection(ref: InstanceRef): Promise<ConnectionResponse>;
  /** What is wrong with an instance (the apiserver's diagnosis subresource). */
  getDiagnosis(ref: InstanceRef): Promise<DatabaseInstanceDiagnosis>;
  /** The instance's Kubernetes events, newest last (kubectl describe's Events). */
  getInstanceEvents(ref: InstanceRef): Promise<InstanceEventsResponse>;
  /**
   * The same, live: the list, then every change, until the returned function is called; opened
   * again (and listed again) after a broken stream.
   */
  watchInstanceEvents(ref: InstanceRef, handlers: InstanceEventsHandlers): () => void;
  getHistory(ref: InstanceRef): Promise<InstanceHistoryResponse>;
  /** The instance's backup runs (DatabaseBackups), newest first. */
  listBackups(ref: InstanceRef): Promise<ListBackupsResponse>;
  /**
   * The same, live: the list, then every change, until the returned function is called; opened
   * again (and listed again) after a broken stream.
   */
  watchBackups(ref: InstanceRef, handlers: BackupsHandlers): () => void;
  /** Backs the instance up now. */
  createBackup(ref: InstanceRef, request?: CreateBackupRequest): Promise<PortalBackup>;
  /** Deletes one backup run's object (the stored data stays: the answer's warnings say so). */
  deleteBackup(ref: InstanceRef, backup: string): Promise<DeleteBackupResponse>;
  /** The instance's backup schedules, live (as watchBackups). */
  watchSchedules(ref: InstanceRef, handlers: SchedulesHandlers): () => void;
  /** Adds a backup schedule of the instance. */
  createSchedule(ref: InstanceRef, request: CreateScheduleRequest): Promise<PortalSchedule>;
  /** Changes one of its schedules (what the request names; guarded by its resourceVersion). */
  updateSchedule(ref: InstanceRef, schedule: string, request: UpdateScheduleRequest): Promise<PortalSchedule>;
  /** Deletes one of its schedules (the runs it took stay: the answer's warnings say so). */
  deleteSchedule(ref: InstanceRef, schedule: string): Promise<DeleteScheduleResponse>;
  listEntityInstances(entityRef: string): Promise<ListInstancesResponse>;
  /**
   * Subscribes to live changes. Returns the function that ends the subscription; the
   * implementation reconnects after a broken stream until then.
   */
  subscribe(handlers: DatabasesEventHandlers): () => void;
}

/**
 * Reference to the {@link DatabasesApi}.
 *
 * @public
 */
export const databasesApiRef = createApiRef<DatabasesApi>({
  id: 'plugin.databases.service',
});
