import { eventually } from '../support/eventually';
import type { Kubectl } from './Kubectl';

const GROUP = 'dbaas.platform.dev';
const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/** What the schedule case saw, for the conformance case to check. */
export interface ScheduleSeen {
  /** The DatabaseBackupSchedule as created (before any operator wrote status). */
  created: Record<string, any>;
  /** The mariadb-operator Backup (with spec.schedule) the create wrote. */
  operatorObject: Record<string, any>;
  /** The schedule once the suite wrote, as the operator and the CronJob controller do, a successful run. */
  ran: Record<string, any>;
  /** The schedule once the suite wrote a later run that failed, as v26 reports it (reason CronJobScheduled, message Failed). */
  failed: Record<string, any>;
  /**
   * A run: the Job `<schedule>-<minutes>` the CronJob controller would make (suspended, so no
   * controller runs it here), served as a DatabaseBackup; and what its delete did.
   */
  run: { served: Record<string, any>; deleted: { stdout: string; stderr: string; jobGone: boolean } };
  /** The operator object's spec.schedule after a merge patch suspended the schedule. */
  suspended: Record<string, any>;
  /** kubectl's stderr for refused creates, and the operator Backups in the namespace before and after them. */
  refusals: { redis: string; sixFields: string; before: string[]; after: string[] };
  /** kubectl's output for the delete, and whether the operator object is gone. */
  deleted: { stdout: string; stderr: string; gone: boolean };
}

const dbbs = (name: string, ns: string, instance: string, schedule: string) =>
  JSON.stringify({
    apiVersion: `${GROUP}/v1alpha1`,
    kind: 'DatabaseBackupSchedule',
    metadata: { name, namespace: ns },
    spec: { instanceRef: { name: instance }, schedule, retention: '7d' },
  });

/**
 * A backup schedule on a cluster where no operator runs: a DatabaseBackupSchedule of a MariaDB
 * writes mariadb-operator's Backup with `spec.schedule`; the suite then writes what the
 * operator and kube's CronJob controller would (the CronJob of the Backup's name, owned by it,
 * with a run scheduled and succeeded; the Backup's Complete condition) and the schedule's
 * status follows; a Job of that CronJob is a run, a DatabaseBackup whose delete deletes the Job.
 * A merge patch suspends it; refusals write nothing; a delete removes the
 * operator object.
 */
