import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { adapters } from '@internal/databases-apiserver';
import { kubectlBinaries, runKubectl, spawnKubectl, watchOneArgs } from '../support/kubectl';
import { startSystem, type System } from '../support/startSystem';

/** Per test: kubectl runs plus an operator bringing objects to Ready. */
const SLOW = 90_000;

const GROUP = 'dbaas.platform.dev';
const RAW = `/apis/${GROUP}/v1alpha1/namespaces`;

/**
 * Every engine × topology offered for new instances, with the operator kind it becomes, the
 * version it is created at (the second newest offered) and upgraded to (the newest), and the
 * smallest larger replica count the topology allows (none for standalone).
 */
const CASES = adapters.flatMap(a =>
  a.write!.topologies.map(topology => {
    const write = a.write!;
    const kind = write.kindFor(topology);
    const [to, from] = a.versions;
    const base = write.defaults(topology).replicas;
    const spec = { ...write.defaults(topology), engine: a.engine, topology, version: from };
    const scaleTo = [1, 2, 3, 4].map(d => base + d).find(n => write.validate({ ...spec, replicas: n }).length === 0);
    return { engine: a.engine, topology, resource: `${kind.plural}.${kind.group}`, name: `w-${a.engine}-${topology}`.slice(0, 30), from, to, scaleTo: topology === 'standalone' ? undefined : scaleTo };
  }),
);

const manifest = (name: string, spec: Record<string, unknown>, namespace = 'team-a') =>
  JSON.stringify({ apiVersion: `${GROUP}/v1alpha1`, kind: 'DatabaseInstance', metadata: { name, namespace, labels: { 'backstage.io/kubernetes-id': name } }, spec });

