import { jest } from '@jest/globals';
import type {
  BackupChange,
  BackupPhase,
  CreateScheduleRequest,
  DatabaseBackup,
  DatabaseBackupSchedule,
  ScheduleChange,
  UpdateScheduleRequest,
  DatabaseEngine,
  DatabaseEngineSpec,
  DatabaseInstance,
  DatabasePhase,
  EngineSize,
  InstanceEvent,
  InstanceKubeEventChange,
  ListInstancesResponse,
  InstanceActions,
  InstanceBackupStatus,
  PortalInstance,
} from '@internal/plugin-databases-common';
import type { BackupsHandlers, DatabasesApi, DatabasesEventHandlers, InstanceEventsHandlers, SchedulesHandlers } from '../api/types';

/** An instance as the backend would send it; only what a test cares about is given. */
export function makeInstance(options: {
  name: string;
  namespace?: string;
  cluster?: string;
  phase?: DatabasePhase;
  engine?: DatabaseInstance['spec']['engine'];
  version?: string;
  replicas?: number;
  ready?: number;
  deletionProtection?: boolean;
  paused?: boolean;
  owner?: string;
  component?: string;
  reason?: string;
  message?: string;
  backup?: InstanceBackupStatus;
}): PortalInstance {
  return {
    cluster: options.cluster ?? 'dev',
    instance: {
      apiVersion: 'dbaas.platform.dev/v1alpha1',
      kind: 'DatabaseInstance',
      metadata: {
        name: options.name,
        namespace: options.namespace ?? 'team-a',
        resourceVersion: '1',
        creationTimestamp: new Date(Date.now() - 60_000).toISOString(),
        annotations: options.owner ? { 'dbaas.platform.dev/owner': options.owner } : {},
        labels: options.component ? { 'backstage.io/kubernetes-id': options.component } : {},
      },
      spec: {
        engine: options.engine ?? 'mariadb',
        version: options.version ?? '11.4',
        topology: 'galera',
        replicas: options.replicas ?? 3,
        deletionProtection: options.deletionProtection,
        ...(options.paused !== undefined && { paused: options.paused }),
      },
      status: {
        phase: options.phase ?? 'Ready',
        reason: options.reason,
        message: options.message,
        source: { apiVersion: 'k8s.mariadb.com/v1alpha1', kind: 'MariaDB', name: options.name, operator: 'mariadb-operator' },
        replicas: { desired: options.replicas ?? 3, ready: options.ready ?? options.replicas ?? 3 },
        version: options.version ?? '11.4',
        endpoints: [{ name: 'primary', host: `${options.name}-primary.team-a.svc`, port: 3306 }],
        operatorStatus: { conditions: [{ type: 'Ready', status: 'True', message: 'Running' }] },
        ...(options.backup && { backup: options.backup }),
      },
    },
  };
}

/** A size preset as an apiserver states it. */
export function makeSize(name: string, storage: string, cpu: string, memory: string, memoryLimit?: string): EngineSize {
  return {
    name,
    title: name[0].toUpperCase() + name.slice(1),
    storage: { size: storage },
    resources: { requests: { cpu, memory }, ...(memoryLimit ? { limits: { memory: memoryLimit } } : {}) },
  };
}

/**
 * A DatabaseEngine as the apiserver serves it: mariadb with its three topologies and their
 * replica rules, any other engine as a standalone-only one; `spec` replaces parts of that.
 */
export function makeEngine(
  engine: DatabaseEngine['spec']['engine'],
  installed = true,
  spec: Partial<DatabaseEngineSpec> = {},
): DatabaseEngine {
  const standalone = { min: 1, max: 1, default: 1, description: 'standalone runs exactly 1 replica' };
  const base: DatabaseEngineSpec =
    engine === 'mariadb'
      ? {
          engine,
          operator: 'mariadb-operator',
          capabilityLevel: 4,
          kinds: [],
          topologies: ['standalone', 'replication', 'galera'],
          versions: ['11.4', '10.11'],
          maxNameLength: 52,
          pausable: true,
          backup: { onDemand: true, schedule: true, restore: true, pointInTime: false },
          defaults: { engine, topology: 'standalone', version: '11.4', replicas: 1, storage: { size: '10Gi' } },
          sizes: [makeSize('small', '10Gi', '250m', '512Mi', '1Gi'), makeSize('medium', '50Gi', '500m', '1Gi', '2Gi')],
          replicas: {
            standalone,
            replication: { min: 2, default: 3, description: 'replication needs at least 2 replicas (a primary and a replica)' },
            galera: { min: 3, odd: true, default: 3, description: 'galera needs an odd number of replicas, at least 3' },
          },
        }
      : {
          engine,
          operator: `${engine}-operator`,
          capabilityLevel: 3,
          kinds: [],
          topologies: ['standalone'],
          versions: ['7.2'],
          pausable: false,
          backup: { onDemand: false, schedule: false, restore: false, pointInTime: false, reason: `${engine}-operator has no backup or restore objects` },
          defaults: { engine, topology: 'standalone', version: '7.2', replicas: 1, storage: { size: '1Gi' } },
          sizes: [makeSize('small', '1Gi', '100m', '128Mi')],
          replicas: { standalone },
        };
  return {
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseEngine',
    metadata: { name: engine },
    spec: { ...base, ...spec },
    status: { installed, instances: 0, phases: {} },
  };
}

