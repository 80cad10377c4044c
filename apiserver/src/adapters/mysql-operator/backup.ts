import type { BackupPhase, DatabaseBackup } from '@internal/plugin-databases-common';
import { invalid, notSupported, required, type FieldCause } from '../../writes/FieldCause';
import { backupMetadata } from '../shared/backupMetadata';
import { jobState, type JobState } from '../shared/jobState';
import { jobType } from '../shared/jobType';
import { ownedBy } from '../shared/ownedBy';
import { asArray, asRecord, asString, nameOf, namespaceOf, pascalCase } from '../shared/read';
import { toBackup } from '../shared/toBackup';
import type { BackupSide, KubeObject, RelatedLookup, SourceKind } from '../types';

/**
 * Oracle mysql-operator's backups (9.1.0-2.2.2, Python/kopf, ../shared/operators/mysql-operator):
 *
 * - A `MySQLBackup` is one run. On create, kopf's handler on_mysqlbackup_create
 *   (mysqloperator/controller/backup/operator_backup.py) creates a Job of the MySQLBackup's
 *   name, adopted (owner reference) by it, from prepare_backup_job
 *   (mysqloperator/controller/backup/backup_objects.py), labelled
 *   `app.kubernetes.io/name: mysql-innodbcluster-backup-task`,
 *   `app.kubernetes.io/created-by: mysql-operator`, `app.kubernetes.io/managed-by:
 *   mysql-operator`, `tier: mysql` and `mysql.oracle.com/cluster: <the MySQLBackup's name>`
 *   (sic: MySQLBackupSpec.name is the backup's name). Scheduled backups
 *   (`InnoDBCluster.spec.backupSchedules[]`) are a CronJob `<cluster>-<schedule>-cb` whose Job
 *   creates one MySQLBackup per run (backup_main.py command_create_backup_object).
 * - The operator never writes the status: the Job's pod does (backup_main.py command_backup,
 *   backup_api.py set_started / set_succeeded / set_failed): `status.status` is `Running`
 *   (with `startTime`, `output`), then `Completed` (+ `completionTime`, `elapsedTime`
 *   HH:MM:SS, and from execute_dump_instance `method` (`dump-instance/oci-bucket`,
 *   `dump-instance/volume`), `source` (user@host:port), `bucket` and `ociTenancy`, or
 *   `spaceAvailable` and `size` ("0.0012G")) or `Error` (+ `message` = the exception).
 * - Traps: a pod that never starts (image pull, no node, a missing claim) leaves the status
 *   EMPTY forever; a pod killed mid-backup (OOM, eviction) leaves it `Running` forever; and the
 *   backup process exits 0 even after a failure (backup_main.py main returns 0), so the Job
 *   says Complete for a failed backup (then `status.status` is `Error`). So: the status where
 *   the backup process wrote an end, and the Job for everything before that.
 *
 * A dump is restored into a new cluster with `spec.initDB.dump`.
 */
export const MYSQL_BACKUP: SourceKind = {
  group: 'mysql.oracle.com',
  version: 'v2',
  plural: 'mysqlbackups',
  kind: 'MySQLBackup',
  topologies: [],
};

/** The backup Jobs only (the schedule CronJobs' Jobs are `mysql-innodbcluster`). */
const JOBS = jobType('app.kubernetes.io/name=mysql-innodbcluster-backup-task,app.kubernetes.io/created-by=mysql-operator');

const OPERATOR = 'mysql-operator';

interface Verdict {
  phase: BackupPhase;
  reason: string;
  message?: string;
}

/** Before the backup process recorded an end: the Job tells what happened to its pod. */
function fromJob(job: JobState | undefined, recorded: 'none' | 'running'): Verdict {
  if (!job)
    return recorded === 'running'
      ? { phase: 'Running', reason: 'Running' }
      : { phase: 'Pending', reason: 'WaitingForJob', message: 'The operator has not created the backup Job yet' };
  switch (job.phase) {
    case 'Failed':
      return {
        phase: 'Failed',
        reason: pascalCase(job.reason),
        message: job.message ?? 'The backup Job failed before the backup recorded its end',
      };
    case 'Succeeded':
      // the process always writes an end before exiting 0: this one could not
      return {
        phase: 'Unknown',
        reason: 'StatusNotRecorded',
        message: 'The backup Job completed but the backup recorded no end in its status',
      };
    case 'Suspended':
      return { phase: 'Pending', reason: 'JobSuspended' };
    case 'Pending':
      return { phase: 'Pending', reason: job.reason, ...(job.message && { message: job.message }) };
    default:
      // Running: its pod started
      return recorded === 'running'
        ? { phase: 'Running', reason: 'Running' }
        : { phase: 'Running', reason: job.reason, ...(job.message && { message: job.message }) };
  }
}

