import type { StoredObject } from '../../store/types';
import { CRONJOBS, JOBS } from '../BackupEmulator';
import { cronJobPatch } from '../batch/cronJobPatch';
import { jobFinished } from '../batch/jobRun';
import type { BackupStep, BackupWorld } from '../types';
import { MYSQLBACKUP_KIND_REF } from './mysqlBackupKind';

type Entry = Record<string, any>;

const entriesOf = (cluster: StoredObject): Entry[] =>
  (((cluster.spec as Record<string, any>)?.backupSchedules ?? []) as Entry[]).filter(e => typeof e?.name === 'string' && e.name);

/** schedule_cron_job_name (backup_objects.py): "cb" = create backup. */
export const scheduleCronJobName = (cluster: string, schedule: string) => `${cluster}-${schedule}-cb`;

/** utils.timestamp(dash=False, four_digit_year=False): `%y%m%d%H%M%S` (UTC). */
const shortStamp = (iso: string) => iso.replace(/[-:TZ]/g, '').slice(2, 14);

const labelsOf = (cluster: string) => ({
  tier: 'mysql',
  'mysql.oracle.com/cluster': cluster,
  'app.kubernetes.io/name': 'mysql-innodbcluster',
  'app.kubernetes.io/instance': `idc-${cluster}`,
  'app.kubernetes.io/managed-by': 'mysql-operator',
  'app.kubernetes.io/created-by': 'mysql-operator',
});

/**
 * get_cron_job_template + patch_cron_template_for_backup_schedule (backup_objects.py): a CronJob
 * `<cluster>-<schedule>-cb`, adopted by the cluster (kopf.adopt), Forbid, `suspend: !enabled`,
 * whose Job runs `mysqlsh --pym mysqloperator backup --command create-backup-object … --schedule-name`.
 */
export function scheduleCronJob(cluster: StoredObject, entry: Entry, image: string): Record<string, any> {
  const name = cluster.metadata.name;
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: {
      name: scheduleCronJobName(name, entry.name),
      namespace: cluster.metadata.namespace,
      labels: labelsOf(name),
      ownerReferences: [
        { apiVersion: 'mysql.oracle.com/v2', kind: 'InnoDBCluster', name, uid: cluster.metadata.uid, controller: true, blockOwnerDeletion: true },
      ],
    },
    spec: {
      schedule: entry.schedule,
      suspend: entry.enabled === false,
      concurrencyPolicy: 'Forbid',
      // newer releases pass the entry's zone on; without it kube-controller-manager's applies
      ...(entry.timeZone && { timeZone: entry.timeZone }),
      jobTemplate: {
        spec: {
          backoffLimit: 0,
          template: {
            spec: {
              containers: [
                {
                  name: 'operator-backup-job-cron',
                  image,
                  command: ['mysqlsh', '--pym', 'mysqloperator', 'backup', '--command', 'create-backup-object',
                    '--namespace', cluster.metadata.namespace, '--cluster-name', name, '--schedule-name', entry.name],
                },
              ],
              restartPolicy: 'Never',
              terminationGracePeriodSeconds: 60,
            },
          },
        },
      },
    },
  };
}

/**
 * prepare_mysql_backup_object_by_profile_name (backup_objects.py), what a schedule's Job creates:
 * a MySQLBackup `<cluster>-<schedule><yymmddhhmmss>` of the entry's profile, labelled with the
 * cluster, `addTimestampToBackupDirectory: false` (so its own Job is named as it).
 */
function scheduledBackup(cluster: StoredObject, entry: Entry, scheduledAt: string): Record<string, any> {
  const name = cluster.metadata.name;
  return {
    apiVersion: `${MYSQLBACKUP_KIND_REF.group}/${MYSQLBACKUP_KIND_REF.version}`,
    kind: MYSQLBACKUP_KIND_REF.kind,
    metadata: {
      name: `${name}-${entry.name}${shortStamp(scheduledAt)}`,
      namespace: cluster.metadata.namespace,
      labels: { ...labelsOf(name), 'app.kubernetes.io/name': 'mysql-innodbcluster-backup-task' },
    },
    spec: {
      clusterName: name,
      ...(entry.backupProfileName ? { backupProfileName: entry.backupProfileName } : { backupProfile: { name: `${name}-${entry.name}`, ...entry.backupProfile } }),
      addTimestampToBackupDirectory: false,
    },
  };
}

/**
 * One round of the operator's schedule handling for an InnoDBCluster (update_schedules on a
 * change of spec.backupSchedules): a CronJob per entry made, kept as the entry says, or deleted
 * with its entry; and for each Job of those CronJobs still running, the MySQLBackup it creates.
 */
export function scheduleStep(cluster: StoredObject, world: BackupWorld, image: string): BackupStep {
  const ns = cluster.metadata.namespace ?? '';
  const entries = entriesOf(cluster);
  const wanted = new Map(entries.map(e => [scheduleCronJobName(cluster.metadata.name, e.name), e]));
  const owned = world
    .list(CRONJOBS, ns)
    .filter(cj => cj.metadata.ownerReferences?.some(r => r.kind === 'InnoDBCluster' && r.uid === cluster.metadata.uid));
  const step: Required<Pick<BackupStep, 'create' | 'update' | 'delete'>> = { create: [], update: [], delete: [] };
  for (const cj of owned) if (!wanted.has(cj.metadata.name)) step.delete.push({ resource: CRONJOBS, name: cj.metadata.name });
  for (const [name, entry] of wanted) {
    const desired = scheduleCronJob(cluster, entry, image);
    const existing = owned.find(cj => cj.metadata.name === name);
    const patched = existing && cronJobPatch(existing, desired);
    if (!existing) step.create.push({ resource: CRONJOBS, body: desired });
    else if (patched) step.update.push({ resource: CRONJOBS, body: patched });
    if (!existing) continue;
    for (const job of world.list(JOBS, ns)) {
      if (jobFinished(job) || !job.metadata.ownerReferences?.some(r => r.uid === existing.metadata.uid)) continue;
      const at = job.metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp'] ?? job.metadata.creationTimestamp ?? '';
      step.create.push({ resource: MYSQLBACKUP_KIND_REF, body: scheduledBackup(cluster, entry, at) });
    }
  }
  return step;
}