/** A backup schedule as the backend would send it (mariadb-operator's, with its last and next run). */
export function makeSchedule(options: {
  name: string;
  instance: string;
  cron?: string;
  suspend?: boolean;
  retention?: string;
  reason?: string;
  lastScheduleTime?: string;
  nextScheduleTime?: string;
  resourceVersion?: string;
}): DatabaseBackupSchedule {
  return {
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseBackupSchedule',
    metadata: { name: options.name, namespace: 'team-a', resourceVersion: options.resourceVersion ?? '7' },
    spec: {
      instanceRef: { name: options.instance },
      schedule: options.cron ?? '0 2 * * *',
      suspend: options.suspend ?? false,
      ...(options.retention !== undefined && { retention: options.retention }),
    },
    status: {
      engine: 'mariadb',
      reason: options.reason ?? (options.suspend ? 'Suspended' : 'Scheduled'),
      ...(options.lastScheduleTime && { lastScheduleTime: options.lastScheduleTime }),
      ...(options.nextScheduleTime && { nextScheduleTime: options.nextScheduleTime }),
      source: { apiVersion: 'k8s.mariadb.com/v1alpha1', kind: 'Backup', name: options.name, operator: 'mariadb-operator' },
    },
  };
}

/** A backup run as the backend would send it. */
export function makeBackup(options: {
  name: string;
  instance?: string;
  phase?: BackupPhase;
  startTime?: string;
  completionTime?: string;
  size?: string;
  method?: string;
  resourceVersion?: string;
  created?: string;
  location?: string;
}): DatabaseBackup {
  return {
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseBackup',
    metadata: {
      name: options.name,
      namespace: 'team-a',
      resourceVersion: options.resourceVersion ?? '1',
      creationTimestamp: options.created ?? options.startTime ?? new Date().toISOString(),
    },
    spec: { instanceRef: { name: options.instance ?? 'orders-db' }, ...(options.method ? { method: options.method } : {}) },
    status: {
      phase: options.phase ?? 'Pending',
      engine: 'mariadb',
      restorable: options.phase === 'Succeeded',
      startTime: options.startTime,
      completionTime: options.completionTime,
      size: options.size,
      location: options.location,
      source: { apiVersion: 'k8s.mariadb.com/v1alpha1', kind: 'Backup', name: options.name, operator: 'mariadb-operator' },
    },
  };
}

export function listOf(items: PortalInstance[]): ListInstancesResponse {
  const byPhase: Record<string, number> = {};
  const byEngine: Record<string, number> = {};
  for (const { instance } of items) {
    const phase = instance.status?.phase ?? 'Unknown';
    byPhase[phase] = (byPhase[phase] ?? 0) + 1;
    byEngine[instance.spec.engine] = (byEngine[instance.spec.engine] ?? 0) + 1;
  }
  return { items, totalItems: items.length, counts: { byPhase, byEngine }, errors: [] };
}

/** A DatabasesApi whose methods are jest mocks and whose event stream the test drives. */
export class FakeDatabasesApi implements DatabasesApi {
  private handlers = new Set<DatabasesEventHandlers>();