function verdictOf(status: Record<string, any>, job: JobState | undefined): Verdict {
  const recorded = asString(status.status);
  const message = asString(status.message);
  switch (recorded) {
    case 'Completed':
      return { phase: 'Succeeded', reason: 'Completed', ...(message && { message }) };
    case 'Error':
      return { phase: 'Failed', reason: 'BackupError', ...(message && { message }) };
    case 'Running':
      return fromJob(job, 'running');
    case undefined:
      return fromJob(job, 'none');
    default:
      return { phase: 'Unknown', reason: pascalCase(recorded) || 'Unknown', ...(message && { message }) };
  }
}

/** Where the dump went: the bucket (or Azure container) and the `output` folder in it. */
function locationOf(status: Record<string, any>): string | undefined {
  const output = asString(status.output);
  const bucket = asString(status.bucket) ?? asString(status.container);
  if (bucket) return output ? `${bucket}/${output}` : bucket;
  return output;
}

export const profileNames = (target: KubeObject): string[] =>
  asArray(asRecord(target.spec)?.backupProfiles)
    .map(p => asString(asRecord(p)?.name))
    .filter((n): n is string => n !== undefined);

/**
 * The run's Job, named as the backup: so it is for the backups this API creates (see
 * toOperatorObject); a MySQLBackup made elsewhere with the default timestamped Job name is read
 * from its status alone.
 */
function jobOf(source: KubeObject, related: RelatedLookup): JobState | undefined {
  const job = related.get({ type: JOBS, namespace: namespaceOf(source), name: nameOf(source) });
  return job && ownedBy(job, source, MYSQL_BACKUP.kind) ? jobState(job) : undefined;
}

export const mysqlBackups: BackupSide = {
  capabilities: {
    onDemand: true,
    // entries of InnoDBCluster.spec.backupSchedules[], one served schedule each (schedule.ts)
    schedule: true,
    restore: true,
    pointInTime: false,
    // methods: the InnoDBCluster's own spec.backupProfiles[].name, so none statically;
    // validate checks spec.method against the target.
  },
  kinds: [MYSQL_BACKUP],
  relatedTypes: [JOBS],
  relatedRefs: source => [{ type: JOBS, namespace: namespaceOf(source), name: nameOf(source) }],
  project(source, kind, related) {
    const spec = asRecord(source.spec) ?? {};
    const status = asRecord(source.status) ?? {};
    const job = jobOf(source, related);
    const verdict = verdictOf(status, job);
    const startTime = asString(status.startTime) ?? job?.startTime;
    const completionTime =
      asString(status.completionTime) ??
      (verdict.phase === 'Succeeded' || verdict.phase === 'Failed' ? job?.completionTime : undefined);
    return toBackup({
      operator: OPERATOR,
      engine: 'mysql',
      kind,
      source,
      instanceName: asString(spec.clusterName) ?? '',
      method: asString(spec.backupProfileName),
      ...verdict,
      startTime,
      completionTime,
      size: asString(status.size),
      location: locationOf(status),
      // a dump is loaded into a new InnoDBCluster by spec.initDB.dump
      restorableByOperator: true,
    });
  },
  validate(spec, target): FieldCause[] {
    const profiles = profileNames(target);
    if (profiles.length === 0) {
      const detail = `InnoDBCluster ${nameOf(target)} has no spec.backupProfiles; the operator needs one to know how and where to write a backup`;
      return [spec.method === undefined ? required('spec.method', detail) : invalid('spec.method', spec.method, detail)];
    }
    if (spec.method !== undefined && !profiles.includes(spec.method))
      return [notSupported('spec.method', spec.method, profiles)];
    return [];
  },
  toOperatorObject(backup: DatabaseBackup, target, options) {
    return {
      apiVersion: `${MYSQL_BACKUP.group}/${MYSQL_BACKUP.version}`,
      kind: MYSQL_BACKUP.kind,
      metadata: backupMetadata(backup, options),
      spec: {
        clusterName: nameOf(target) || backup.spec.instanceRef.name,
        // the default: the cluster's first profile
        backupProfileName: backup.spec.method ?? profileNames(target)[0],
        // with the default (true) the operator names the Job `<name>-<its clock's timestamp>`
        // (operator_backup.py on_mysqlbackup_create), which nothing here can know: the Job is then
        // not found by name and a run whose pod never starts stays Pending. Off, the Job has the
        // backup's name; our names are unique per run already, so the directory needs no stamp.
        addTimestampToBackupDirectory: false,
      },
    };
  },
};
