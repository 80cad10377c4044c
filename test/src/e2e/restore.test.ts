import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { kubectlBinaries, runKubectl, spawnKubectl } from '../support/kubectl';
import { eventually } from '../support/eventually';
import { startSystem, type System } from '../support/startSystem';

const GROUP = 'dbaas.platform.dev';
const SLOW = 120_000;
/** Phase and reason of the watched instance, one line per change. */
const WATCH_FORMAT = 'jsonpath={.status.phase} {.status.reason}{"\\n"}';

const instance = (name: string, spec: Record<string, unknown>, annotations?: Record<string, string>) =>
  JSON.stringify({
    apiVersion: `${GROUP}/v1alpha1`,
    kind: 'DatabaseInstance',
    metadata: { name, namespace: 'team-a', ...(annotations && { annotations }) },
    spec,
  });
const backup = (name: string, of: string, annotations?: Record<string, string>) =>
  JSON.stringify({
    apiVersion: `${GROUP}/v1alpha1`,
    kind: 'DatabaseBackup',
    metadata: { name, namespace: 'team-a', ...(annotations && { annotations }) },
    spec: { instanceRef: { name: of } },
  });
/** A minute ago, in RFC 3339 to the second. */
const minuteAgo = () => new Date(Date.now() - 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('restore into a new instance with spec.restoreFrom (kubectl, emulator + APIService + apiserver)', () => {
  const { file } = kubectlBinaries([])[0];
  let system: System;
  let alice = '';
  const home = () => `${system.dir}/home-restore`;
  const run = (kubeconfig: string, args: string[], input?: string) => runKubectl(file, kubeconfig, home(), args, input);
  const kubectl = (args: string[], input?: string) => run(alice, args, input);
  const admin = (args: string[], input?: string) => run(system.kubeconfig, args, input);
  /** Every operator object that is an instance in team-a (what a refusal must not add to). */
  const operatorObjects = async () => {
    const out = await admin(['get', 'mariadbs.k8s.mariadb.com,clusters.postgresql.cnpg.io,innodbclusters.mysql.oracle.com,redis.redis.redis.opstreelabs.in', '-n', 'team-a', '-o', 'name']);
    return out.stdout.trim().split('\n').filter(Boolean).sort();
  };

  /** Follows `kind name` with `kubectl get -w` while `act` runs, until a line matches `until`; every line seen. */
  const follow = async (resource: string, name: string, until: (line: string) => boolean, act: () => Promise<void>) => {
    const watch = spawnKubectl(file, alice, home(), ['get', resource, '-n', 'team-a', '--field-selector', `metadata.name=${name}`, '-w', '-o', WATCH_FORMAT], { announce: true });
    try {
      // open before the object exists, so that its first states are seen too
      await watch.watching();
      await act();
      await watch.waitForLine(until, 90_000);
      return [...watch.lines];
    } finally {
      watch.stop();
    }
  };
  const applied = async (manifest: string) => {
    const out = await kubectl(['apply', '-f', '-'], manifest);
    expect(out.stderr).toBe('');
  };
  const backedUp = async (name: string, of: string, phase = 'Succeeded', annotations?: Record<string, string>) => {
    await follow('dbb', name, l => l.startsWith(`${phase} `), async () => {
      const out = await kubectl(['create', '-f', '-'], backup(name, of, annotations));
      expect(out.stderr).toBe('');
    });
  };

  beforeAll(async () => {
    system = await startSystem({ seed: true });
    alice = await system.kubeconfigFor('alice-token');
  }, 120_000);
  afterAll(async () => {
    await system?.stop();
  });

  it('restores a MariaDB backup into a new instance: Provisioning Restoring, then Ready; restoreFrom reads back and cannot change', async () => {
    await backedUp('orders-db-restore-src', 'orders-db');
    const spec = { engine: 'mariadb', version: '11.4', storage: { size: '10Gi' }, restoreFrom: { backup: 'orders-db-restore-src' } };
    const lines = await follow('dbi', 'orders-restored', l => l.startsWith('Ready '), () => applied(instance('orders-restored', spec)));
    expect(lines).toContain('Provisioning Restoring');
    // nothing before Ready says Ready: the empty server waiting for its restore is not the restored one
    expect(lines.slice(0, lines.indexOf('Provisioning Restoring')).every(l => /^(Pending|Provisioning) /.test(l))).toBe(true);
    const mariadb = JSON.parse((await admin(['get', 'mariadbs.k8s.mariadb.com', 'orders-restored', '-n', 'team-a', '-o', 'json'])).stdout);
    // the CRD defaults logLevel; the API wrote only the Backup's name
    expect(mariadb.spec.bootstrapFrom).toMatchObject({ backupRef: { name: 'orders-db-restore-src' } });
    expect(mariadb.status.conditions.find((c: any) => c.type === 'BackupRestored')).toMatchObject({ status: 'True', message: 'Restored backup' });
    const got = JSON.parse((await kubectl(['get', 'dbi', 'orders-restored', '-n', 'team-a', '-o', 'json'])).stdout);
    expect(got.spec.restoreFrom).toEqual({ backup: 'orders-db-restore-src' });
    // an apply with the same restoreFrom is no change to it; another one is refused
    await applied(instance('orders-restored', spec));
    const changed = await kubectl(['patch', 'dbi', 'orders-restored', '-n', 'team-a', '--type=merge', '-p', '{"spec":{"restoreFrom":{"backup":"other"}}}']);
    expect(changed.stderr).toMatch(/spec.restoreFrom: Forbidden: a restore is chosen only when the instance is created/);
  }, SLOW);

  it('restores a PostgreSQL to a point in time from a Cluster with a barmanObjectStore', async () => {
    const spec = { engine: 'postgresql', storage: { size: '1Gi' }, restoreFrom: { instance: 'payments-pg', pointInTime: minuteAgo() } };
    const lines = await follow('dbi', 'payments-pitr', l => l.startsWith('Ready '), () => applied(instance('payments-pitr', spec)));
    expect(lines).toContain('Provisioning Restoring');
    const cluster = JSON.parse((await admin(['get', 'clusters.postgresql.cnpg.io', 'payments-pitr', '-n', 'team-a', '-o', 'json'])).stdout);
    const source = JSON.parse((await admin(['get', 'clusters.postgresql.cnpg.io', 'payments-pg', '-n', 'team-a', '-o', 'json'])).stdout);
    expect(cluster.spec.bootstrap).toEqual({ recovery: { source: 'payments-pg', recoveryTarget: { targetTime: spec.restoreFrom.pointInTime } } });
    expect(cluster.spec.externalClusters).toEqual([{ name: 'payments-pg', barmanObjectStore: source.spec.backup.barmanObjectStore }]);
  }, SLOW);

  it('refuses what cannot be restored with a 422 naming the field, and writes nothing', async () => {
    await backedUp('orders-db-stuck', 'orders-db', 'Pending', { 'emulator.dbaas.platform.dev/fail-backup': 'pending' });
    const before = await operatorObjects();
    const refusals: Array<[string, Record<string, unknown>, RegExp]> = [
      ['r-pending', { engine: 'mariadb', restoreFrom: { backup: 'orders-db-stuck' } }, /spec.restoreFrom.backup: Invalid value: "orders-db-stuck": is Pending.*only a Succeeded backup can be restored/],
      ['r-engine', { engine: 'postgresql', restoreFrom: { backup: 'orders-db-restore-src' } }, /spec.restoreFrom.backup: Invalid value: "orders-db-restore-src": is a backup of a mariadb instance: it cannot be restored into a postgresql instance/],
      ['r-redis', { engine: 'redis', restoreFrom: { backup: 'orders-db-restore-src' } }, /spec.restoreFrom: Forbidden: redis instances cannot be restored from a backup/],
      ['r-mariadb-time', { engine: 'mariadb', restoreFrom: { instance: 'orders-db', pointInTime: minuteAgo() } }, /spec.restoreFrom.pointInTime: Forbidden: mariadb-operator restores the closest backup before a time .*not pass that off as a point in time/],
      ['r-mysql-time', { engine: 'mysql', restoreFrom: { instance: 'payments-db', pointInTime: minuteAgo() } }, /spec.restoreFrom.pointInTime: Forbidden: mysql-operator loads a dump into a new cluster/],
      ['r-future', { engine: 'postgresql', restoreFrom: { instance: 'payments-pg', pointInTime: '2999-01-01T00:00:00Z' } }, /spec.restoreFrom.pointInTime: Invalid value: "2999-01-01T00:00:00Z": is in the future/],
      ['r-missing', { engine: 'mariadb', restoreFrom: { backup: 'nope' } }, /spec.restoreFrom.backup: Not found: "nope"/],
    ];
    for (const [name, spec, message] of refusals) {
      const out = await kubectl(['apply', '-f', '-'], instance(name, spec));
      expect(out.code).not.toBe(0);
      expect(out.stderr).toMatch(new RegExp(`The DatabaseInstance "${name}" is invalid`));
      expect(out.stderr).toMatch(message);
      // a server dry run answers the same
      const dry = await kubectl(['create', '--dry-run=server', '-f', '-'], instance(name, spec));
      expect(dry.stderr).toMatch(message);
    }
    expect(await operatorObjects()).toEqual(before);
    // a server dry run of a good restore answers the would-be instance and writes nothing either
    const dry = await kubectl(['create', '--dry-run=server', '-o', 'json', '-f', '-'], instance('r-dry', { engine: 'mariadb', restoreFrom: { backup: 'orders-db-restore-src' } }));
    expect(JSON.parse(dry.stdout).spec.restoreFrom).toEqual({ backup: 'orders-db-restore-src' });
    expect(await operatorObjects()).toEqual(before);
  }, SLOW);

  it('a MariaDB whose restore Job fails is Failed (RestoreFailed), though the operator counts it restored and deletes the Restore', async () => {
    await backedUp('orders-db-broken-src', 'orders-db');
    const spec = { engine: 'mariadb', version: '11.4', storage: { size: '10Gi' }, restoreFrom: { backup: 'orders-db-broken-src' } };
    const lines = await follow('dbi', 'orders-broken', l => l.startsWith('Failed '), () =>
      applied(instance('orders-broken', spec, { 'emulator.dbaas.platform.dev/fail-restore': 'true' })),
    );
    expect(lines).toContain('Provisioning Restoring');
    expect(lines.some(l => l.startsWith('Ready '))).toBe(false);
    // the operator's trap: restored, Ready, and the Restore that said it failed deleted
    const settled = async () => {
      const mariadb = JSON.parse((await admin(['get', 'mariadbs.k8s.mariadb.com', 'orders-broken', '-n', 'team-a', '-o', 'json'])).stdout);
      const gone = (await admin(['get', 'restores.k8s.mariadb.com', 'orders-broken-restore', '-n', 'team-a'])).stderr;
      return { mariadb, gone };
    };
    await eventually(async () => {
      const { mariadb, gone } = await settled();
      expect(mariadb.status.conditions.find((c: any) => c.type === 'BackupRestored')).toMatchObject({ status: 'True', message: 'Restored backup' });
      expect(mariadb.status.conditions.find((c: any) => c.type === 'Ready')).toMatchObject({ status: 'True' });
      expect(gone).toMatch(/NotFound/);
      return true;
    }, 'the operator counting the failed restore as restored, Ready, its Restore deleted', 60_000);
    // what the apiserver saw is kept on the MariaDB, so it still says Failed with the Restore gone
    const recorded = await eventually(async () => {
      const { mariadb } = await settled();
      const value = mariadb.metadata.annotations?.['dbaas.platform.dev/restore-failed'];
      if (value === undefined) {
        const served = JSON.parse((await kubectl(['get', 'dbi', 'orders-broken', '-n', 'team-a', '-o', 'json'])).stdout);
        throw new Error(`not recorded; watched ${JSON.stringify(lines)}; served ${JSON.stringify(served.status && { phase: served.status.phase, reason: served.status.reason, message: served.status.message })}`);
      }
      return value;
    }, 'the failed restore recorded on the MariaDB');
    expect(recorded).toMatch(/^Restore orders-broken-restore: Failed/);
    const got = await eventually(async () => {
      const now = JSON.parse((await kubectl(['get', 'dbi', 'orders-broken', '-n', 'team-a', '-o', 'json'])).stdout);
      return now.status?.phase === 'Failed' ? now : undefined;
    }, 'orders-broken Failed once its Restore is gone');
    expect(got.status).toMatchObject({ phase: 'Failed', reason: 'RestoreFailed' });
    expect(got.status.message).toMatch(/^Restore orders-broken-restore: Failed \(the operator still reports BackupRestored=True/);
    expect(got.metadata.annotations?.['dbaas.platform.dev/restore-failed']).toBeUndefined();
  }, SLOW);

  it('restores a MySQL dump into a new InnoDB Cluster (Provisioning Restoring, then Ready); a dump load that keeps failing in the seed pod is Failed RestoreFailed', async () => {
    const spec = { engine: 'mysql', storage: { size: '1Gi' }, restoreFrom: { backup: 'payments-db-first' } };
    const good = await follow('dbi', 'payments-copy', l => l.startsWith('Ready '), () => applied(instance('payments-copy', spec)));
    expect(good).toContain('Provisioning Restoring');
    const bad = await follow('dbi', 'payments-bad-dump', l => l.startsWith('Failed '), () =>
      applied(instance('payments-bad-dump', spec, { 'emulator.dbaas.platform.dev/fail-restore': 'true' })),
    );
    expect(bad).toContain('Provisioning Restoring');
    const got = JSON.parse((await kubectl(['get', 'dbi', 'payments-bad-dump', '-n', 'team-a', '-o', 'json'])).stdout);
    expect(got.status).toMatchObject({ phase: 'Failed', reason: 'RestoreFailed' });
    // the operator's words are only in the seed pod's log: the message says which container and how to read it
    expect(got.status.message).toMatch(/^Loading dump payments-db-first failed: container \S+ of the seed pod payments-bad-dump-0 exited with code 1/);
    expect(got.status.message).toMatch(/kubectl logs -n team-a payments-bad-dump-0 -c \S+ --previous$/);
  }, SLOW);

  it('a restore that fails is Failed with the operator\'s words', async () => {
    const spec = { engine: 'postgresql', storage: { size: '1Gi' }, restoreFrom: { instance: 'payments-pg', pointInTime: minuteAgo() } };
    const lines = await follow('dbi', 'payments-broken', l => l.startsWith('Failed '), () =>
      applied(instance('payments-broken', spec, { 'emulator.dbaas.platform.dev/fail-restore': 'true' })),
    );
    expect(lines).toContain('Provisioning Restoring');
    const got = JSON.parse((await kubectl(['get', 'dbi', 'payments-broken', '-n', 'team-a', '-o', 'json'])).stdout);
    expect(got.status).toMatchObject({
      phase: 'Failed',
      reason: 'Unrecoverable',
      message: 'Instance creation failed for the following jobs: payments-broken-1-full-recovery',
    });
  }, SLOW);
});
