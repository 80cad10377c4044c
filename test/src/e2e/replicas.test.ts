import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { RunningApiserver } from '@internal/databases-apiserver';
import { eventually } from '../reliability/support/eventually';
import { kubectlBinaries, runKubectl, spawnKubectl, watchOneArgs } from '../support/kubectl';
import { startSystem, type System } from '../support/startSystem';

const GROUP = 'dbaas.platform.dev';
const MARIADBS = { group: 'k8s.mariadb.com', version: 'v1alpha1', plural: 'mariadbs' };
const READY_SPEC = 'dbaas.platform.dev/ready-spec';
const SLOW = 90_000;

/**
 * The supported deployment runs two apiserver replicas behind one Service. A rollout must look
 * the same on both, and to a watch that the Service moves from one to the other: the phase is
 * decided from what the cluster keeps (the Ready spec the apiserver records on the operator
 * object), not from what one process happened to watch.
 */
describe('two apiserver replicas: one phase, whichever answers', () => {
  const { file } = kubectlBinaries([])[0];
  let system: System;
  let second: RunningApiserver | undefined;
  const kubectl = (...args: string[]) => runKubectl(file, system.kubeconfig, `${system.dir}/home-replicas`, args);
  const phaseOn = (replica: RunningApiserver, name: string) => replica.store.get('team-a', name)?.status?.phase;
  const readySpecOf = (name: string) =>
    system.emulator.store.get(MARIADBS, 'team-a', name)?.metadata.annotations?.[READY_SPEC];

  beforeAll(async () => {
    system = await startSystem();
    const namespace = await kubectl('create', 'namespace', 'team-a');
    if (namespace.code !== 0) throw new Error(`kubectl create namespace: ${namespace.stderr}`);
  }, 120_000);
  afterAll(async () => {
    await system?.stop();
  });

  it(
    'a replica started in the middle of a scale says Updating, as the one that saw it start, and a watch moved to it sees no Degraded',
    async () => {
      const name = 'two-replicas';
      const created = await runKubectl(
        file,
        system.kubeconfig,
        `${system.dir}/home-replicas`,
        ['apply', '-f', '-'],
        JSON.stringify({
          apiVersion: `${GROUP}/v1alpha1`,
          kind: 'DatabaseInstance',
          metadata: { name, namespace: 'team-a' },
          spec: { engine: 'mariadb', topology: 'replication', replicas: 2 },
        }),
      );
      expect(created.stderr).toBe('');
      const ready = await kubectl('wait', '-n', 'team-a', `dbi/${name}`, '--for=jsonpath={.status.phase}=Ready', '--timeout=60s');
      expect(ready.stderr).toBe('');
      // the apiserver records the spec it saw Ready on the operator object
      await eventually(() => readySpecOf(name) !== undefined, 20_000, () => JSON.stringify(system.emulator.store.get(MARIADBS, 'team-a', name)?.metadata));
      expect(JSON.parse(readySpecOf(name)!)).toMatchObject({ replicas: 2, topology: 'replication' });
      // ... and does not serve it: the record is the apiserver's, not the instance's
      const served = JSON.parse((await kubectl('get', 'dbi', name, '-n', 'team-a', '-o', 'json')).stdout);
      expect(served.metadata.annotations?.[READY_SPEC]).toBeUndefined();

      // a dry run of the scale shows what a client will see next: Updating, not Degraded for the
      // member that is not there yet
      const preview = await kubectl('patch', 'dbi', name, '-n', 'team-a', '--type=merge', '-p', '{"spec":{"replicas":3}}', '--dry-run=server', '-o', 'jsonpath={.status.phase} {.status.reason}');
      expect([preview.stdout, preview.stderr]).toEqual(['Updating RollingOut', '']);

      // the operator holds still (its status keeps its last Ready words); a watch through replica 1
      system.emulator.operators.setHealth({ kind: 'MariaDB', namespace: 'team-a', name }, 'stalled');
      const watchArgs = [...watchOneArgs('dbi', name, 'team-a'), '-o', 'jsonpath={.status.phase}{"\\n"}'];
      const home = `${system.dir}/home-replicas`;
      const onFirst = spawnKubectl(file, system.kubeconfig, home, watchArgs);
      let onSecond: ReturnType<typeof spawnKubectl> | undefined;
      const phases = (w: ReturnType<typeof spawnKubectl>) => w.lines.map(l => l.trim());
      try {
        await onFirst.waitForLine(l => l.includes('Ready'));
        const scaled = await kubectl('patch', 'dbi', name, '-n', 'team-a', '--type=merge', '-p', '{"spec":{"replicas":3}}');
        expect(scaled.stderr).toBe('');
        await onFirst.waitForLine(l => l.includes('Updating'));

        // replica 2 starts now: it never saw this instance Ready, only what the cluster keeps
        second = await system.startReplica();
        expect([phaseOn(second, name), second.store.get('team-a', name)?.status?.reason]).toEqual(['Updating', 'RollingOut']);
        // the Service sends clients to replica 2 now: what they read and watch agrees
        await system.routeTo(second);
        const got = await kubectl('get', 'dbi', name, '-n', 'team-a', '-o', 'jsonpath={.status.phase}');
        expect(got.stdout).toBe('Updating');
        onSecond = spawnKubectl(file, system.kubeconfig, home, watchArgs);
        await onSecond.waitForLine(l => l.includes('Updating'));

        // the operator finishes the scale: Ready again on both, never Degraded on either
        system.emulator.operators.setHealth({ kind: 'MariaDB', namespace: 'team-a', name }, 'ready');
        const readyAfterUpdating = (w: ReturnType<typeof spawnKubectl>) => () => {
          const seen = phases(w);
          return seen.indexOf('Updating') >= 0 && seen.slice(seen.indexOf('Updating')).includes('Ready');
        };
        await eventually(readyAfterUpdating(onFirst), 30_000, () => onFirst.lines.join('\n'));
        await eventually(readyAfterUpdating(onSecond), 30_000, () => onSecond!.lines.join('\n'));
        expect(phases(onFirst)).not.toContain('Degraded');
        expect(phases(onSecond)).not.toContain('Degraded');
        // and the new Ready spec is recorded, for whichever replica comes next
        await eventually(() => JSON.parse(readySpecOf(name) ?? '{}').replicas === 3, 20_000, () => String(readySpecOf(name)));
      } finally {
        onFirst.stop();
        onSecond?.stop();
      }
    },
    SLOW,
  );

  it(
    'a MySQL schedule kept inside its InnoDBCluster has the same name, uid and resourceVersion on both replicas, and a watch resumed on the other one sees its change',
    async () => {
      const admin = (args: string[], input?: string) => runKubectl(file, system.kubeconfig, `${system.dir}/home-replicas`, args, input);
      const made = await admin(
        ['create', '-f', '-'],
        JSON.stringify({
          apiVersion: 'mysql.oracle.com/v2',
          kind: 'InnoDBCluster',
          metadata: { name: 'rep-mysql', namespace: 'team-a' },
          spec: { instances: 1, secretName: 'rep-mysql-root', tlsUseSelfSigned: true, backupProfiles: [{ name: 'dump', dumpInstance: { storage: { persistentVolumeClaim: { claimName: 'dumps' } } } }] },
        }),
      );
      expect(made.stderr).toBe('');
      await eventually(async () => (await kubectl('get', 'dbi', 'rep-mysql', '-n', 'team-a')).code === 0, 30_000);
      second ??= await system.startReplica();
      await system.routeTo(system.apiserver);
      const schedule = JSON.stringify({
        apiVersion: `${GROUP}/v1alpha1`,
        kind: 'DatabaseBackupSchedule',
        metadata: { name: 'rep-mysql-nightly', namespace: 'team-a' },
        // a cron that does not fire while the test runs: no run may move the schedule meanwhile
        spec: { instanceRef: { name: 'rep-mysql' }, schedule: '0 3 29 2 *' },
      });
      expect((await admin(['create', '-f', '-'], schedule)).stderr).toBe('');
      // the emulated operator has made its CronJob: the status says so, and stays so
      await eventually(async () => (await kubectl('get', 'dbbs', 'rep-mysql-nightly', '-n', 'team-a', '-o', 'jsonpath={.status.reason}')).stdout === 'Scheduled', 30_000);
      const identity = async () => {
        const got = JSON.parse((await kubectl('get', 'dbbs', 'rep-mysql-nightly', '-n', 'team-a', '-o', 'json')).stdout);
        return { uid: got.metadata.uid, resourceVersion: got.metadata.resourceVersion, spec: got.spec };
      };
      const onFirst = await identity();
      // the other replica has built it from the same change of the cluster
      await eventually(() => second!.schedules.get('team-a', 'rep-mysql-nightly')?.metadata.resourceVersion === onFirst.resourceVersion, 20_000);
      await system.routeTo(second!);
      expect(await identity()).toEqual(onFirst);
      // a watch from the first replica's resourceVersion, answered by the second, sees the next change
      const path = `/apis/${GROUP}/v1alpha1/namespaces/team-a/databasebackupschedules?watch=1&resourceVersion=${onFirst.resourceVersion}&fieldSelector=metadata.name%3Drep-mysql-nightly&timeoutSeconds=30`;
      const watch = spawnKubectl(file, system.kubeconfig, `${system.dir}/home-replicas`, ['get', '--raw', path]);
      try {
        const suspended = await kubectl('patch', 'dbbs', 'rep-mysql-nightly', '-n', 'team-a', '--type=merge', '-p', '{"spec":{"suspend":true}}');
        expect(suspended.stderr).toBe('');
        const line = await watch.waitForLine(l => l.includes('"suspend":true'), 20_000);
        expect(JSON.parse(line)).toMatchObject({ type: 'MODIFIED', object: { metadata: { name: 'rep-mysql-nightly', uid: onFirst.uid } } });
        // nothing before it: the watch resumed exactly where the first replica's read left off
        expect(watch.lines.filter(l => l.trim()).length).toBe(1);
      } finally {
        watch.stop();
        await system.routeTo(system.apiserver);
      }
    },
    SLOW,
  );
});
