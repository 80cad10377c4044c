import type { StoredObject } from '../../store/types';
import { nextCron, parseCron } from '../batch/cron';
import { kubeTime } from '../batch/jobRun';
import type { BackupStep, BackupWorld, CustomKind, EmulatedBackups } from '../types';
import { CNPG_CLUSTER_KIND } from './cloudnativePgOperator';

/** Backup (postgresql.cnpg.io/v1): one run, taken by the instance manager in a Cluster's pod (no Job). */
export const CNPG_BACKUP_KIND: CustomKind = {
  group: 'postgresql.cnpg.io',
  version: 'v1',
  plural: 'backups',
  kind: 'Backup',
};

/** ScheduledBackup (postgresql.cnpg.io/v1): makes a Backup each time its 6-field cron fires. */
export const CNPG_SCHEDULED_BACKUP_KIND: CustomKind = {
  group: 'postgresql.cnpg.io',
  version: 'v1',
  plural: 'scheduledbackups',
  kind: 'ScheduledBackup',
};

const PODS = { group: '', version: 'v1', plural: 'pods' };

type Spec = Record<string, any>;

/** utils.ToCompactISO8601: `20060102150405` (UTC). */
const compact = (d: Date) => d.toISOString().replace(/[-:T]/g, '').slice(0, 14);
/** barman's backup id: `20060102T150405`. */
const barmanId = (d: Date) => `${compact(d).slice(0, 8)}T${compact(d).slice(8)}`;

/**
 * Why the BackupReconciler (internal/controller/backup_controller.go) refuses a Backup of this
 * Cluster, in its words (resourcestatus.FlagBackupAsFailed writes them to status.error), or
 * undefined when the Cluster is configured for the method. The emulator treats any configured
 * destination as reachable.
 */
export function cnpgBackupRefusal(method: string, cluster: StoredObject): string | undefined {
  const spec: Spec = cluster.spec ?? {};
  if (method === 'plugin' && !(spec.plugins ?? []).length)
    return 'cannot proceed with the backup as the cluster has no plugin configured';
  if (method !== 'plugin' && !spec.backup) return 'cannot proceed with the backup as the cluster has no backup section';
  if (method === 'barmanObjectStore' && !spec.backup.barmanObjectStore)
    return 'no barmanObjectStore section defined on the target cluster';
  if (method === 'volumeSnapshot' && !spec.backup.volumeSnapshot)
    return 'no volumeSnapshot section defined on the target cluster';
  // the emulator has no VolumeSnapshot CRD, which the operator checks for (utils.HaveVolumeSnapshot)
  if (method === 'volumeSnapshot') return 'cannot proceed with the backup as the Kubernetes cluster has no VolumeSnapshot support';
  return undefined;
}