describe('self-service writes through kubectl (emulator + APIService + apiserver)', () => {
  const { file } = kubectlBinaries([])[0];
  let system: System;
  let alice = '';
  let carol = '';
  const run = (kubeconfig: string, args: string[], input?: string) => runKubectl(file, kubeconfig, `${system.dir}/home-writes`, args, input);
  const kubectl = (...args: string[]) => run(system.kubeconfig, args);
  const apply = (yaml: string, kubeconfig = system.kubeconfig, extra: string[] = []) => run(kubeconfig, ['apply', '-f', '-', ...extra], yaml);

  beforeAll(async () => {
    system = await startSystem({ seed: true });
    alice = await system.kubeconfigFor('alice-token');
    carol = await system.kubeconfigFor('carol-token');
  }, 120_000);
  afterAll(async () => {
    await system?.stop();
  });

  it.each(CASES)('$engine $topology: kubectl apply creates a $resource that its operator brings to Ready', async ({ engine, topology, resource, name, from }) => {
    const created = await apply(manifest(name, { engine, topology, version: from }), alice);
    expect(created.stderr).toBe('');
    expect(created.stdout.trim()).toBe(`databaseinstance.${GROUP}/${name} created`);
    // the operator's own object, accepted by the cluster's CRD (the emulator validates against the upstream schema)
    const object = JSON.parse((await kubectl('get', resource, name, '-n', 'team-a', '-o', 'json')).stdout);
    expect(object.metadata.labels).toMatchObject({ 'dbaas.platform.dev/requested-by': 'alice', 'backstage.io/kubernetes-id': name });
    const ready = await kubectl('wait', '-n', 'team-a', `databaseinstance/${name}`, '--for=jsonpath={.status.phase}=Ready', '--timeout=60s');
    expect(ready.stderr).toBe('');
    expect(ready.code).toBe(0);
  }, SLOW);

  it.each(CASES)('$engine $topology: scale to $scaleTo and upgrade $from → $to show Updating then Ready; delete removes the $resource', async ({ engine, topology, resource, name, from, to, scaleTo }) => {
    // its own instance: created here unless the create case (above) left it; applied again, a
    // manifest kubectl applied is unchanged (kubectl diffs against its last-applied copy)
    const applied = await apply(manifest(name, { engine, topology, version: from }), alice);
    expect(applied.stderr).toBe('');
    expect(applied.stdout.trim()).toMatch(new RegExp(`^databaseinstance.${GROUP}/${name} (created|unchanged)$`));
    const watch = spawnKubectl(file, system.kubeconfig, `${system.dir}/home-writes`, [...watchOneArgs('dbi', name, 'team-a'), '-o', 'jsonpath={.status.phase} {.spec.replicas} {.status.version}{"\\n"}']);
    /** The first line from `mark` on whose phase, replicas and running version satisfy `pred`. */
    const next = async (mark: number, pred: (phase: string, replicas: number, version: string) => boolean, timeoutMs: number) => {
      const line = await watch.waitForLine(l => watch.lines.indexOf(l, mark) >= mark && pred(...(l.split(' ') as [string, string, string]).map((x, i) => (i === 1 ? Number(x) : x ?? '')) as [string, number, string]), timeoutMs);
      return watch.lines.indexOf(line, mark);
    };
    try {
      await next(0, (phase, _r, version) => phase === 'Ready' && version.startsWith(from), 30_000);
      // standalone topologies have one replica: no scale step
      for (const target of scaleTo === undefined ? [] : [scaleTo]) {
        const scaleMark = watch.lines.length;
        const scaled = await kubectl('patch', 'dbi', name, '-n', 'team-a', '--type=merge', '-p', JSON.stringify({ spec: { replicas: target } }));
        expect(scaled.stderr).toBe('');
        const scaling = await next(scaleMark, (phase, replicas) => phase === 'Updating' && replicas === target, 30_000);
        await next(scaling, (phase, replicas) => phase === 'Ready' && replicas === target, 60_000);
        // Truthful all the way: a scale is never shown as Degraded or Provisioning.
        expect(watch.lines.slice(scaleMark).filter(l => /^(Degraded|Provisioning|Failed)/.test(l))).toEqual([]);
      }
      const mark = watch.lines.length;
      const upgraded = await kubectl('patch', 'dbi', name, '-n', 'team-a', '--type=merge', '-p', JSON.stringify({ spec: { version: to } }));
      expect(upgraded.stderr).toBe('');
      const updating = await next(mark, phase => phase === 'Updating', 30_000);
      await next(updating, (phase, _r, version) => phase === 'Ready' && version.startsWith(to), 60_000);
      expect(watch.lines.slice(mark).filter(l => /^(Degraded|Provisioning|Failed)/.test(l))).toEqual([]);
    } finally {
      watch.stop();
    }
    const deleted = await kubectl('delete', 'dbi', name, '-n', 'team-a', '--timeout=60s');
    expect(deleted.stdout).toMatch(new RegExp(`databaseinstance.${GROUP} "${name}" deleted`));
    expect((await kubectl('get', resource, name, '-n', 'team-a')).stderr).toMatch(/NotFound/);
    expect((await kubectl('get', 'dbi', name, '-n', 'team-a')).stderr).toMatch(/NotFound/);
  }, SLOW);

  it('scales and upgrades through Updating back to Ready', async () => {
    const name = 'w-scale';
    expect((await apply(manifest(name, { engine: 'mariadb', topology: 'replication', version: '11.4' }))).code).toBe(0);
    expect((await kubectl('wait', '-n', 'team-a', `dbi/${name}`, '--for=jsonpath={.status.phase}=Ready', '--timeout=60s')).code).toBe(0);
    const watch = spawnKubectl(file, system.kubeconfig, `${system.dir}/home-writes`, [...watchOneArgs('dbi', name, 'team-a'), '-o', 'jsonpath={.status.phase} {.spec.replicas} {.spec.version}{"\\n"}']);
    try {
      const patched = await kubectl('patch', 'dbi', name, '-n', 'team-a', '--type=merge', '-p', '{"spec":{"replicas":5,"version":"11.8"}}');
      expect(patched.stdout.trim()).toBe(`databaseinstance.${GROUP}/${name} patched`);
      await watch.waitForLine(l => l.startsWith('Updating 5 11.8'), 60_000);
      await watch.waitForLine(l => l.startsWith('Ready 5 11.8'), 60_000);
    } finally {
      watch.stop();
    }
  }, SLOW);

  /** A MariaDB at 11.8 with 5 replicas, Ready, for the cases that only read or are refused. */
  let settledOnce: Promise<string> | undefined;
  const settled = () =>
    (settledOnce ??= (async () => {
      const name = 'w-settled';
      expect((await apply(manifest(name, { engine: 'mariadb', topology: 'replication', version: '11.8', replicas: 5 }))).code).toBe(0);
      expect((await kubectl('wait', '-n', 'team-a', `dbi/${name}`, '--for=jsonpath={.status.phase}=Ready', '--timeout=60s')).code).toBe(0);
      return name;
    })());

  it('kubectl apply again is unchanged, and a label dropped from the manifest is removed (three-way merge)', async () => {
    const name = 'w-reapply';
    const withTier = JSON.parse(manifest(name, { engine: 'redis' }));
    withTier.metadata.labels.tier = 'cache';
    expect((await apply(JSON.stringify(withTier))).stdout.trim()).toBe(`databaseinstance.${GROUP}/${name} created`);
    const again = await apply(JSON.stringify(withTier));
    // before: "Warning: ... missing the kubectl.kubernetes.io/last-applied-configuration annotation"
    expect([again.stderr, again.stdout.trim()]).toEqual(['', `databaseinstance.${GROUP}/${name} unchanged`]);
    const served = JSON.parse((await kubectl('get', 'dbi', name, '-n', 'team-a', '-o', 'json')).stdout);
    expect(JSON.parse(served.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'])).toMatchObject({ metadata: { labels: { tier: 'cache' } } });
    // the operator object keeps it under our key, never as its own last-applied copy
    const operatorObject = JSON.parse((await kubectl('get', 'redis.redis.redis.opstreelabs.in', name, '-n', 'team-a', '-o', 'json')).stdout);
    expect(operatorObject.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).toBeUndefined();
    expect(operatorObject.metadata.annotations['dbaas.platform.dev/last-applied-configuration']).toBeDefined();
    const dropped = await apply(manifest(name, { engine: 'redis' }));
    expect([dropped.stderr, dropped.stdout.trim()]).toEqual(['', `databaseinstance.${GROUP}/${name} configured`]);
    const labels = JSON.parse((await kubectl('get', 'dbi', name, '-n', 'team-a', '-o', 'json')).stdout).metadata.labels;
    expect(labels.tier).toBeUndefined();
    expect((await kubectl('delete', 'dbi', name, '-n', 'team-a', '--timeout=60s')).code).toBe(0);
  }, SLOW);

  it('refuses a downgrade with a reason that says so', async () => {
    const r = await kubectl('patch', 'dbi', await settled(), '-n', 'team-a', '--type=merge', '-p', '{"spec":{"version":"10.11"}}');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/spec\.version: Forbidden: downgrade from 11\.8 to 10\.11/);
  }, SLOW);

  it('answers kubectl patch without --type (strategic merge) with the 415 that points at --type=merge', async () => {
    const r = await kubectl('patch', 'dbi', await settled(), '-n', 'team-a', '-p', '{"spec":{"replicas":3}}');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/UnsupportedMediaType|unknown format/);
  }, SLOW);

  it('create --dry-run=server validates everything and writes nothing', async () => {
    const r = await run(system.kubeconfig, ['create', '--dry-run=server', '-f', '-'], manifest('w-dry', { engine: 'redis' }));
    expect(r.stdout.trim()).toBe(`databaseinstance.${GROUP}/w-dry created (server dry run)`);
    const gone = await kubectl('get', 'dbi', 'w-dry', '-n', 'team-a');
    expect(gone.stderr).toMatch(/NotFound/);
  }, SLOW);

  it('kubectl diff shows a change before it is applied', async () => {
    const name = await settled();
    const r = await run(system.kubeconfig, ['diff', '-f', '-'], manifest(name, { engine: 'mariadb', topology: 'replication', version: '11.8', replicas: 7 }));
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/-\s+replicas: 5/);
    expect(r.stdout).toMatch(/\+\s+replicas: 7/);
    expect(JSON.parse((await kubectl('get', 'dbi', name, '-n', 'team-a', '-o', 'json')).stdout).spec.replicas).toBe(5);
  }, SLOW);

  // A resize that the operator's CRD would prune (a field its schema lacks) never happens on a
  // real cluster; the emulator runs the upstream CRDs, so the instance read back must carry it.
  it.each(CASES)('$engine $topology: a resize survives the operator CRD and reads back on the instance', async ({ engine, topology, name, from }) => {
    const rs = `${name.slice(0, 26)}-rs`;
    const created = await apply(manifest(rs, { engine, topology, version: from }), alice);
    expect(created.stderr).toBe('');
    const resources = { requests: { cpu: '750m', memory: '1536Mi' }, limits: { memory: '2Gi' } };
    const patched = await run(alice, ['patch', 'dbi', rs, '-n', 'team-a', '--type=merge', '-p', JSON.stringify({ spec: { resources } }), '-o', 'json']);
    expect(patched.stderr).toBe('');
    // a merge patch: what the instance had besides (RabbitMQ's default cpu limit) stays
    expect(JSON.parse(patched.stdout).spec.resources).toMatchObject(resources);
    expect(JSON.parse((await kubectl('get', 'dbi', rs, '-n', 'team-a', '-o', 'json')).stdout).spec.resources).toMatchObject(resources);
    expect((await run(alice, ['delete', 'dbi', rs, '-n', 'team-a', '--wait=false'])).stderr).toBe('');
  }, SLOW);

  it('delete is refused while deletion protection is on, then removes the operator object', async () => {
    const name = 'w-protected';
    expect((await apply(manifest(name, { engine: 'rabbitmq', deletionProtection: true }))).code).toBe(0);
    const refused = await kubectl('delete', 'dbi', name, '-n', 'team-a', '--wait=false');
    expect(refused.stderr).toMatch(/deletion protection is enabled/);
    expect((await kubectl('patch', 'dbi', name, '-n', 'team-a', '--type=merge', '-p', '{"spec":{"deletionProtection":false}}')).code).toBe(0);
    const deleted = await kubectl('delete', 'dbi', name, '-n', 'team-a', '--timeout=60s');
    expect(deleted.stdout).toMatch(new RegExp(`databaseinstance.${GROUP} "${name}" deleted`));
    expect((await kubectl('get', 'rabbitmqclusters.rabbitmq.com', name, '-n', 'team-a')).stderr).toMatch(/NotFound/);
  }, SLOW);

  describe('RBAC', () => {
    // Credentials are their own permission in the chart: dbaas-view (carol, cluster-wide) and
    // dbaas-edit (alice in team-a) leave them out; dbaas-connection-reader and admin grant them.
    const connection = (namespace: string, name: string) => `${RAW}/${namespace}/databaseinstances/${name}/connection`;

    it('reading credentials is its own grant: neither dbaas-view (carol) nor dbaas-edit (alice) includes it', async () => {
      expect((await run(carol, ['get', 'dbi', 'orders-db', '-n', 'team-a'])).code).toBe(0);
      const byViewer = await run(carol, ['get', '--raw', connection('team-a', 'orders-db')]);
      expect(byViewer.stderr).toMatch(/forbidden: User "carol" cannot get resource "databaseinstances\/connection"/);
      const byEditor = await run(alice, ['get', '--raw', connection('team-a', 'orders-db')]);
      expect(byEditor.stderr).toMatch(/forbidden: User "alice" cannot get resource "databaseinstances\/connection"/);
    }, SLOW);

    it('a RoleBinding to dbaas-connection-reader lets alice read credentials in that namespace', async () => {
      const bound = await kubectl('create', 'rolebinding', 'alice-connection', '--clusterrole=dbaas-connection-reader', '--user=alice', '-n', 'team-a');
      expect(bound.stderr).toBe('');
      try {
        const allowed = await run(alice, ['get', '--raw', connection('team-a', 'orders-db')]);
        expect(allowed.stderr).toBe('');
        expect(JSON.parse(allowed.stdout)).toMatchObject({ kind: 'DatabaseInstanceConnection', metadata: { name: 'orders-db' }, host: expect.any(String) });
      } finally {
        await kubectl('delete', 'rolebinding', 'alice-connection', '-n', 'team-a');
      }
    }, SLOW);

    it('the built-in admin includes the chart’s dbaas-admin (aggregation), so a namespace admin reads credentials', async () => {
      const bob = await system.kubeconfigFor('bob-token');
      expect((await run(bob, ['get', '--raw', connection('team-b', 'search')])).stderr).toMatch(/forbidden/);
      const bound = await kubectl('create', 'rolebinding', 'bob-admin', '--clusterrole=admin', '--user=bob', '-n', 'team-b');
      expect(bound.stderr).toBe('');
      try {
        const allowed = await run(bob, ['get', '--raw', connection('team-b', 'search')]);
        expect(allowed.stderr).toBe('');
        expect(JSON.parse(allowed.stdout)).toMatchObject({ kind: 'DatabaseInstanceConnection', metadata: { name: 'search' } });
      } finally {
        await kubectl('delete', 'rolebinding', 'bob-admin', '-n', 'team-b');
      }
    }, SLOW);

    it('a user of team-a cannot create in team-b', async () => {
      const r = await apply(manifest('w-intruder', { engine: 'redis' }, 'team-b'), alice);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/forbidden/i);
      expect((await kubectl('get', 'dbi', 'w-intruder', '-n', 'team-b')).stderr).toMatch(/NotFound/);
    }, SLOW);
  });
});