export async function runSchedules(
  kubectl: Kubectl,
  ns: string,
  instances: { mariadb: string; redis: string },
): Promise<ScheduleSeen> {
  const operatorBackups = async () =>
    (await kubectl.ok(['get', 'backups.k8s.mariadb.com', '-n', ns, '-o', 'name'])).trim().split('\n').filter(Boolean).sort();
  const name = 'conf-schedule';
  await kubectl.ok(['create', '-f', '-'], dbbs(name, ns, instances.mariadb, '0 3 * * *'));
  const created = await kubectl.json(['get', 'dbbs', name, '-n', ns]);
  const operatorObject = await kubectl.json(['get', 'backups.k8s.mariadb.com', name, '-n', ns]);

  // pkg/builder/batch_builder.go BuildBackupCronJob: named as the Backup, controlled by it
  const scheduledAt = now();
  await kubectl.ok(
    ['create', '-f', '-'],
    JSON.stringify({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: {
        name,
        namespace: ns,
        ownerReferences: [{ apiVersion: 'k8s.mariadb.com/v1alpha1', kind: 'Backup', name, uid: operatorObject.metadata.uid, controller: true }],
      },
      spec: {
        schedule: '0 3 * * *',
        suspend: true,
        concurrencyPolicy: 'Forbid',
        jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'backup', image: 'busybox' }] } } } },
      },
    }),
  );
  await kubectl.ok(['patch', 'cronjobs', name, '-n', ns, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status: { lastScheduleTime: scheduledAt, lastSuccessfulTime: scheduledAt } })]);
  await kubectl.ok([
    'patch', 'backups.k8s.mariadb.com', name, '-n', ns, '--subresource=status', '--type=merge', '-p',
    // SetCompleteWithCronJob (pkg/condition/complete.go) once a run succeeded
    JSON.stringify({ status: { conditions: [{ type: 'Complete', status: 'True', reason: 'CronJobSuccess', message: 'Success', lastTransitionTime: scheduledAt }] } }),
  ]);
  const ran = await eventually(async () => {
    const got = await kubectl.json(['get', 'dbbs', name, '-n', ns]);
    return got.status?.reason === 'LastRunSucceeded' ? got : undefined;
  }, `DatabaseBackupSchedule ${name} LastRunSucceeded`);

  // the next run fails: the CronJob's last schedule passes its last success, no Job active; the
  // operator's failed reason has the scheduled one's value (api/v1alpha1/condition_types.go)
  const failedAt = new Date(Date.parse(scheduledAt) + 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
  await kubectl.ok(['patch', 'cronjobs', name, '-n', ns, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status: { lastScheduleTime: failedAt } })]);
  await kubectl.ok([
    'patch', 'backups.k8s.mariadb.com', name, '-n', ns, '--subresource=status', '--type=merge', '-p',
    JSON.stringify({ status: { conditions: [{ type: 'Complete', status: 'False', reason: 'CronJobScheduled', message: 'Failed', lastTransitionTime: failedAt }] } }),
  ]);
  const failed = await eventually(async () => {
    const got = await kubectl.json(['get', 'dbbs', name, '-n', ns]);
    return got.status?.reason === 'LastRunFailed' && got.status?.lastFailedTime ? got : undefined;
  }, `DatabaseBackupSchedule ${name} LastRunFailed with lastFailedTime`);

  // a run as kube's CronJob controller makes it (pkg/controller/cronjob/utils.go
  // getJobFromTemplate2): `<cronjob>-<minutes since the epoch>`, controlled by the CronJob, the
  // scheduled time annotated; suspended, so that no Job controller starts a pod on this cluster
  const cronJobUid = (await kubectl.json(['get', 'cronjobs', name, '-n', ns])).metadata.uid;
  const runName = `${name}-${Math.floor(Date.parse(scheduledAt) / 60_000)}`;
  await kubectl.create({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: runName,
      namespace: ns,
      labels: { 'conformance.dbaas.platform.dev/run': 'true' },
      annotations: { 'batch.kubernetes.io/cronjob-scheduled-timestamp': scheduledAt },
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name, uid: cronJobUid, controller: true, blockOwnerDeletion: true }],
    },
    spec: { suspend: true, backoffLimit: 0, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'backup', image: 'registry.k8s.io/pause:3.9' }] } } },
  });
  const servedRun = await eventually(async () => {
    const got = await kubectl.run(['get', 'dbb', runName, '-n', ns, '-o', 'json']);
    return got.code === 0 ? JSON.parse(got.stdout) : undefined;
  }, `DatabaseBackup ${runName} served`);
  const runDeleted = await kubectl.run(['delete', 'dbb', runName, '-n', ns]);
  const jobGone = await eventually(
    async () => ((await kubectl.run(['get', 'jobs.batch', runName, '-n', ns])).code !== 0 ? true : undefined),
    `Job ${runName} deleted`,
  );

  await kubectl.ok(['patch', 'dbbs', name, '-n', ns, '--type=merge', '-p', '{"spec":{"suspend":true}}']);
  const suspended = (await kubectl.json(['get', 'backups.k8s.mariadb.com', name, '-n', ns])).spec.schedule;

  const before = await operatorBackups();
  const redis = await kubectl.run(['create', '-f', '-'], dbbs('conf-schedule-redis', ns, instances.redis, '0 3 * * *'));
  const sixFields = await kubectl.run(['create', '-f', '-'], dbbs('conf-schedule-secs', ns, instances.mariadb, '0 0 3 * * *'));
  const after = await operatorBackups();

  const deleted = await kubectl.run(['delete', 'dbbs', name, '-n', ns]);
  const gone = await eventually(
    async () => ((await kubectl.run(['get', 'backups.k8s.mariadb.com', name, '-n', ns])).code !== 0 ? true : undefined),
    `Backup ${name} deleted`,
  );
  // no garbage collector may run on this cluster: the suite's CronJob goes by hand
  await kubectl.run(['delete', 'cronjobs', name, '-n', ns, '--ignore-not-found']);
  return {
    created,
    operatorObject,
    ran,
    failed,
    run: { served: servedRun, deleted: { stdout: runDeleted.stdout, stderr: runDeleted.stderr, jobGone } },
    suspended,
    refusals: { redis: redis.stderr, sixFields: sixFields.stderr, before, after },
    deleted: { stdout: deleted.stdout, stderr: deleted.stderr, gone },
  };
}