/** getBackupTargetPod: a ready standby unless the target is `primary` (spec, then the Cluster's), else the primary. */
function targetPod(backup: StoredObject, cluster: StoredObject, world: BackupWorld): StoredObject | undefined {
  const target = (backup.spec as Spec)?.target ?? (cluster.spec as Spec)?.backup?.target ?? '';
  const pods = world
    .list(PODS, cluster.metadata.namespace ?? '')
    .filter(p => p.metadata.labels?.['cnpg.io/cluster'] === cluster.metadata.name)
    .filter(p => ((p.status as any)?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True'));
  const role = (p: StoredObject) => p.metadata.labels?.['cnpg.io/instanceRole'];
  return (
    pods.find(p => (target === 'primary' ? role(p) === 'primary' : role(p) !== 'primary')) ??
    pods.find(p => role(p) === 'primary')
  );
}

const containerId = (pod: StoredObject) =>
  ((pod.status as any)?.containerStatuses ?? []).find((c: any) => c.name === 'postgres')?.containerID ??
  `containerd://${pod.metadata.uid.replace(/-/g, '')}`;

/**
 * One round of a Backup: refused (phase `failed`, `error` in the operator's words) when the
 * Cluster is missing or not configured for the method; `pending` while no instance is ready;
 * `started` on an elected pod (BackupStatus.SetAsStarted: instanceID, method); `running` once
 * the instance manager began (pkg/management/postgres/backup.go: startedAt, backupName,
 * backupId, destinationPath, serverName, beginWal/LSN); then `completed` (stoppedAt, endWal/LSN)
 * or `failed` with barman-cloud-backup's exit status.
 */
function reconcileBackup(backup: StoredObject, world: BackupWorld): BackupStep {
  const spec: Spec = backup.spec ?? {};
  const status = (backup.status ?? {}) as Record<string, any>;
  if (status.phase === 'completed' || status.phase === 'failed') return {};
  const now = kubeTime(world.now);
  const method = spec.method ?? 'barmanObjectStore';
  const clusterName = String(spec.cluster?.name ?? '');
  const cluster = world.get(CNPG_CLUSTER_KIND, backup.metadata.namespace, clusterName);
  const failed = (error: string) => ({ status: { ...status, phase: 'failed', error } });
  if (!cluster)
    return failed(`while getting cluster ${clusterName}: clusters.postgresql.cnpg.io "${clusterName}" not found`);
  const refusal = cnpgBackupRefusal(method, cluster);
  if (refusal) return failed(refusal);
  const fate = world.fate(backup);
  if (!status.phase || status.phase === 'pending') {
    const pod = fate === 'pending' ? undefined : targetPod(backup, cluster, world);
    if (!pod) return { status: { ...status, phase: 'pending' } };
    return {
      status: { ...status, phase: 'started', method, instanceID: { podName: pod.metadata.name, ContainerID: containerId(pod) } },
    };
  }
  const store = ((cluster.spec as Spec).backup?.barmanObjectStore ?? {}) as Spec;
  if (status.phase === 'started')
    return {
      status: {
        ...status,
        phase: 'running',
        startedAt: now,
        backupName: `backup-${compact(world.now)}`,
        backupId: barmanId(world.now),
        ...(store.destinationPath && { destinationPath: store.destinationPath }),
        ...(store.endpointURL && { endpointURL: store.endpointURL }),
        serverName: store.serverName ?? clusterName,
        online: spec.online ?? true,
        beginWal: '000000010000000000000004',
        beginLSN: '0/4000028',
      },
    };
  if (fate === 'fail') return failed('exit status 4');
  return {
    status: { ...status, phase: 'completed', stoppedAt: now, endWal: '000000010000000000000004', endLSN: '0/4000138' },
  };
}

/**
 * One round of a ScheduledBackup (internal/controller/scheduledbackup_controller.go): on its
 * first check a Backup now if `immediate`, else only the next time; afterwards, once the 6-field
 * cron fires, a Backup `<name>-<YYYYMMDDhhmmss of the schedule>` (labels
 * cnpg.io/scheduled-backup and cnpg.io/immediateBackup, owned per backupOwnerReference), and
 * lastCheckTime / lastScheduleTime / nextScheduleTime. Not while one it made still runs.
 */
function reconcileScheduled(sb: StoredObject, world: BackupWorld): BackupStep {
  const spec: Spec = sb.spec ?? {};
  const status = (sb.status ?? {}) as Record<string, any>;
  if (spec.suspend) return {};
  let schedule;
  try {
    schedule = parseCron(String(spec.schedule ?? ''), true);
  } catch (e) {
    return { status: { ...status, error: (e as Error).message } };
  }
  const now = world.now;
  const next = (t: Date) => nextCron(schedule, t);
  const at = (t: Date | undefined) => (t ? kubeTime(t) : undefined);
  if (!status.lastCheckTime) {
    const immediate = spec.immediate === true;
    return {
      create: immediate ? [{ resource: CNPG_BACKUP_KIND, body: scheduledBackupRun(sb, now, true) }] : [],
      status: {
        lastCheckTime: kubeTime(now),
        ...(immediate && { lastScheduleTime: kubeTime(now) }),
        nextScheduleTime: at(next(now)),
      },
    };
  }
  const due = next(new Date(status.lastCheckTime));
  if (!due || due > now) return {};
  const running = world
    .list(CNPG_BACKUP_KIND, sb.metadata.namespace ?? '')
    .some(
      b =>
        b.metadata.labels?.['cnpg.io/scheduled-backup'] === sb.metadata.name &&
        !['completed', 'failed'].includes((b.status as any)?.phase),
    );
  if (running) return {};
  return {
    create: [{ resource: CNPG_BACKUP_KIND, body: scheduledBackupRun(sb, due, false) }],
    status: { lastCheckTime: kubeTime(now), lastScheduleTime: kubeTime(due), nextScheduleTime: at(next(now)) },
  };
}

/** ScheduledBackup.CreateBackup (api/v1/scheduledbackup_funcs.go) for the run scheduled at `at`. */
export function scheduledBackupRun(sb: StoredObject, at: Date, immediate: boolean): Record<string, any> {
  const spec: Spec = sb.spec ?? {};
  const owner = spec.backupOwnerReference ?? 'none';
  const ownerRef =
    owner === 'self'
      ? { apiVersion: 'postgresql.cnpg.io/v1', kind: 'ScheduledBackup', name: sb.metadata.name, uid: sb.metadata.uid, controller: true }
      : undefined;
  const pick = (...keys: string[]) => Object.fromEntries(keys.filter(k => spec[k] !== undefined).map(k => [k, spec[k]]));
  return {
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'Backup',
    metadata: {
      name: `${sb.metadata.name}-${compact(at)}`,
      namespace: sb.metadata.namespace,
      labels: { 'cnpg.io/immediateBackup': String(immediate), 'cnpg.io/scheduled-backup': sb.metadata.name },
      ...(ownerRef && { ownerReferences: [ownerRef] }),
    },
    spec: pick('cluster', 'target', 'method', 'online', 'onlineConfiguration', 'pluginConfiguration'),
  };
}

export const cnpgBackups: EmulatedBackups = {
  kinds: [CNPG_BACKUP_KIND, CNPG_SCHEDULED_BACKUP_KIND],
  reconcile: (obj, kind, world) =>
    kind.kind === 'ScheduledBackup' ? reconcileScheduled(obj, world) : reconcileBackup(obj, world),
  demo: [
    {
      kind: 'Backup',
      namespace: 'team-a',
      name: 'payments-pg-first',
      spec: { cluster: { name: 'payments-pg' }, method: 'barmanObjectStore' },
    },
  ],
};
