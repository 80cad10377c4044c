import https from 'node:https';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse, parseAllDocuments } from 'yaml';
import { DATABASE_PHASES } from '@internal/plugin-databases-common';
import { adapters } from '@internal/databases-apiserver';
import { kubectlBinaries, parseTable, runKubectl, spawnKubectl } from '../support/kubectl';
import { cacheReached } from '../support/cacheCaughtUp';
import { startSystem, type System } from '../support/startSystem';

// Every engine the apiserver serves: the demo seed has instances of each.
const ENGINES = adapters.map(a => a.engine);
const BOOKMARK_MS = 500;

describe.each(kubectlBinaries())('$name against the aggregated API (emulator + APIService)', ({ file, name }) => {
  let system: System;
  const kubectl = (...args: string[]) => runKubectl(file, system.kubeconfig, `${system.dir}/home-${name}`, args);

  beforeAll(async () => {
    // watch bookmarks carry the cluster's RV to the apiserver's informers, as in a real cluster
    system = await startSystem({ seed: true, bookmarkIntervalMs: BOOKMARK_MS });
    // The demo's phases are reached after a few operator rounds; the tests read them once the
    // apiserver's cache has them (a table right after settle() showed orders-db at 2/3 in CI).
    system.emulator.operators.settle();
    await cacheReached(system, system.emulator.store.currentRV(), 20 * BOOKMARK_MS);
  }, 120_000);

  afterAll(async () => {
    await system?.stop();
  });

  it('get databaseinstances -A lists every engine in one table with one lifecycle', async () => {
    const r = await kubectl('get', 'databaseinstances', '-A');
    expect(r.stderr).toBe('');
    const header = r.stdout.split('\n')[0].trim().split(/\s+/);
    expect(header).toEqual(['NAMESPACE', 'NAME', 'ENGINE', 'VERSION', 'PHASE', 'READY', 'AGE']);
    const rows = parseTable(r.stdout);
    expect(new Set(rows.map(row => row.ENGINE))).toEqual(new Set(ENGINES));
    for (const row of rows) expect(DATABASE_PHASES).toContain(row.PHASE);
    const phases = new Set(rows.map(row => row.PHASE));
    for (const p of ['Ready', 'Degraded', 'Failed', 'Pending']) expect(phases).toContain(p);
    expect(new Set(rows.map(row => row.NAMESPACE))).toEqual(new Set(['team-a', 'team-b', 'team-c']));
    const ordersDb = rows.find(row => row.NAME === 'orders-db')!;
    expect(ordersDb).toMatchObject({ NAMESPACE: 'team-a', ENGINE: 'mariadb', PHASE: 'Ready', READY: '3/3' });
    expect(ordersDb.AGE).toMatch(/^\d+(s|m\d*s?)$/);
  });

  it('lists above 128 KiB gzip-compressed through the aggregation layer, and kubectl reads it the same as uncompressed', async () => {
    // enough instances for a list above kube-apiserver's compression threshold
    const REDIS = { group: 'redis.redis.opstreelabs.in', version: 'v1beta2', plural: 'redis' };
    await kubectl('create', 'namespace', 'bulk'); // the second kubectl finds it there: no check
    // the operators rest meanwhile: 250 Redis reconciled (each a StatefulSet, pods, Services and
    // Secrets) took seconds and change nothing of what this case reads, the list's size
    system.emulator.operators.pause();
    for (let i = 0; i < 250; i++) {
      if (system.emulator.store.get(REDIS, 'bulk', `bulk-${i}`)) continue;
      system.emulator.store.create(REDIS, {
        apiVersion: 'redis.redis.opstreelabs.in/v1beta2',
        kind: 'Redis',
        metadata: { name: `bulk-${i}`, namespace: 'bulk' },
        spec: { kubernetesConfig: { image: 'quay.io/opstree/redis:v7.0.15' } },
      });
    }
    await cacheReached(system, system.emulator.store.currentRV(), 20 * BOOKMARK_MS);

    // the aggregation layer passes the client's Accept-Encoding and the compressed answer through
    const raw = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      const url = new URL(`${system.emulator.url}/apis/dbaas.platform.dev/v1alpha1/databaseinstances`);
      https
        .get(url, { ca: system.emulator.certs.clusterCa.certPem, cert: system.emulator.certs.admin.certPem, key: system.emulator.certs.admin.keyPem, headers: { 'accept-encoding': 'gzip' } }, res => {
          const chunks: Buffer[] = [];
          res.on('data', c => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });
    expect(raw.headers['content-encoding']).toBe('gzip');
    const viaGzip = JSON.parse(gunzipSync(raw.body).toString());
    expect(viaGzip.items.length).toBeGreaterThanOrEqual(250);

    // kubectl (client-go asks for gzip unless --disable-compression) decodes the multi-member gzip
    const names = (stdout: string) => (JSON.parse(stdout).items as any[]).map(i => `${i.metadata.namespace}/${i.metadata.name}`).sort();
    const compressed = await kubectl('get', 'dbi', '-A', '-o', 'json');
    const plain = await kubectl('get', 'dbi', '-A', '-o', 'json', '--disable-compression');
    expect(compressed.stderr).toBe('');
    expect(plain.stderr).toBe('');
    expect(names(compressed.stdout)).toEqual(names(plain.stdout));
    expect(names(compressed.stdout)).toEqual(expect.arrayContaining(['bulk/bulk-0', 'bulk/bulk-249', 'team-a/orders-db']));
    const table = await kubectl('get', 'dbi', '-n', 'bulk', '--no-headers');
    expect(table.stdout.trim().split('\n')).toHaveLength(250);
    // gone again: the other cases read the demo's namespaces only
    expect((await kubectl('delete', 'namespace', 'bulk', '--timeout=60s')).code).toBe(0);
    system.emulator.operators.resume();
    await cacheReached(system, system.emulator.store.currentRV(), 20 * BOOKMARK_MS);
  });

  it('get dbi -n team-a -o wide adds TOPOLOGY PRIMARY OPERATOR ENDPOINT REASON', async () => {
    const r = await kubectl('get', 'dbi', '-n', 'team-a', '-o', 'wide');
    expect(r.code).toBe(0);
    const header = r.stdout.split('\n')[0].trim().split(/\s+/);
    expect(header).toEqual(['NAME', 'ENGINE', 'VERSION', 'PHASE', 'READY', 'AGE', 'TOPOLOGY', 'PRIMARY', 'OPERATOR', 'ENDPOINT', 'REASON']);
    const rows = parseTable(r.stdout);
    // the primaries as the operators name them: CloudNativePG's first instance, InnoDB Cluster's
    // PRIMARY-labelled pod; Galera's nodes are all equal
    expect(rows.find(row => row.NAME === 'payments-pg')?.PRIMARY).toBe('payments-pg-1');
    expect(rows.find(row => row.NAME === 'payments-db')?.PRIMARY).toBe('payments-db-0');
    expect(rows.find(row => row.NAME === 'orders-db')?.PRIMARY).toBe('');
    const degraded = rows.find(row => row.NAME === 'payments-ledger')!;
    expect(degraded).toMatchObject({ ENGINE: 'mariadb', PHASE: 'Degraded', TOPOLOGY: 'galera', OPERATOR: 'mariadb-operator' });
    expect(degraded.REASON).not.toBe('');
    expect(degraded.ENDPOINT).toMatch(/^payments-ledger[-a-z]*\.team-a\.svc:3306$/);
    expect(rows.every(row => row.NAME && !['team-b', 'team-c'].includes(row.NAME))).toBe(true);
  });

  it('get dbi -o yaml shows the members: role, readiness and DNS name through the headless Service', async () => {
    const r = await kubectl('get', 'dbi', '-n', 'team-a', 'payments-db', '-o', 'yaml');
    expect(r.code).toBe(0);
    const members = parse(r.stdout).status.members;
    expect(members).toEqual(
      [0, 1, 2].map(i => ({
        name: `payments-db-${i}`,
        role: i === 0 ? 'primary' : 'replica',
        engineRole: i === 0 ? 'PRIMARY' : 'SECONDARY',
        ready: true,
        host: `payments-db-${i}.payments-db-instances.team-a.svc`,
      })),
    );
  });

  it('get dbi -o yaml returns DatabaseInstance objects with source and raw operator status', async () => {
    const r = await kubectl('get', 'dbi', '-n', 'team-a', 'orders-db', '-o', 'yaml');
    expect(r.code).toBe(0);
    const obj = parse(r.stdout);
    expect(obj).toMatchObject({
      apiVersion: 'dbaas.platform.dev/v1alpha1',
      kind: 'DatabaseInstance',
      metadata: { name: 'orders-db', namespace: 'team-a' },
      spec: { engine: 'mariadb', topology: 'galera' },
      status: { phase: 'Ready', source: { kind: 'MariaDB', apiVersion: 'k8s.mariadb.com/v1alpha1', name: 'orders-db' } },
    });
    expect(typeof obj.metadata.resourceVersion).toBe('string');
    expect(obj.status.operatorStatus.conditions.length).toBeGreaterThan(0);
    const source = system.emulator.store.get({ group: 'k8s.mariadb.com', version: 'v1alpha1', plural: 'mariadbs' }, 'team-a', 'orders-db')!;
    expect(obj.metadata.uid).toBe(source.metadata.uid);
  });

  it('get dbi -w sees a phase change made by an emulated operator', async () => {
    const watch = spawnKubectl(file, system.kubeconfig, `${system.dir}/home-${name}`, ['get', 'dbi', '-n', 'team-a', '-w']);
    try {
      await watch.waitForLine(l => /^orders-db\s.*\sReady\s/.test(l));
      system.emulator.operators.setHealth(
        { group: 'k8s.mariadb.com', kind: 'MariaDB', namespace: 'team-a', name: 'orders-db' },
        'degraded',
      );
      const line = await watch.waitForLine(l => /^orders-db\s.*\sDegraded\s/.test(l));
      expect(line).toMatch(/mariadb/);
      // Ready again before the next case reads the demo
      const degradedAt = watch.lines.indexOf(line);
      system.emulator.operators.setHealth(
        { group: 'k8s.mariadb.com', kind: 'MariaDB', namespace: 'team-a', name: 'orders-db' },
        'ready',
      );
      await watch.waitForLine(l => /^orders-db\s.*\sReady\s+3\/3\s/.test(l) && watch.lines.lastIndexOf(l) > degradedAt);
    } finally {
      watch.stop();
      system.emulator.operators.setHealth(
        { group: 'k8s.mariadb.com', kind: 'MariaDB', namespace: 'team-a', name: 'orders-db' },
        'ready',
      );
    }
  });

  it('explain databaseinstance.status.phase documents the lifecycle', async () => {
    const r = await kubectl('explain', 'databaseinstance.status.phase');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/KIND:\s+DatabaseInstance/);
    expect(r.stdout).toMatch(/phase\s+<string>/);
    for (const p of DATABASE_PHASES) expect(r.stdout).toContain(p);
    const spec = await kubectl('explain', 'databaseinstance.spec');
    expect(spec.stdout).toMatch(/engine\s+<string>/);
  });

  it('api-resources --api-group=dbaas.platform.dev lists both resources', async () => {
    const r = await kubectl('api-resources', '--api-group=dbaas.platform.dev');
    expect(r.code).toBe(0);
    const rows = parseTable(r.stdout);
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ NAME: 'databaseinstances', SHORTNAMES: 'dbi', NAMESPACED: 'true', KIND: 'DatabaseInstance' }),
        expect.objectContaining({ NAME: 'databaseengines', NAMESPACED: 'false', KIND: 'DatabaseEngine' }),
      ]),
    );
  });

  it('get databaseengines shows every operator as installed', async () => {
    const r = await kubectl('get', 'databaseengines');
    expect(r.code).toBe(0);
    const rows = parseTable(r.stdout);
    expect(rows.map(row => row.NAME).sort()).toEqual([...ENGINES].sort());
    expect(rows.every(row => row.INSTALLED === 'true')).toBe(true);
    const yaml = await kubectl('get', 'databaseengines', '-o', 'yaml');
    const docs = parseAllDocuments(yaml.stdout).map(d => d.toJS());
    const mariadb = docs[0].items.find((e: any) => e.metadata.name === 'mariadb');
    expect(mariadb.spec.capabilityLevel).toBe(4);
    expect(mariadb.status.instances).toBe(3);
  });
});
