import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { kubectlBinaries, parseTable, runKubectl, spawnKubectl, watchOneArgs } from '../support/kubectl';
import { minuteClock } from '../support/minuteClock';
import { startSystem, type System } from '../support/startSystem';

const GROUP = 'dbaas.platform.dev';
const SLOW = 90_000;
/**
 * How far before the cluster's next minute a test makes its minutely schedules (the clock is
 * moved there): time for the creates and for the operator to make its CronJob.
 */
const LEAD_MS = 10_000;
/** A `*\/1` cron fires at the cluster's next minute, plus the emulated run; a minute more if the creates took longer than LEAD_MS. */
const FIRES_WITHIN = 80_000;

const schedule = (name: string, instance: string, spec: Record<string, unknown> = {}) =>
  JSON.stringify({
    apiVersion: `${GROUP}/v1alpha1`,
    kind: 'DatabaseBackupSchedule',
    metadata: { name, namespace: 'team-a' },
    spec: { instanceRef: { name: instance }, schedule: '*/1 * * * *', ...spec },
  });

describe('backup schedules through DatabaseBackupSchedule (kubectl, emulator + APIService + apiserver)', () => {
  const { file } = kubectlBinaries([])[0];
  let system: System;
  const clock = minuteClock();
  let alice = '';
  const home = () => `${system.dir}/home-schedules`;
  const run = (kubeconfig: string, args: string[], input?: string) => runKubectl(file, kubeconfig, home(), args, input);
  const kubectl = (...args: string[]) => run(alice, args);
  // schedules are written by admins (the chart's dbaas-admin); the cluster admin stands in for one
  const admin = (args: string[], input?: string) => run(system.kubeconfig, args, input);
  const json = async (args: string[]) => JSON.parse((await admin([...args, '-o', 'json'])).stdout);
  /** The operator schedule objects in team-a, as `kind/name` (what a refusal must not add to). */
  const operatorSchedules = async () => {
    const out = await admin(['get', 'backups.k8s.mariadb.com,scheduledbackups.postgresql.cnpg.io', '-n', 'team-a', '-o', 'name']);
    expect(out.stderr).toBe('');
    return out.stdout.trim().split('\n').filter(Boolean).sort();
  };
  /** Runs `kubectl get -w` as admin until a line matches; resolves that line. */
  const watchUntil = async (args: string[], pred: (line: string) => boolean, timeoutMs = 60_000) => {
    const watch = spawnKubectl(file, system.kubeconfig, home(), args);
    try {
      return await watch.waitForLine(pred, timeoutMs);
    } finally {
      watch.stop();
    }
  };

  beforeAll(async () => {
    system = await startSystem({ seed: true, now: clock.now });
    alice = await system.kubeconfigFor('alice-token');
    const cluster = {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Cluster',
      metadata: { name: 'pg-scheduled', namespace: 'team-a' },
      spec: {
        instances: 1,
        storage: { size: '1Gi' },
        backup: { barmanObjectStore: { destinationPath: 's3://backups/', s3Credentials: { inheritFromIAMRole: true } }, retentionPolicy: '30d' },
      },
    };
    const made = await admin(['create', '-f', '-'], JSON.stringify(cluster));
    if (made.stderr) throw new Error(`creating Cluster pg-scheduled: ${made.stderr}`);
    await watchUntil([...watchOneArgs('dbi', 'pg-scheduled', 'team-a'), '-o', 'jsonpath={.status.phase} {.status.reason} {.status.message}{"\\n"}'], l => l.startsWith('Ready '), 120_000).catch(async e => {
      // what the served instance and its operator object say now, beside what the watch saw
      const served = await admin(['get', 'dbi', 'pg-scheduled', '-n', 'team-a', '-o', 'jsonpath={.metadata.resourceVersion} {.status.phase} {.status.reason}']);
      const upstream = await admin(['get', 'clusters.postgresql.cnpg.io', 'pg-scheduled', '-n', 'team-a', '-o', 'jsonpath={.metadata.resourceVersion} {.status.phase} {.status.readyInstances}']);
      throw new Error(`${e.message}\nserved now (rv phase reason): ${served.stdout}${served.stderr}\nCluster now (rv phase ready): ${upstream.stdout}${upstream.stderr}`);
    });
  }, 180_000);
  afterAll(async () => {
    await system?.stop();
  });

  it('is served as a namespaced resource with the short name dbbs in the databases category', async () => {
    const out = await kubectl('api-resources', '--api-group', GROUP, '-o', 'wide');
    const row = parseTable(out.stdout).find(r => r.NAME === 'databasebackupschedules');
    expect(row).toMatchObject({ SHORTNAMES: 'dbbs', NAMESPACED: 'true', KIND: 'DatabaseBackupSchedule', CATEGORIES: 'databases' });
    expect(row?.VERBS).toBe('create,delete,get,list,patch,update,watch');
    const explained = await kubectl('explain', 'databasebackupschedule.spec.schedule');
    expect(explained.stderr).toBe('');
    expect(explained.stdout).toMatch(/5-field cron/);
  });

  it('a schedule on a MariaDB and on a PostgreSQL fires within a minute', async () => {
    // watches open before the schedules exist: every change is seen, no sleeping
    const mariadbRuns = spawnKubectl(file, system.kubeconfig, home(), [
      // a watch of the collection selecting the name: it is open before the schedule exists
      'get', 'dbbs', '-n', 'team-a', '--field-selector', 'metadata.name=orders-db-minutely', '-w', '-o', 'jsonpath={.status.lastScheduleTime} {.status.lastSuccessfulTime} {.status.reason}{"\\n"}',
    ]);
    const pgRuns = spawnKubectl(file, system.kubeconfig, home(), ['get', 'dbb', '-n', 'team-a', '-w', '-o', 'jsonpath={.metadata.name} {.status.phase}{"\\n"}']);
    try {
      clock.nearMinute(LEAD_MS);
      const made = await admin(['create', '-f', '-'], schedule('orders-db-minutely', 'orders-db', { retention: '7d' }));
      expect(made.stderr).toBe('');
      expect(made.stdout.trim()).toBe(`databasebackupschedule.${GROUP}/orders-db-minutely created`);
      expect((await admin(['create', '-f', '-'], schedule('pg-minutely', 'pg-scheduled'))).stderr).toBe('');

      // what each operator was given: its own cron format, retention where it keeps it
      const backup = await json(['get', 'backups.k8s.mariadb.com', 'orders-db-minutely', '-n', 'team-a']);
      expect(backup.spec).toMatchObject({ mariaDbRef: { name: 'orders-db' }, schedule: { cron: '*/1 * * * *', suspend: false }, timeZone: 'UTC', maxRetention: '168h' });
      const scheduled = await json(['get', 'scheduledbackups.postgresql.cnpg.io', 'pg-minutely', '-n', 'team-a']);
      expect(scheduled.spec).toMatchObject({ cluster: { name: 'pg-scheduled' }, schedule: '0 */1 * * * *', method: 'barmanObjectStore' });

      const table = await kubectl('get', 'dbbs', '-n', 'team-a');
      expect(table.stdout.split('\n')[0].split(/\s{2,}/).filter(Boolean)).toEqual(['NAME', 'INSTANCE', 'SCHEDULE', 'SUSPEND', 'LAST SCHEDULE', 'NEXT', 'AGE']);
      // the cron holds spaces: read the row by its columns' two-space gaps
      const row = table.stdout.split('\n').find(l => l.startsWith('orders-db-minutely '))?.split(/\s{2,}/);
      expect(row?.slice(0, 4)).toEqual(['orders-db-minutely', 'orders-db', '*/1 * * * *', 'false']);

      // CloudNativePG makes a Backup <schedule>-<YYYYMMDDhhmmss> per run; mariadb-operator's runs
      // are its CronJob's Jobs <schedule>-<minutes>: each served as a DatabaseBackup
      const [pgLine, mariadbLine, mariadbRunLine] = await Promise.all([
        pgRuns.waitForLine(l => /^pg-minutely-\d{14} Succeeded$/.test(l), FIRES_WITHIN),
        mariadbRuns.waitForLine(l => /^\S+Z \S+Z LastRunSucceeded$/.test(l), FIRES_WITHIN),
        pgRuns.waitForLine(l => /^orders-db-minutely-\d{8} Succeeded$/.test(l), FIRES_WITHIN),
      ]);
      const mariadbRun = await json(['get', 'dbb', mariadbRunLine.split(' ')[0], '-n', 'team-a']);
      expect(mariadbRun.spec.instanceRef).toEqual({ name: 'orders-db' });
      expect(mariadbRun.status).toMatchObject({ engine: 'mariadb', restorable: true, source: { apiVersion: 'batch/v1', kind: 'Job', operator: 'mariadb-operator' } });
      expect(mariadbRun.metadata.annotations['batch.kubernetes.io/cronjob-scheduled-timestamp']).toBeDefined();
      const pgRun = await json(['get', 'dbb', pgLine.split(' ')[0], '-n', 'team-a']);
      expect(pgRun.spec.instanceRef).toEqual({ name: 'pg-scheduled' });
      expect(pgRun.metadata.labels['cnpg.io/scheduled-backup']).toBe('pg-minutely');
      const [lastSchedule] = mariadbLine.split(' ');
      const served = await json(['get', 'dbbs', 'orders-db-minutely', '-n', 'team-a']);
      expect(served.status).toMatchObject({ engine: 'mariadb', lastScheduleTime: lastSchedule, source: { kind: 'Backup', operator: 'mariadb-operator' } });
      expect(Date.parse(served.status.nextScheduleTime) - Date.parse(lastSchedule)).toBe(60_000);
      const pg = await json(['get', 'dbbs', 'pg-minutely', '-n', 'team-a']);
      expect(pg.status.lastScheduleTime).toBeDefined();
      expect(pg.status.nextScheduleTime).toBeDefined();
      // the scheduled Backup is a schedule, not a backup run
      expect((await admin(['get', 'dbb', 'orders-db-minutely', '-n', 'team-a'])).stderr).toMatch(/NotFound|not found/);
    } finally {
      mariadbRuns.stop();
      pgRuns.stop();
    }
  }, FIRES_WITHIN + SLOW);

  it('restores a run of a mariadb-operator schedule into a new instance, and deletes a run (its Job)', async () => {
    const runs = (await admin(['get', 'dbb', '-n', 'team-a', '-o', 'jsonpath={range .items[*]}{.metadata.name} {.status.phase}{"\\n"}{end}'])).stdout
      .split('\n')
      .filter(l => /^orders-db-minutely-\d{8} Succeeded$/.test(l))
      .map(l => l.split(' ')[0]);
    expect(runs.length).toBeGreaterThan(0);
    // the newest: the CronJob prunes the oldest beyond its history limit
    const runName = runs.sort().at(-1)!;
    const done = await json(['get', 'dbb', runName, '-n', 'team-a']);
    const body = JSON.stringify({
      apiVersion: `${GROUP}/v1alpha1`,
      kind: 'DatabaseInstance',
      metadata: { name: 'orders-from-run', namespace: 'team-a' },
      spec: { engine: 'mariadb', version: '11.4', storage: { size: '10Gi' }, restoreFrom: { backup: runName } },
    });
    const ready = watchUntil([...watchOneArgs('dbi', 'orders-from-run', 'team-a'), '-o', 'jsonpath={.status.phase} {.status.reason}{"\\n"}'], l => l.startsWith('Ready '), 120_000);
    expect((await admin(['create', '-f', '-'], body)).stderr).toBe('');
    await ready;
    // the operator is told the scheduled Backup and the run's end: it takes the closest file before it
    const mariadb = await json(['get', 'mariadbs.k8s.mariadb.com', 'orders-from-run', '-n', 'team-a']);
    expect(mariadb.spec.bootstrapFrom).toMatchObject({ backupRef: { name: 'orders-db-minutely' }, targetRecoveryTime: done.status.completionTime });
    const restored = await json(['get', 'dbi', 'orders-from-run', '-n', 'team-a']);
    expect(restored.spec.restoreFrom).toEqual({ backup: runName });
    expect(Object.keys(restored.metadata.annotations ?? {}).filter(k => k.startsWith(`${GROUP}/restored`))).toEqual([]);

    const deleted = await admin(['delete', 'dbb', runName, '-n', 'team-a']);
    expect(deleted.stdout).toContain(`databasebackup.${GROUP} "${runName}" deleted`);
    expect(deleted.stderr).toMatch(/the backup data itself is not deleted/);
    expect((await admin(['get', 'jobs.batch', runName, '-n', 'team-a'])).stderr).toMatch(/NotFound|not found/);
    expect((await admin(['get', 'dbb', runName, '-n', 'team-a'])).stderr).toMatch(/NotFound|not found/);
    expect((await admin(['delete', 'dbi', 'orders-from-run', '-n', 'team-a', '--wait=false'])).stderr).toBe('');
  }, SLOW + 120_000);

  it('suspends with a merge patch and changes the cron with a JSON patch; a stale resourceVersion is a 409', async () => {
    const suspended = await admin(['patch', 'dbbs', 'orders-db-minutely', '-n', 'team-a', '--type=merge', '-p', '{"spec":{"suspend":true}}']);
    expect(suspended.stderr).toBe('');
    expect(suspended.stdout.trim()).toBe(`databasebackupschedule.${GROUP}/orders-db-minutely patched`);
    // the operator carries it to its CronJob (reconcileCronJob patches schedule and suspend)
    await watchUntil([...watchOneArgs('cronjobs', 'orders-db-minutely', 'team-a'), '-o', 'jsonpath={.spec.suspend}{"\\n"}'], l => l === 'true');
    const got = await json(['get', 'dbbs', 'orders-db-minutely', '-n', 'team-a']);
    expect(got.spec.suspend).toBe(true);
    expect(got.status.reason).toBe('Suspended');
    expect(got.status.nextScheduleTime).toBeUndefined();

    const recron = await admin(['patch', 'dbbs', 'pg-minutely', '-n', 'team-a', '--type=json', '-p', '[{"op":"replace","path":"/spec/schedule","value":"15 3 * * *"}]']);
    expect(recron.stderr).toBe('');
    expect((await json(['get', 'scheduledbackups.postgresql.cnpg.io', 'pg-minutely', '-n', 'team-a'])).spec.schedule).toBe('0 15 3 * * *');
    expect((await json(['get', 'dbbs', 'pg-minutely', '-n', 'team-a'])).spec.schedule).toBe('15 3 * * *');

    const stale = await admin(['patch', 'dbbs', 'pg-minutely', '-n', 'team-a', '--type=merge', '-p', '{"metadata":{"resourceVersion":"1"},"spec":{"suspend":true}}']);
    expect(stale.code).not.toBe(0);
    expect(stale.stderr).toMatch(/Conflict|the object has been modified/);
    const dry = await admin(['patch', 'dbbs', 'pg-minutely', '-n', 'team-a', '--dry-run=server', '--type=merge', '-p', '{"spec":{"suspend":true}}']);
    expect(dry.stderr).toBe('');
    expect((await json(['get', 'scheduledbackups.postgresql.cnpg.io', 'pg-minutely', '-n', 'team-a'])).spec.suspend).toBe(false);
  }, SLOW);

  it('refuses engines without schedules, bad crons, retention CloudNativePG keeps per Cluster, and a taken name, writing nothing', async () => {
    const before = await operatorSchedules();
    const create = (manifest: string) => admin(['create', '-f', '-'], manifest);
    const redis = await create(schedule('cache-nightly', 'orders-cache'));
    expect(redis.stderr).toMatch(/The DatabaseBackupSchedule "cache-nightly" is invalid: spec.instanceRef.name: Forbidden: redis instances cannot have a DatabaseBackupSchedule/);
    // mysql-operator keeps schedules as entries of the InnoDBCluster: named after it, no retention, no labels
    const mysql = await create(
      JSON.stringify({ ...JSON.parse(schedule('nightly-payments', 'payments-db', { retention: '7d' })), metadata: { name: 'nightly-payments', namespace: 'team-a', labels: { team: 'a' } } }),
    );
    expect(mysql.stderr).toMatch(/metadata.name: Invalid value: "nightly-payments": mysql-operator keeps schedules as entries of InnoDBCluster payments-db's spec.backupSchedules: a schedule of it is named payments-db-<schedule>/);
    expect(mysql.stderr).toMatch(/metadata.labels: Forbidden: mysql-operator keeps schedules as entries/);
    expect(mysql.stderr).toMatch(/spec.retention: Forbidden: mysql-operator deletes no backups/);
    const badCron = await create(schedule('orders-db-bad', 'orders-db', { schedule: '61 * * * *' }));
    expect(badCron.stderr).toMatch(/spec.schedule: Invalid value: "61 \* \* \* \*": not a 5-field cron/);
    const seconds = await create(schedule('orders-db-secs', 'orders-db', { schedule: '*/10 * * * * *' }));
    expect(seconds.stderr).toMatch(/spec.schedule: Invalid value: "\*\/10 \* \* \* \* \*": must be a 5-field cron .*at most once a minute/);
    const retention = await create(schedule('pg-kept', 'pg-scheduled', { retention: '30d', schedule: '0 3 * * *' }));
    expect(retention.stderr).toMatch(/spec.retention: Forbidden: CloudNativePG keeps backups per Cluster, not per schedule: set spec.backup.retentionPolicy/);
    // every bad field in one answer
    const both = await create(schedule('pg-both', 'pg-scheduled', { retention: '30d', schedule: '* * * * * *' }));
    expect(both.stderr).toMatch(/spec.schedule: Invalid value.*spec.retention: Forbidden/s);
    const taken = await create(schedule('orders-db-minutely', 'orders-db'));
    expect(taken.stderr).toMatch(/AlreadyExists|already exists/);
    // editors back up now; schedules are an admin's
    const editor = await run(alice, ['create', '-f', '-'], schedule('orders-db-alice', 'orders-db'));
    expect(editor.stderr).toMatch(/Forbidden|forbidden/);
    const dry = await admin(['create', '--dry-run=server', '-f', '-'], schedule('orders-db-dry', 'orders-db'));
    expect(dry.stderr).toBe('');
    expect(dry.stdout.trim()).toBe(`databasebackupschedule.${GROUP}/orders-db-dry created (server dry run)`);
    expect(await operatorSchedules()).toEqual(before);
  }, SLOW);

  it('a MySQL schedule is an entry of the InnoDBCluster: made, fired (a MySQLBackup run that succeeds), suspended, changed and deleted through the API', async () => {
    const entries = async () => ((await json(['get', 'innodbclusters.mysql.oracle.com', 'payments-db', '-n', 'team-a'])).spec.backupSchedules ?? []) as any[];
    clock.nearMinute(LEAD_MS);
    const made = await admin(['create', '-f', '-'], schedule('payments-db-minutely', 'payments-db'));
    expect(made.stderr).toBe('');
    expect(await entries()).toEqual([{ name: 'minutely', schedule: '*/1 * * * *', backupProfileName: 'dump-to-volume', enabled: true, timeZone: 'Etc/UTC', deleteBackupData: false }]);
    const served = await json(['get', 'dbbs', 'payments-db-minutely', '-n', 'team-a']);
    expect(served.spec).toEqual({ instanceRef: { name: 'payments-db' }, schedule: '*/1 * * * *', suspend: false, method: 'dump-to-volume' });
    expect(served.status.source).toEqual({ apiVersion: 'mysql.oracle.com/v2', kind: 'InnoDBCluster', name: 'payments-db', operator: 'mysql-operator' });
    // the operator's CronJob fires: its Job makes a MySQLBackup payments-db-minutely<yymmddhhmmss>, a DatabaseBackup that runs
    const firedRun = await watchUntil(['get', 'dbb', '-n', 'team-a', '-w', '-o', 'jsonpath={.metadata.name} {.status.phase}{"\\n"}'], l => /^payments-db-minutely\d{12} Succeeded$/.test(l), FIRES_WITHIN);
    const fired = await json(['get', 'dbbs', 'payments-db-minutely', '-n', 'team-a']);
    expect(fired.status.lastScheduleTime).toMatch(/Z$/);
    expect(Date.parse(fired.status.nextScheduleTime)).toBeGreaterThan(Date.parse(fired.status.lastScheduleTime));
    expect((await json(['get', 'dbb', firedRun.split(' ')[0], '-n', 'team-a'])).spec.instanceRef).toEqual({ name: 'payments-db' });
    // suspend with a merge patch, change the cron with a JSON patch: the entry follows
    expect((await admin(['patch', 'dbbs', 'payments-db-minutely', '-n', 'team-a', '--type=merge', '-p', '{"spec":{"suspend":true}}'])).stderr).toBe('');
    expect((await admin(['patch', 'dbbs', 'payments-db-minutely', '-n', 'team-a', '--type=json', '-p', '[{"op":"replace","path":"/spec/schedule","value":"0 4 * * *"}]'])).stderr).toBe('');
    expect(await entries()).toEqual([{ name: 'minutely', schedule: '0 4 * * *', backupProfileName: 'dump-to-volume', enabled: false, timeZone: 'Etc/UTC', deleteBackupData: false }]);
    const suspended = await json(['get', 'dbbs', 'payments-db-minutely', '-n', 'team-a']);
    expect(suspended.spec).toMatchObject({ schedule: '0 4 * * *', suspend: true });
    expect(suspended.status.reason).toBe('Suspended');
    const stale = await admin(['patch', 'dbbs', 'payments-db-minutely', '-n', 'team-a', '--type=merge', '-p', JSON.stringify({ metadata: { resourceVersion: '1' }, spec: { suspend: false } })]);
    expect(stale.stderr).toMatch(/Conflict|the object has been modified/);
    const deleted = await admin(['delete', 'dbbs', 'payments-db-minutely', '-n', 'team-a']);
    expect(deleted.stderr).toMatch(/Warning: DatabaseBackupSchedule "payments-db-minutely": no new runs start; the backups it already took are kept/);
    expect(await entries()).toEqual([]);
    expect((await admin(['get', 'dbbs', 'payments-db-minutely', '-n', 'team-a'])).stderr).toMatch(/NotFound|not found/);
    expect((await admin(['get', 'dbb', firedRun.split(' ')[0], '-n', 'team-a'])).stderr).toBe('');
  }, SLOW + FIRES_WITHIN);

  it('deletes the operator object, and says the backups taken stay', async () => {
    const runsBefore = (await admin(['get', 'dbb', '-n', 'team-a', '-o', 'name'])).stdout.split('\n').filter(l => l.includes('pg-minutely-'));
    const deleted = await admin(['delete', 'dbbs', 'pg-minutely', 'orders-db-minutely', '-n', 'team-a']);
    expect(deleted.stdout).toContain(`databasebackupschedule.${GROUP} "pg-minutely" deleted`);
    expect(deleted.stderr).toMatch(/Warning: DatabaseBackupSchedule "pg-minutely": no new runs start; the backups it already took are kept/);
    expect(await operatorSchedules()).not.toContain('scheduledbackup.postgresql.cnpg.io/pg-minutely');
    expect(await operatorSchedules()).not.toContain('backup.k8s.mariadb.com/orders-db-minutely');
    expect((await kubectl('get', 'dbbs', 'pg-minutely', '-n', 'team-a')).stderr).toMatch(/NotFound|not found/);
    const runsAfter = (await admin(['get', 'dbb', '-n', 'team-a', '-o', 'name'])).stdout.split('\n').filter(l => l.includes('pg-minutely-'));
    expect(runsAfter).toEqual(runsBefore);
  }, SLOW);
});
