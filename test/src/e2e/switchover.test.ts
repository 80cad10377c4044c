import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { kubectlBinaries, parseTable, runKubectl, spawnKubectl, watchOneArgs } from '../support/kubectl';
import { startSystem, type System } from '../support/startSystem';

const GROUP = 'dbaas.platform.dev';
/** kubectl runs plus an operator carrying out a switchover. */
const SLOW = 90_000;

/** Phase, reason and the primary member, one line per change of the watched instance. */
const WATCH_FORMAT = 'jsonpath={.status.phase} {.status.reason} {.spec.primary} {.status.members[?(@.role=="primary")].name}{"\\n"}';

describe('switchover through spec.primary (kubectl, emulator + APIService + apiserver)', () => {
  const { file } = kubectlBinaries([])[0];
  let system: System;
  let alice = '';
  const run = (kubeconfig: string, args: string[], input?: string) => runKubectl(file, kubeconfig, `${system.dir}/home-switchover`, args, input);
  const kubectl = (...args: string[]) => run(alice, args);
  const patchPrimary = (name: string, primary: string, namespace = 'team-a') =>
    run(system.kubeconfig, ['patch', 'dbi', name, '-n', namespace, '--type=merge', '-p', JSON.stringify({ spec: { primary } })]);

  beforeAll(async () => {
    system = await startSystem({ seed: true });
    alice = await system.kubeconfigFor('alice-token');
  }, 120_000);
  afterAll(async () => {
    await system?.stop();
  });

  /** The MariaDB replication these cases share, created once by whichever needs it first, and Ready. */
  let mariadbOnce: Promise<void> | undefined;
  const mariadbReplication = () =>
    (mariadbOnce ??= (async () => {
      const manifest = { apiVersion: `${GROUP}/v1alpha1`, kind: 'DatabaseInstance', metadata: { name: 'so-mariadb', namespace: 'team-a' }, spec: { engine: 'mariadb', topology: 'replication', replicas: 3 } };
      const created = await run(alice, ['apply', '-f', '-'], JSON.stringify(manifest));
      expect(created.stderr).toBe('');
    })());

  /**
   * Switches `name` over to the member `pick` chooses among the others (from the primary it has
   * when it is Ready) and follows it: Updating (Switchover), then Ready with it primary. Resolves
   * the old and the new primary.
   */
  const switchOver = async (name: string, pick: (others: string[]) => string) => {
    const watch = spawnKubectl(file, alice, `${system.dir}/home-switchover`, [...watchOneArgs('dbi', name, 'team-a'), '-o', WATCH_FORMAT]);
    let from = '';
    let to = '';
    try {
      const first = await watch.waitForLine(l => l.startsWith('Ready ') && l.split(' ').length === 4 && l.split(' ')[3] !== '', 60_000).catch(async e => {
        // what the served instance and its operator object say now, beside what the watch saw
        const now = await kubectl('get', 'dbi', name, '-n', 'team-a', '-o', 'jsonpath={.metadata.resourceVersion} {.status.phase} {.status.reason} {.status.message}');
        throw new Error(`${e.message}\nserved now (rv phase reason message): ${now.stdout}${now.stderr}`);
      });
      from = first.split(' ')[3];
      const members = (await kubectl('get', 'dbi', name, '-n', 'team-a', '-o', 'jsonpath={.status.members[*].name}')).stdout.trim().split(' ');
      to = pick(members.filter(m => m !== from));
      const mark = watch.lines.length;
      const patched = await patchPrimary(name, to);
      expect(patched.stderr).toBe('');
      expect(patched.stdout.trim()).toBe(`databaseinstance.${GROUP}/${name} patched`);
      const after = () => watch.lines.slice(mark);
      await watch.waitForLine(l => after().includes(l) && l.startsWith('Updating Switchover '), 30_000);
      const done = await watch.waitForLine(l => after().includes(l) && l.startsWith('Ready ') && l.endsWith(` ${to}`), 30_000);
      expect(done.split(' ')[2]).toBe(to);
      // truthful all the way: the old primary is not shown Ready again before the new one took over
      const lines = after();
      const between = lines.slice(lines.findIndex(l => l.startsWith('Updating Switchover ')), lines.indexOf(done));
      expect(between.filter(l => l.startsWith('Ready '))).toEqual([]);
      expect(after().filter(l => /^(Degraded|Failed|Provisioning) /.test(l))).toEqual([]);
    } finally {
      watch.stop();
    }
    // -o wide shows the new primary; the old one is a replica now
    const wide = parseTable((await kubectl('get', 'dbi', name, '-n', 'team-a', '-o', 'wide')).stdout);
    expect(wide[0].PRIMARY).toBe(to);
    const roles = (await kubectl('get', 'dbi', name, '-n', 'team-a', '-o', 'jsonpath={range .status.members[*]}{.name}={.role} {end}')).stdout.trim().split(' ');
    expect(roles).toContain(`${from}=replica`);
    expect(roles).toContain(`${to}=primary`);
    return { from, to };
  };

  it('MariaDB replication: the primary pod index moves, Updating (Switchover) until the operator reports the new primary, then Ready', async () => {
    await mariadbReplication();
    const { from, to } = await switchOver('so-mariadb', others => others.at(-1)!);
    // the operator's own field holds the choice
    const podIndex = await run(system.kubeconfig, ['get', 'mariadbs.k8s.mariadb.com', 'so-mariadb', '-n', 'team-a', '-o', 'jsonpath={.spec.replication.primary.podIndex} {.status.currentPrimary}']);
    expect(podIndex.stdout).toBe(`${to.split('-').at(-1)} ${to}`);
    // and back
    expect((await switchOver('so-mariadb', () => from)).to).toBe(from);
  }, SLOW);

  it('CloudNativePG: a promotion as kubectl cnpg promote writes it (status.targetPrimary), then Ready with the new primary', async () => {
    const { to } = await switchOver('payments-pg', others => others.at(-1)!);
    const cluster = await run(system.kubeconfig, ['get', 'clusters.postgresql.cnpg.io', 'payments-pg', '-n', 'team-a', '-o', 'jsonpath={.status.targetPrimary} {.status.currentPrimary} {.status.phase}']);
    expect(cluster.stdout).toBe(`${to} ${to} Cluster in healthy state`);
  }, SLOW);

  it.each([
    ['orders-db', 'team-a', 'orders-db-1', /spec\.primary: Forbidden: every member of a Galera cluster takes writes/],
    ['payments-db', 'team-a', 'payments-db-1', /spec\.primary: Forbidden: mysql-operator has no switchover/],
    ['checkout-cache', 'team-b', 'checkout-cache-leader-1', /spec\.primary: Forbidden: redis-operator has no switchover/],
    ['payments-pg', 'team-a', 'payments-pg-9', /spec\.primary: Unsupported value: "payments-pg-9": supported values: "payments-pg-1", "payments-pg-2", "payments-pg-3"/],
  ])('%s (%s): a switchover to %s is refused with 422 naming spec.primary, and changes nothing', async (name, namespace, to, message) => {
    const before = (await run(system.kubeconfig, ['get', 'dbi', name, '-n', namespace, '-o', 'jsonpath={.metadata.resourceVersion}'])).stdout;
    const refused = await patchPrimary(name, to, namespace);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/is invalid/);
    expect(refused.stderr).toMatch(message);
    expect(before).toMatch(/^\d+$/);
    const after = (await run(system.kubeconfig, ['get', 'dbi', name, '-n', namespace, '-o', 'jsonpath={.metadata.resourceVersion}'])).stdout;
    expect(after).toBe(before);
  }, SLOW);

  it('a member that is not ready is refused: only a ready member can take over', async () => {
    await mariadbReplication();
    // the operator holds one member down (its last)
    const ref = { kind: 'MariaDB', namespace: 'team-a', name: 'so-mariadb' };
    system.emulator.operators.setHealth(ref, 'degraded');
    try {
      const degraded = await kubectl('wait', 'dbi/so-mariadb', '-n', 'team-a', '--for=jsonpath={.status.phase}=Degraded', '--timeout=30s');
      expect(degraded.stderr).toBe('');
      const down = (await kubectl('get', 'dbi', 'so-mariadb', '-n', 'team-a', '-o', 'jsonpath={.status.members[?(@.ready==false)].name}')).stdout.trim().split(' ')[0];
      expect(down).toMatch(/^so-mariadb-\d$/);
      const refused = await patchPrimary('so-mariadb', down);
      expect(refused.stderr).toMatch(new RegExp(`spec\\.primary: Forbidden: member ${down} is not ready`));
    } finally {
      system.emulator.operators.setHealth(ref, 'ready');
    }
  }, SLOW);

  it.each([
    ['PostgreSQL', 'Cluster', 'payments-pg'],
    ['MariaDB replication', 'MariaDB', 'so-mariadb'],
  ])('%s: a primary lost in the emulator is Degraded (FailingOver) until the operator has failed over, then Ready with another primary', async (_what, kind, name) => {
    if (name === 'so-mariadb') await mariadbReplication();
    const watch = spawnKubectl(file, alice, `${system.dir}/home-switchover`, [...watchOneArgs('dbi', name, 'team-a'), '-o', WATCH_FORMAT]);
    try {
      const first = await watch.waitForLine(l => l.startsWith('Ready ') && l.split(' ').length === 4 && l.split(' ')[3] !== '', 60_000);
      const was = first.split(' ')[3];
      const mark = watch.lines.length;
      const after = () => watch.lines.slice(mark);
      system.emulator.operators.failPrimary({ kind, namespace: 'team-a', name });
      await watch.waitForLine(l => after().includes(l) && l.startsWith('Degraded FailingOver '), 30_000);
      const done = await watch.waitForLine(l => after().includes(l) && l.startsWith('Ready ') && l.split(' ').at(-1) !== was, 30_000);
      expect(done.split(' ').at(-1)).toMatch(new RegExp(`^${name}-\\d$`));
      // no Ready in between: the instance is not called healthy while it fails over
      const lines = after();
      expect(lines.slice(0, lines.indexOf(done)).filter(l => l.startsWith('Ready '))).toEqual([]);
    } finally {
      watch.stop();
    }
  }, SLOW);

  it('a new instance cannot name its primary: its operator picks the first one', async () => {
    const manifest = { apiVersion: `${GROUP}/v1alpha1`, kind: 'DatabaseInstance', metadata: { name: 'so-new', namespace: 'team-a' }, spec: { engine: 'postgresql', topology: 'replication', replicas: 2, primary: 'so-new-2' } };
    const refused = await run(alice, ['apply', '-f', '-'], JSON.stringify(manifest));
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/spec\.primary: Forbidden: a new instance has no members yet/);
    expect((await kubectl('get', 'dbi', 'so-new', '-n', 'team-a')).stderr).toMatch(/NotFound/);
  }, SLOW);
});
