import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { kubectlBinaries, parseTable, runKubectl, spawnKubectl, watchOneArgs } from '../support/kubectl';
import { eventually } from '../support/eventually';
import { startSystem, type System } from '../support/startSystem';

const GROUP = 'dbaas.platform.dev';
const SLOW = 150_000;

/** Phase and reason of the watched backup, one line per change. */
const WATCH_FORMAT = 'jsonpath={.status.phase} {.status.reason}{"\\n"}';

const backup = (name: string, instance: string, extra: { method?: string; annotations?: Record<string, string> } = {}) =>
  JSON.stringify({
    apiVersion: `${GROUP}/v1alpha1`,
    kind: 'DatabaseBackup',
    metadata: { name, namespace: 'team-a', ...(extra.annotations ? { annotations: extra.annotations } : {}) },
    spec: { instanceRef: { name: instance }, ...(extra.method ? { method: extra.method } : {}) },
  });

describe('backups through DatabaseBackup (kubectl, emulator + APIService + apiserver)', () => {
  const { file } = kubectlBinaries([])[0];
  let system: System;
  let alice = '';
  const run = (kubeconfig: string, args: string[], input?: string) => runKubectl(file, kubeconfig, `${system.dir}/home-backups`, args, input);
  const kubectl = (...args: string[]) => run(alice, args);
  const admin = (args: string[], input?: string) => run(system.kubeconfig, args, input);
  /** The operator backup objects of every kind in team-a, as `kind/name` (what a refusal must not add to). */
  const operatorBackups = async () => {
    const out = await admin(['get', 'backups.k8s.mariadb.com,mysqlbackups.mysql.oracle.com,backups.postgresql.cnpg.io', '-n', 'team-a', '-o', 'name']);
    expect(out.stderr).toBe('');
    return out.stdout.trim().split('\n').filter(Boolean).sort();
  };

  /** Creates a backup as alice and follows it with `kubectl get -w` until `phase`; resolves every line seen. */
  const backUpAndFollow = async (manifest: string, name: string, phase: string) => {
    // a watch of the collection selecting the name: it is open before the backup exists, so every state is seen
    const watch = spawnKubectl(file, alice, `${system.dir}/home-backups`, ['get', 'dbb', '-n', 'team-a', '--field-selector', `metadata.name=${name}`, '-w', '-o', WATCH_FORMAT], { announce: true });
    try {
      await watch.watching();
      const created = await run(alice, ['create', '-f', '-'], manifest);
      expect(created.stderr).toBe('');
      expect(created.stdout.trim()).toBe(`databasebackup.${GROUP}/${name} created`);
      await watch.waitForLine(l => l.startsWith(`${phase} `), 60_000);
      return [...watch.lines];
    } finally {
      watch.stop();
    }
  };

  /** Watches a failed case may leave running, stopped after all. */
  const left: Array<{ stop(): void }> = [];

  beforeAll(async () => {
    system = await startSystem({ seed: true });
    alice = await system.kubeconfigFor('alice-token');
  }, 120_000);
  afterAll(async () => {
    left.forEach(w => w.stop());
    await system?.stop();
  });

  it('is served as a namespaced resource with the short name dbb in the databases category', async () => {
    const out = await kubectl('api-resources', '--api-group', GROUP, '-o', 'wide');
    const row = parseTable(out.stdout).find(r => r.NAME === 'databasebackups');
    expect(row).toMatchObject({ SHORTNAMES: 'dbb', NAMESPACED: 'true', KIND: 'DatabaseBackup' });
    expect(row?.VERBS).toBe('create,delete,get,list,watch');
    expect(row?.CATEGORIES).toBe('databases');
    const explained = await kubectl('explain', 'databasebackup.status.phase');
    expect(explained.stderr).toBe('');
    expect(explained.stdout).toMatch(/Succeeded/);
  });

  /** A watch of orders-db's last successful and failed backup times (status.backup), one line per change. */
  const watchBackupTimes = () => {
    const watch = spawnKubectl(file, alice, `${system.dir}/home-backups`, [
      ...watchOneArgs('dbi', 'orders-db', 'team-a'),
      '-o',
      'jsonpath=ok={.status.backup.lastSuccessfulTime} failed={.status.backup.lastFailedTime}{"\\n"}',
    ]);
    left.push(watch);
    return watch;
  };

  it('backs a MariaDB up now: Pending or Running, then Succeeded, with the Table columns', async () => {
    const times = watchBackupTimes();
    const lines = await backUpAndFollow(backup('orders-db-now', 'orders-db'), 'orders-db-now', 'Succeeded');
    // whatever the watch saw before the end was a run not yet done (how much it saw depends on when
    // its list was answered: the emulated run takes a few of its 100 ms rounds)
    expect(lines.slice(0, lines.findIndex(l => l.startsWith('Succeeded '))).every(l => /^(Pending|Running) /.test(l))).toBe(true);
    const table = await kubectl('get', 'dbb', '-n', 'team-a');
    const header = table.stdout.split('\n')[0].split(/\s+/).filter(Boolean);
    expect(header).toEqual(['NAME', 'INSTANCE', 'PHASE', 'STARTED', 'DURATION', 'SIZE', 'AGE']);
    const row = parseTable(table.stdout).find(r => r.NAME === 'orders-db-now');
    expect(row).toMatchObject({ INSTANCE: 'orders-db', PHASE: 'Succeeded' });
    expect(row?.STARTED).not.toBe('');
    const got = JSON.parse((await kubectl('get', 'dbb', 'orders-db-now', '-n', 'team-a', '-o', 'json')).stdout);
    expect(got.status).toMatchObject({ phase: 'Succeeded', engine: 'mariadb', restorable: true, source: { kind: 'Backup', name: 'orders-db-now', operator: 'mariadb-operator' } });
    expect(got.status.completionTime).toBeDefined();
    // a run ends as a Job does: `kubectl wait` for its Complete condition returns
    const waited = await kubectl('wait', '-n', 'team-a', 'dbb/orders-db-now', '--for=condition=Complete', '--timeout=30s');
    expect({ code: waited.code, stderr: waited.stderr }).toEqual({ code: 0, stderr: '' });
    expect(waited.stdout.trim()).toBe(`databasebackup.${GROUP}/orders-db-now condition met`);
    // the instance tells its last successful backup, and a watch of it sees the change
    await times.waitForLine(l => l.startsWith(`ok=${got.status.completionTime} `), 30_000);
    times.stop();
    // the operator's object is what was written
    const operatorObject = JSON.parse((await admin(['get', 'backups.k8s.mariadb.com', 'orders-db-now', '-n', 'team-a', '-o', 'json'])).stdout);
    expect(operatorObject.spec.mariaDbRef.name).toBe('orders-db');
  }, SLOW);

  it('a run whose Job fails is Failed, although mariadb-operator reports it Complete', async () => {
    const lines = await backUpAndFollow(
      backup('orders-db-failing', 'orders-db', { annotations: { 'emulator.dbaas.platform.dev/fail-backup': 'true' } }),
      'orders-db-failing',
      'Failed',
    );
    expect(lines.filter(l => l.startsWith('Succeeded'))).toEqual([]);
    const operatorObject = JSON.parse((await admin(['get', 'backups.k8s.mariadb.com', 'orders-db-failing', '-n', 'team-a', '-o', 'json'])).stdout);
    // the trap: the operator's own condition says Complete
    expect(operatorObject.status.conditions.find((c: any) => c.type === 'Complete')).toMatchObject({ status: 'True', reason: 'JobFailed' });
    const got = JSON.parse((await kubectl('get', 'dbb', 'orders-db-failing', '-n', 'team-a', '-o', 'json')).stdout);
    expect(got.status.restorable).toBe(false);
    // ours says Failed, and nothing Complete: `kubectl wait --for=condition=Complete` would not return
    expect(got.status.conditions.map((c: any) => [c.type, c.status])).toEqual([['Failed', 'True']]);
    const waited = await kubectl('wait', '-n', 'team-a', 'dbb/orders-db-failing', '--for=condition=Failed', '--timeout=30s');
    expect({ code: waited.code, stderr: waited.stderr }).toEqual({ code: 0, stderr: '' });
    // and the instance its last failed one (decided from the Job, as the run's phase is)
    const failedAt = got.status.completionTime ?? got.status.startTime ?? got.metadata.creationTimestamp;
    const instance = JSON.parse((await kubectl('get', 'dbi', 'orders-db', '-n', 'team-a', '-o', 'json')).stdout);
    expect(instance.status.backup.lastFailedTime).toBe(failedAt);
  }, SLOW);

  it('backs a PostgreSQL up through its Cluster\'s barmanObjectStore, and refuses a method the Cluster has no configuration for', async () => {
    const cluster = {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Cluster',
      metadata: { name: 'pg-backed', namespace: 'team-a' },
      spec: {
        instances: 1,
        storage: { size: '1Gi' },
        backup: { barmanObjectStore: { destinationPath: 's3://backups/', s3Credentials: { inheritFromIAMRole: true } } },
      },
    };
    expect((await admin(['create', '-f', '-'], JSON.stringify(cluster))).stderr).toBe('');
    // read until Ready (a failure names the last phase, reason and message seen)
    await eventually(async () => {
      const seen = (await kubectl('get', 'dbi', 'pg-backed', '-n', 'team-a', '-o', 'jsonpath={.status.phase} {.status.reason} {.status.message}')).stdout;
      if (!seen.startsWith('Ready')) throw new Error(`pg-backed is ${seen}`);
      return true;
    }, 'pg-backed Ready', 120_000);
    const before = await operatorBackups();
    const refused = await run(alice, ['create', '-f', '-'], backup('pg-snap', 'pg-backed', { method: 'volumeSnapshot' }));
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/The DatabaseBackup "pg-snap" is invalid: spec.method: Invalid value: "volumeSnapshot": Cluster pg-backed has no spec.backup.volumeSnapshot/);
    expect(await operatorBackups()).toEqual(before);
    await backUpAndFollow(backup('pg-backed-now', 'pg-backed', { method: 'barmanObjectStore' }), 'pg-backed-now', 'Succeeded');
    const got = JSON.parse((await kubectl('get', 'dbb', 'pg-backed-now', '-n', 'team-a', '-o', 'json')).stdout);
    expect(got.spec).toEqual({ instanceRef: { name: 'pg-backed' }, method: 'barmanObjectStore' });
    expect(got.status).toMatchObject({ engine: 'postgresql', restorable: true, source: { kind: 'Backup', operator: 'cloudnative-pg' } });
  }, SLOW);

  it('refuses engines without backups, a missing instance and unknown fields, writing nothing', async () => {
    const before = await operatorBackups();
    const redis = await run(alice, ['create', '-f', '-'], backup('cache-now', 'orders-cache'));
    expect(redis.stderr).toMatch(/The DatabaseBackup "cache-now" is invalid: spec.instanceRef.name: Forbidden: redis instances cannot be backed up through this API: redis-operator has no backup objects/);
    const missing = await run(alice, ['create', '-f', '-'], backup('ghost-now', 'no-such-db'));
    expect(missing.stderr).toMatch(/spec.instanceRef.name: Not found: "no-such-db"/);
    const withTypo = JSON.stringify({ ...JSON.parse(backup('typo-now', 'orders-db')), spec: { instanceRef: { name: 'orders-db' }, retention: '7d' } });
    const typo = await run(alice, ['create', '--validate=strict', '-f', '-'], withTypo);
    // kubectl validates against the served OpenAPI itself (it sends fieldValidation only to
    // resources whose PATCH declares it, and DatabaseBackups have no PATCH); the server refuses too
    expect(typo.code).not.toBe(0);
    expect(typo.stderr).toMatch(/unknown field "retention" in dev.platform.dbaas.v1alpha1.DatabaseBackupSpec/);
    const server = await run(alice, ['create', '--raw', `/apis/${GROUP}/v1alpha1/namespaces/team-a/databasebackups?fieldValidation=Strict`, '-f', '-'], withTypo);
    expect(server.stderr).toMatch(/strict decoding error: unknown field "spec.retention"/);
    const dry = await run(alice, ['create', '--dry-run=server', '-f', '-'], backup('orders-db-dry', 'orders-db'));
    expect(dry.stderr).toBe('');
    expect(dry.stdout.trim()).toBe(`databasebackup.${GROUP}/orders-db-dry created (server dry run)`);
    expect(await operatorBackups()).toEqual(before);
  }, SLOW);

  it('deletes the operator object only, and says the stored backup stays', async () => {
    await backUpAndFollow(backup('orders-db-gone', 'orders-db'), 'orders-db-gone', 'Succeeded');
    // deleting a backup is an admin's (the chart's dbaas-admin), not an editor's like alice
    const refused = await kubectl('delete', 'dbb', 'orders-db-gone', '-n', 'team-a');
    expect(refused.stderr).toMatch(/Forbidden|forbidden/);
    const deleted = await admin(['delete', 'dbb', 'orders-db-gone', '-n', 'team-a']);
    expect(deleted.stdout.trim()).toBe(`databasebackup.${GROUP} "orders-db-gone" deleted`);
    expect(deleted.stderr).toMatch(/Warning: DatabaseBackup "orders-db-gone": the backup data itself is not deleted/);
    const gone = await kubectl('get', 'dbb', 'orders-db-gone', '-n', 'team-a');
    expect(gone.stderr).toMatch(/NotFound|not found/);
    expect(await operatorBackups()).not.toContain('backup.k8s.mariadb.com/orders-db-gone');
  }, SLOW);

});