/** What the MySQL schedule case saw. */
export interface MysqlScheduleSeen {
  created: Record<string, any>;
  /** The InnoDBCluster's spec.backupSchedules after the create, the suspend, the delete. */
  entries: { created: unknown; suspended: unknown; deleted: unknown };
  /** The schedule once the suite wrote the operator's CronJob with a run. */
  ran: Record<string, any>;
  deleted: { stdout: string; stderr: string };
}

/**
 * A MySQL schedule on a cluster where no operator runs: the suite writes an InnoDBCluster with a
 * backup profile; a DatabaseBackupSchedule `<cluster>-nightly` becomes an entry of its
 * `spec.backupSchedules`; the suite then writes what the operator would (the CronJob
 * `<cluster>-nightly-cb`, adopted by the cluster, suspended so that no controller runs it, with a
 * run in its status); a merge patch suspends the entry, a delete removes it.
 */
export async function runMysqlSchedule(kubectl: Kubectl, ns: string): Promise<MysqlScheduleSeen> {
  const cluster = 'conf-mysql-sched';
  const name = `${cluster}-nightly`;
  const cronJob = `${name}-cb`;
  const entriesNow = async () => (await kubectl.json(['get', 'innodbclusters.mysql.oracle.com', cluster, '-n', ns])).spec.backupSchedules;
  await kubectl.create({
    apiVersion: 'mysql.oracle.com/v2',
    kind: 'InnoDBCluster',
    metadata: { name: cluster, namespace: ns },
    spec: {
      instances: 1,
      secretName: `${cluster}-root`,
      tlsUseSelfSigned: true,
      backupProfiles: [{ name: 'dump', dumpInstance: { storage: { persistentVolumeClaim: { claimName: 'conf-dumps' } } } }],
    },
  });
  try {
    const clusterUid = (await kubectl.json(['get', 'innodbclusters.mysql.oracle.com', cluster, '-n', ns])).metadata.uid;
    await eventually(async () => (await kubectl.run(['get', 'dbi', cluster, '-n', ns])).code === 0 || undefined, `DatabaseInstance ${cluster} served`);
    await kubectl.create({ apiVersion: `${GROUP}/v1alpha1`, kind: 'DatabaseBackupSchedule', metadata: { name, namespace: ns }, spec: { instanceRef: { name: cluster }, schedule: '0 3 * * *' } });
    const created = await kubectl.json(['get', 'dbbs', name, '-n', ns]);
    const createdEntries = await entriesNow();
    await kubectl.create({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: {
        name: cronJob,
        namespace: ns,
        ownerReferences: [{ apiVersion: 'mysql.oracle.com/v2', kind: 'InnoDBCluster', name: cluster, uid: clusterUid, controller: true, blockOwnerDeletion: true }],
      },
      spec: {
        schedule: '0 3 * * *',
        // no controller may run it here: the suite writes its status
        suspend: true,
        concurrencyPolicy: 'Forbid',
        jobTemplate: { spec: { backoffLimit: 0, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'operator-backup-job-cron', image: 'registry.k8s.io/pause:3.9' }] } } } },
      },
    });
    // the top of the current hour: a time the cron's next run is after
    const scheduledAt = `${now().slice(0, 13)}:00:00Z`;
    await kubectl.patchStatus('cronjob', cronJob, ns, { lastScheduleTime: scheduledAt });
    const ran = await eventually(async () => {
      const got = await kubectl.json(['get', 'dbbs', name, '-n', ns]);
      return got.status?.lastScheduleTime === scheduledAt ? got : undefined;
    }, `DatabaseBackupSchedule ${name} with the CronJob's run`);
    await kubectl.ok(['patch', 'dbbs', name, '-n', ns, '--type=merge', '-p', '{"spec":{"suspend":true}}']);
    const suspendedEntries = await entriesNow();
    const deleted = await kubectl.run(['delete', 'dbbs', name, '-n', ns]);
    const deletedEntries = await entriesNow();
    return { created, entries: { created: createdEntries, suspended: suspendedEntries, deleted: deletedEntries }, ran, deleted: { stdout: deleted.stdout, stderr: deleted.stderr } };
  } finally {
    await kubectl.run(['delete', 'cronjob', cronJob, '-n', ns, '--ignore-not-found']);
    await kubectl.run(['delete', 'innodbclusters.mysql.oracle.com', cluster, '-n', ns, '--ignore-not-found']);
  }
}
