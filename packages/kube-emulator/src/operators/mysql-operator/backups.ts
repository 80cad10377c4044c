import type { StoredObject } from '../../store/types';
import { JOBS } from '../BackupEmulator';
import { jobStarted, kubeTime } from '../batch/jobRun';
import type { BackupStep, BackupWorld, CustomKind, EmulatedBackups } from '../types';
import { MYSQL_DEFAULT_VERSION } from './mysqlOperator';
import { INNODBCLUSTER_KIND } from './innodbClusterKind';
import { scheduleStep } from './schedules';
import { MYSQLBACKUP_KIND_REF } from './mysqlBackupKind';

/** MySQLBackup (mysql.oracle.com/v2): one backup run, its Job made by the operator on create. */
export const MYSQLBACKUP_KIND: CustomKind = MYSQLBACKUP_KIND_REF;

/** The operator's image (the cluster's spec.operator_image default); a function: mysqlOperator.ts imports this file. */
const operatorImage = () => `container-registry.oracle.com/mysql/community-operator:${MYSQL_DEFAULT_VERSION}-2.2.2`;
/** config.BACKUP_USER_NAME: the account the backup job dumps with (Secret <cluster>-backup). */
const BACKUP_USER = 'mysqlbackup';

type Spec = Record<string, any>;

/** utils.timestamp(): `%Y%m%d-%H%M%S` in UTC. */
const timestamp = (iso: string) => iso.replace(/[-:]/g, '').replace('T', '-').slice(0, 15);

/** The Job's name (operator_backup.py on_mysqlbackup_create): `<name>-<timestamp>` unless addTimestampToBackupDirectory is false. */
export function mysqlBackupJobName(backup: StoredObject): string {
  const spec: Spec = backup.spec ?? {};
  return spec.addTimestampToBackupDirectory === false
    ? backup.metadata.name
    : `${backup.metadata.name}-${timestamp(backup.metadata.creationTimestamp ?? '')}`;
}

/**
 * prepare_backup_job (mysqloperator/controller/backup/backup_objects.py), adopted by the
 * MySQLBackup (kopf.adopt: controller ownerReference, and the owner's labels where the Job has
 * none of that key). Upstream quirk kept: `mysql.oracle.com/cluster` and
 * `app.kubernetes.io/instance` carry the MySQLBackup's name (MySQLBackupSpec.name), not the
 * cluster's.
 */
export function mysqlBackupJob(backup: StoredObject, image = operatorImage()): Record<string, any> {
  const name = mysqlBackupJobName(backup);
  const own = {
    tier: 'mysql',
    'mysql.oracle.com/cluster': backup.metadata.name,
    'app.kubernetes.io/name': 'mysql-innodbcluster-backup-task',
    'app.kubernetes.io/instance': `idc-${backup.metadata.name}`,
    'app.kubernetes.io/managed-by': 'mysql-operator',
    'app.kubernetes.io/created-by': 'mysql-operator',
  };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name,
      namespace: backup.metadata.namespace,
      labels: { ...backup.metadata.labels, ...own },
      ownerReferences: [
        {
          apiVersion: 'mysql.oracle.com/v2',
          kind: 'MySQLBackup',
          name: backup.metadata.name,
          uid: backup.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      template: {
        spec: {
          securityContext: { runAsUser: 27, runAsGroup: 27, fsGroup: 27 },
          containers: [
            {
              name: 'operator-backup-job',
              image,
              command: [
                'mysqlsh', '--pym', 'mysqloperator', 'backup',
                '--command', 'execute-backup',
                '--namespace', backup.metadata.namespace,
                '--backup-object-name', backup.metadata.name,
                '--job-name', name,
                '--backup-dir', '/mnt/storage',
              ],
              env: [{ name: 'MYSQLSH_USER_CONFIG_HOME', value: '/mysqlsh' }],
              volumeMounts: [{ name: 'shellhome', mountPath: '/mysqlsh' }],
            },
          ],
          volumes: [{ name: 'shellhome', emptyDir: {} }],
          restartPolicy: 'Never',
          terminationGracePeriodSeconds: 60,
        },
      },
    },
  };
}

