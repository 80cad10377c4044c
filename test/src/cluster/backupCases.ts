import { eventually } from '../support/eventually';
import type { Kubectl } from './Kubectl';

const GROUP = 'dbaas.platform.dev';
const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/** mariadb-operator's one condition on a Backup (pkg/condition/complete.go), as it writes it. */
const complete = (status: 'True' | 'False', reason: string, message: string) => ({
  conditions: [{ type: 'Complete', status, reason, message, lastTransitionTime: now() }],
});

/** What the backup case saw, for the conformance case to check. */
export interface BackupSeen {
  /** The DatabaseBackup as created (phase before any operator wrote status). */
  created: Record<string, any>;
  /** The mariadb-operator Backup the create wrote. */
  operatorObject: Record<string, any>;
  /** Phase and reason after the suite wrote, as mariadb-operator does, a running and then a failed run. */
  running: { phase: string; reason?: string };
  failed: {
    phase: string;
    reason?: string;
    message?: string;
    restorable: boolean;
    startTime?: string;
    completionTime?: string;
    conditions?: Array<{ type: string; status: string }>;
  };
  /** A CloudNativePG Backup written by the suite (as a ScheduledBackup would), projected after its completion. */
  completed: Record<string, any>;
  /** The instances' `status.backup` once each has seen its run: the MariaDB's failed one, the PostgreSQL's completed one. */
  instanceBackup: { mariadb: Record<string, any>; postgresql: Record<string, any> };
  /** kubectl's stderr for refused creates, and the operator backup objects in the namespace before and after them. */
  refusals: { redis: string; pgMethod: string; before: string[]; after: string[] };
  /** kubectl's output for the delete, and whether the operator object is gone. */
  deleted: { stdout: string; stderr: string; gone: boolean };
}

const dbb = (name: string, ns: string, instance: string, method?: string) =>
  JSON.stringify({
    apiVersion: `${GROUP}/v1alpha1`,
    kind: 'DatabaseBackup',
    metadata: { name, namespace: ns },
    spec: { instanceRef: { name: instance }, ...(method ? { method } : {}) },
  });

/**
 * Backups on a cluster where no operator runs: a DatabaseBackup of a MariaDB writes the
 * operator's Backup; the suite then writes its status as mariadb-operator does, including the
 * trap of a failed Job reported `Complete=True` with reason `JobFailed` (no Job exists here: the
 * condition's reason decides). A CloudNativePG Backup the suite writes itself, as a
 * ScheduledBackup would, is served once it exists. Refusals write nothing; a delete removes the
 * operator object only.
 */
export async function runBackups(
  kubectl: Kubectl,
  ns: string,
  instances: { mariadb: string; postgresql: string; redis: string },
): Promise<BackupSeen> {
  const operatorBackups = async () =>
    (await kubectl.ok(['get', 'backups.k8s.mariadb.com,backups.postgresql.cnpg.io', '-n', ns, '-o', 'name'])).trim().split('\n').filter(Boolean).sort();
  const phaseOf = (name: string, wanted: string) =>
    eventually(async () => {
      const got = await kubectl.json(['get', 'dbb', name, '-n', ns]);
      return got.status?.phase === wanted ? got : undefined;
    }, `DatabaseBackup ${name} ${wanted}`);

  const name = 'conf-backup';
  await kubectl.ok(['create', '-f', '-'], dbb(name, ns, instances.mariadb));
  const created = await kubectl.json(['get', 'dbb', name, '-n', ns]);
  const operatorObject = await kubectl.json(['get', 'backups.k8s.mariadb.com', name, '-n', ns]);
  const writeStatus = (status: Record<string, unknown>) =>
    kubectl.ok(['patch', 'backups.k8s.mariadb.com', name, '-n', ns, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status })]);
  await writeStatus(complete('False', 'JobRunning', 'Running'));
  const running = (await phaseOf(name, 'Running')).status;
  await writeStatus(complete('True', 'JobFailed', 'Failed'));
  const failedRun = await phaseOf(name, 'Failed');
  const failed = failedRun.status;
  const failedAt = failed.completionTime ?? failed.startTime ?? failedRun.metadata.creationTimestamp;
  /** An instance's status.backup once `done` holds of it. */
  const backupOf = (instance: string, done: (b: Record<string, any>) => boolean) =>
    eventually(async () => {
      const b = (await kubectl.json(['get', 'dbi', instance, '-n', ns])).status?.backup;
      return b && done(b) ? b : undefined;
    }, `status.backup of ${instance}`);
  const mariadbBackup = await backupOf(instances.mariadb, b => b.lastFailedTime === failedAt);

  await kubectl.ok(
    ['create', '-f', '-'],
    JSON.stringify({
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Backup',
      metadata: { name: 'conf-backup-pg', namespace: ns },
      spec: { cluster: { name: instances.postgresql }, method: 'barmanObjectStore' },
    }),
  );
  await kubectl.ok([
    'patch', 'backups.postgresql.cnpg.io', 'conf-backup-pg', '-n', ns, '--subresource=status', '--type=merge', '-p',
    // what the instance manager writes when a barman backup is done (api/v1/backup_types.go)
    JSON.stringify({ status: { phase: 'completed', method: 'barmanObjectStore', startedAt: '2026-12-01T10:00:00Z', stoppedAt: '2026-12-01T10:01:30Z', backupId: '20261201T100000', destinationPath: 's3://backups/' } }),
  ]);
  const completed = await phaseOf('conf-backup-pg', 'Succeeded');
  const pgBackup = await backupOf(instances.postgresql, b => !!b.lastSuccessfulTime && Date.parse(b.lastSuccessfulTime) >= Date.parse(completed.status.completionTime));

  const before = await operatorBackups();
  const redis = await kubectl.run(['create', '-f', '-'], dbb('conf-backup-redis', ns, instances.redis));
  // the sample Cluster has no backup configuration for the method
  const pgMethod = await kubectl.run(['create', '-f', '-'], dbb('conf-backup-snap', ns, instances.postgresql, 'volumeSnapshot'));
  const after = await operatorBackups();

  const deleted = await kubectl.run(['delete', 'dbb', name, '-n', ns]);
  const gone = await eventually(
    async () => ((await kubectl.run(['get', 'backups.k8s.mariadb.com', name, '-n', ns])).code !== 0 ? true : undefined),
    `Backup ${name} deleted`,
  );
  await kubectl.run(['delete', 'dbb', 'conf-backup-pg', '-n', ns, '--ignore-not-found']);
  return {
    created,
    operatorObject,
    running,
    failed,
    completed,
    instanceBackup: { mariadb: mariadbBackup, postgresql: pgBackup },
    refusals: { redis: redis.stderr, pgMethod: pgMethod.stderr, before, after },
    deleted: { stdout: deleted.stdout, stderr: deleted.stderr, gone },
  };
}