  listClusters = jest.fn(async () => [{ name: 'dev', title: 'Development' }]);
  listInstances = jest.fn(async (_q?: unknown) => listOf([]));
  getInstance = jest.fn(async (_ref: unknown): Promise<PortalInstance & { actions?: InstanceActions }> => {
    throw new Error('not set');
  });
  listEngines = jest.fn(async (cluster: string) => ({
    cluster,
    items: [makeEngine('mariadb'), makeEngine('redis', false)],
  }));
  createInstance = jest.fn(async (cluster: string, namespace: string, request: any): Promise<PortalInstance> => ({
    cluster,
    instance: makeInstance({ name: request.name, namespace, phase: 'Pending' }).instance,
  }));
  updateInstance = jest.fn(async (_ref: unknown, _req: unknown): Promise<PortalInstance> => {
    throw new Error('not set');
  });
  deleteInstance = jest.fn(async (_ref: unknown) => undefined);
  getConnection = jest.fn(async (_ref: unknown): Promise<any> => {
    throw new Error('not set');
  });
  getDiagnosis = jest.fn(async (ref: { name: string; namespace: string }): Promise<any> => ({
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseInstanceDiagnosis',
    metadata: { name: ref.name, namespace: ref.namespace },
    findings: [],
  }));
  getInstanceEvents = jest.fn(async (_ref: unknown) => ({ items: [] }) as any);
  /** The open watches of instance events, each as a test can drive it. */
  readonly eventWatches = new Set<InstanceEventsHandlers>();
  /** Lists what `getInstanceEvents` answers, then follows until closed (as the backend's stream). */
  watchInstanceEvents = jest.fn((ref: unknown, handlers: InstanceEventsHandlers): (() => void) => {
    this.eventWatches.add(handlers);
    this.getInstanceEvents(ref).then(r => this.eventWatches.has(handlers) && handlers.onList(r.items), e => handlers.onError?.(e));
    return () => this.eventWatches.delete(handlers);
  });
  getHistory = jest.fn(async (_ref: unknown) => ({ transitions: [], requests: [] }) as any);
  listEntityInstances = jest.fn(async (_entityRef: string) => listOf([]));
  listBackups = jest.fn(async (ref: { cluster: string }) => ({ cluster: ref.cluster, items: [] as DatabaseBackup[] }));
  /** The open watches of backups, each as a test can drive it. */
  readonly backupWatches = new Set<BackupsHandlers>();
  /** Lists what `listBackups` answers, then follows until closed (as the backend's stream). */
  watchBackups = jest.fn((ref: any, handlers: BackupsHandlers): (() => void) => {
    this.backupWatches.add(handlers);
    this.listBackups(ref).then(r => this.backupWatches.has(handlers) && handlers.onList(r.items), e => handlers.onError?.(e));
    return () => this.backupWatches.delete(handlers);
  });
  createBackup = jest.fn(async (ref: any, _request?: unknown) => ({
    cluster: ref.cluster as string,
    backup: makeBackup({ name: `${ref.name}-20261201020000`, instance: ref.name }),
  }));
  deleteBackup = jest.fn(async (ref: any, backup: string) => ({
    cluster: ref.cluster as string,
    namespace: ref.namespace as string,
    name: backup,
    warnings: [`DatabaseBackup "${backup}": the backup data itself is not deleted: no supported operator deletes stored backups with their backup object; remove them from their storage`],
  }));

  listSchedules = jest.fn(async (_ref: unknown) => [] as DatabaseBackupSchedule[]);
  /** The open watches of schedules, each as a test can drive it. */
  readonly scheduleWatches = new Set<SchedulesHandlers>();
  /** Lists what `listSchedules` answers, then follows until closed (as the backend's stream). */
  watchSchedules = jest.fn((ref: unknown, handlers: SchedulesHandlers): (() => void) => {
    this.scheduleWatches.add(handlers);
    this.listSchedules(ref).then(items => this.scheduleWatches.has(handlers) && handlers.onList(items), e => handlers.onError?.(e));
    return () => this.scheduleWatches.delete(handlers);
  });
  createSchedule = jest.fn(async (ref: any, request: CreateScheduleRequest) => ({
    cluster: ref.cluster as string,
    schedule: makeSchedule({ name: `${ref.name}-backups`, instance: ref.name, cron: request.schedule, suspend: request.suspend, retention: request.retention }),
  }));
  updateSchedule = jest.fn(async (ref: any, schedule: string, request: UpdateScheduleRequest) => ({
    cluster: ref.cluster as string,
    schedule: makeSchedule({
      name: schedule,
      instance: ref.name,
      cron: request.schedule ?? '0 2 * * *',
      suspend: request.suspend,
      retention: request.retention ?? undefined,
      // the write made a new version of what the caller read
      resourceVersion: String(Number(request.resourceVersion ?? 7) + 1),
    }),
  }));
  deleteSchedule = jest.fn(async (ref: any, schedule: string) => ({
    cluster: ref.cluster as string,
    namespace: ref.namespace as string,
    name: schedule,
    warnings: [`DatabaseBackupSchedule "${schedule}": no new runs start; the backups it already took are kept`],
  }));

  subscribe(handlers: DatabasesEventHandlers): () => void {
    this.handlers.add(handlers);
    return () => this.handlers.delete(handlers);
  }

  /** Delivers an event to every subscriber, as the backend's stream would. */
  emit(event: InstanceEvent) {
    for (const h of this.handlers) h.onInstance?.(event);
  }

  /** Delivers a change of backups to every open watch. */
  emitBackupChange(change: BackupChange) {
    for (const h of this.backupWatches) h.onChange(change);
  }

  /** Delivers a change of schedules to every open watch. */
  emitScheduleChange(change: ScheduleChange) {
    for (const h of this.scheduleWatches) h.onChange(change);
  }

  /** Delivers a change of an instance's events to every open watch. */
  emitKubeEvent(change: InstanceKubeEventChange) {
    for (const h of this.eventWatches) h.onChange(change);
  }

  get subscribers(): number {
    return this.handlers.size;
  }
}