/** The profile a MySQLBackup runs with: its own, or the cluster's spec.backupProfiles[] entry it names. */
function profileOf(backup: StoredObject, cluster: StoredObject): Spec | undefined {
  const spec: Spec = backup.spec ?? {};
  if (spec.backupProfile) return spec.backupProfile;
  return ((cluster.spec as Spec)?.backupProfiles ?? []).find((p: Spec) => p.name === spec.backupProfileName);
}

const elapsed = (start: string, end: string) => {
  const s = Math.max(0, Math.round((Date.parse(end) - Date.parse(start)) / 1000));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
};

/**
 * What the backup Job's pod writes on the MySQLBackup (backup_main.py command_do_create_backup
 * with MySQLBackup.set_started / set_succeeded / set_failed, backup_api.py): `Running` once the
 * pod runs; `Completed` with completionTime, elapsedTime (HH:MM:SS), output (the Job's name) and
 * the dump's method/source/size; `Error` with the exception's words. Nothing before the pod
 * starts: a backup whose pod never runs keeps an empty status forever.
 */
export function mysqlBackupStatus(
  backup: StoredObject,
  job: StoredObject,
  cluster: StoredObject,
  now: string,
): Record<string, unknown> | undefined {
  if (!jobStarted(job)) return undefined;
  const old = (backup.status ?? {}) as Record<string, any>;
  if (old.status === 'Completed' || old.status === 'Error') return old;
  const startTime = old.startTime ?? (job.status as any)?.startTime ?? now;
  const output = job.metadata.name;
  const js = (job.status ?? {}) as Record<string, any>;
  if (!js.succeeded && !js.failed) return { status: 'Running', startTime, output };
  if (!js.succeeded)
    return {
      status: 'Error',
      startTime,
      completionTime: now,
      elapsedTime: elapsed(startTime, now),
      // pick_source_instance: no ONLINE member it could dump from
      message: `No instances available to backup from in cluster ${cluster.metadata.name}`,
      output,
    };
  const storage = profileOf(backup, cluster)?.dumpInstance?.storage ?? {};
  const source = `${BACKUP_USER}@${cluster.metadata.name}-0.${cluster.metadata.name}-instances.${cluster.metadata.namespace}.svc.cluster.local:3306`;
  const info = storage.ociObjectStorage
    ? { method: 'dump-instance/oci-bucket', source, bucket: storage.ociObjectStorage.bucketName, ociTenancy: 'ocid1.tenancy.oc1..emulator' }
    : { method: 'dump-instance/volume', source, spaceAvailable: '9.742G', size: '0.2581G' };
  return { status: 'Completed', startTime, completionTime: now, elapsedTime: elapsed(startTime, now), output, ...info };
}

/**
 * The kopf create handler (operator_backup.py) makes the Job once; the Job's pod writes the
 * status. A MySQLBackup whose cluster or profile is missing gets no Job (the handler fails
 * with an ApiSpecError) and no status.
 */
function reconcile(obj: StoredObject, kind: CustomKind, world: BackupWorld): BackupStep {
  return kind.plural === INNODBCLUSTER_KIND.plural ? scheduleStep(obj, world, operatorImage()) : reconcileBackup(obj, world);
}

function reconcileBackup(backup: StoredObject, world: BackupWorld): BackupStep {
  const ns = backup.metadata.namespace;
  const cluster = world.get(INNODBCLUSTER_KIND, ns, String((backup.spec as Spec)?.clusterName ?? ''));
  if (!cluster || !profileOf(backup, cluster)) return {};
  const name = mysqlBackupJobName(backup);
  const job = world.get(JOBS, ns, name);
  if (!job) return { create: [{ resource: JOBS, body: mysqlBackupJob(backup) }] };
  const status = mysqlBackupStatus(backup, job, cluster, kubeTime(world.now));
  return status ? { status } : {};
}

export const mysqlBackups: EmulatedBackups = {
  // the clusters too: their spec.backupSchedules[] are the operator's CronJobs
  kinds: [MYSQLBACKUP_KIND, INNODBCLUSTER_KIND],
  reconcile,
  demo: [
    {
      kind: 'MySQLBackup',
      namespace: 'team-a',
      name: 'payments-db-first',
      spec: { clusterName: 'payments-db', backupProfileName: 'dump-to-volume' },
    },
  ],
};
