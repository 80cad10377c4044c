import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Knex } from 'knex';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { adapters } from '@internal/databases-apiserver';
import { bindClusterRole, startSystem, type System } from '@internal/e2e';
import type { InstanceEvent } from '@internal/plugin-databases-common';
import { databasesPlugin } from './plugin';
import { ORDERS_COMPONENT, SEARCH_COMPONENT } from './__testUtils__/catalogEntities';
import { emulatorCluster } from './__testUtils__/emulatorCluster';
import { eventually } from './__testUtils__/eventually';
import { openEvents } from './__testUtils__/openEvents';
import { sqliteKnex } from './__testUtils__/sqliteKnex';
import { teamIdentityMocks } from './__testUtils__/teamIdentityMocks';

jest.setTimeout(60_000);

const alice = mockCredentials.user.header('user:default/alice');
const bob = mockCredentials.user.header('user:default/bob');
const carol = mockCredentials.user.header('user:default/carol');
const dave = mockCredentials.user.header('user:default/dave');

async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>(r => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise(r => srv.close(r));
  return port;
}

interface AuditRecord {
  eventId: string;
  severityLevel?: string;
  meta?: Record<string, unknown>;
  actor?: string;
  outcome?: 'success' | 'failure';
  error?: string;
}
/** What the plugin handed to the auditor service, in order. */
const audited: AuditRecord[] = [];

describe('databases backend against the emulator and the aggregated apiserver', () => {
  let system: System;
  let dir: string;
  let downPort: number;
  const opened: Array<{ stop(): Promise<void> }> = [];

  function config(extra: Record<string, unknown> = {}) {
    return {
      databases: {
        clusters: [
          { ...emulatorCluster(system), title: 'Embedded emulator' },
          { name: 'down', url: `https://127.0.0.1:${downPort}`, authProvider: 'none', skipTLSVerify: true },
        ],
        requestTimeoutMs: 5000,
        ...extra,
      },
    };
  }

  async function backend(knex: Knex) {
    const b = await startTestBackend({
      features: [
        databasesPlugin,
        mockServices.rootConfig.factory({ data: config() }),
        mockServices.database.factory({ knex }),
        ...teamIdentityMocks(),
        catalogServiceMock.factory({ entities: [ORDERS_COMPONENT, SEARCH_COMPONENT] }),
        mockServices.auditor.mock({
          createEvent: (async (options: any) => {
            const event: AuditRecord = { eventId: options.eventId, severityLevel: options.severityLevel, meta: options.meta, actor: options.request?.headers?.authorization };
            return {
              success: async () => void audited.push({ ...event, outcome: 'success' }),
              fail: async ({ error }: { error: Error }) => void audited.push({ ...event, outcome: 'failure', error: error.message }),
            };
          }) as any,
        }).factory,
      ],
    });
    opened.push(b);
    return b;
  }

  let server: http.Server;
  let knex: Knex;

  beforeAll(async () => {
    downPort = await closedPort();
    system = await startSystem({ seed: true });
    system.emulator.operators.settle();
    // alice's team edits team-a (the chart's dbaas-view + dbaas-edit, without credentials): the
    // connection reads below are the chart's dbaas-connection-reader, bound to her as an admin would
    bindClusterRole(system.emulator, { name: 'alice-connection-reader', namespace: 'team-a', clusterRole: 'dbaas-connection-reader', user: 'user:default/alice' });
    dir = mkdtempSync(path.join(os.tmpdir(), 'databases-backend-'));
    knex = sqliteKnex(path.join(dir, 'history.sqlite'));
    server = (await backend(knex)).server;
  });

  afterAll(async () => {
    for (const b of opened) await b.stop().catch(() => undefined);
    await knex?.destroy();
    await system?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('GET /clusters lists both clusters and marks the closed one unhealthy', async () => {
    const res = await request(server).get('/api/databases/clusters').set('Authorization', alice);
    expect(res.status).toBe(200);
    expect(res.body.items.map((c: any) => c.name)).toEqual(['local', 'down']);
    const deadline = Date.now() + 10_000;
    let health: any[] = res.body.items;
    while (Date.now() < deadline && !(health[0].healthy && health[1].message)) {
      await new Promise(r => setTimeout(r, 100));
      health = (await request(server).get('/api/databases/clusters').set('Authorization', alice)).body.items;
    }
    expect(health).toEqual([
      expect.objectContaining({ name: 'local', title: 'Embedded emulator', healthy: true }),
      expect.objectContaining({ name: 'down', healthy: false, message: expect.stringMatching(/unreachable/) }),
    ]);
  });

  it('requires a signed-in user', async () => {
    const res = await request(server)
      .get('/api/databases/instances')
      .set('Authorization', mockCredentials.user.invalidHeader());
    expect(res.status).toBe(401);
  });

  it('GET /instances: carol (view everywhere) sees every team; the down cluster is an errors[] entry', async () => {
    const res = await request(server).get('/api/databases/instances').set('Authorization', carol);
    expect(res.status).toBe(200);
    const namespaces = new Set(res.body.items.map((i: any) => i.instance.metadata.namespace));
    expect([...namespaces].sort()).toEqual(['team-a', 'team-b', 'team-c']);
    expect(res.body.items.every((i: any) => i.cluster === 'local')).toBe(true);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ cluster: 'down', errorType: 'UNREACHABLE' }),
    ]);
    expect(res.body.totalItems).toBe(res.body.items.length);
    const phaseTotal = Object.values(res.body.counts.byPhase as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(phaseTotal).toBe(res.body.totalItems);
  });

  it('impersonation: alice sees only team-a, dave (no RBAC) sees nothing', async () => {
    const a = await request(server).get('/api/databases/instances?cluster=local').set('Authorization', alice);
    expect(a.status).toBe(200);
    expect(a.body.items.length).toBeGreaterThan(0);
    expect(new Set(a.body.items.map((i: any) => i.instance.metadata.namespace))).toEqual(new Set(['team-a']));
    const d = await request(server).get('/api/databases/instances?cluster=local').set('Authorization', dave);
    expect(d.status).toBe(200);
    expect(d.body.items).toEqual([]);
    const b = await request(server)
      .get('/api/databases/instances?cluster=local&namespace=team-b')
      .set('Authorization', alice);
    expect(b.body.items).toEqual([]);
    expect(b.body.errors[0]).toMatchObject({ cluster: 'local', errorType: 'FORBIDDEN', statusCode: 403 });
  });

  it.each([
    ['engine=mariadb', (i: any) => i.instance.spec.engine === 'mariadb'],
    ['phase=Ready', (i: any) => i.instance.status?.phase === 'Ready'],
    ['owner=group:default/team-b', (i: any) => i.instance.metadata.annotations['dbaas.platform.dev/owner'] === 'group:default/team-b'],
    ['entity=component:default/orders', (i: any) => i.instance.metadata.labels['backstage.io/kubernetes-id'] === 'orders'],
    ['q=checkout', (i: any) => i.instance.metadata.name.includes('checkout')],
  ])('GET /instances?%s filters', async (q, pred) => {
    const res = await request(server).get(`/api/databases/instances?${q}`).set('Authorization', carol);
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeGreaterThan(0);
    expect(res.body.items.every(pred)).toBe(true);
  });

  it('GET /instances pages with a cursor and sorts', async () => {
    const all = await request(server).get('/api/databases/instances?sort=-name').set('Authorization', carol);
    const names = all.body.items.map((i: any) => i.instance.metadata.name);
    expect(names).toEqual([...names].sort().reverse());
    const p1 = await request(server).get('/api/databases/instances?limit=2&sort=-name').set('Authorization', carol);
    expect(p1.body.items).toHaveLength(2);
    const p2 = await request(server)
      .get(`/api/databases/instances?limit=2&sort=-name&cursor=${p1.body.nextCursor}`)
      .set('Authorization', carol);
    expect(p2.body.items.map((i: any) => i.instance.metadata.name)).toEqual(names.slice(2, 4));
  });

  it.each([
    ['limit=0'],
    ['limit=9999'],
    // Engines are the clusters' (DatabaseEngine), so only a malformed name is refused here.
    ['engine=Oracle_DB'],
    ['phase=Happy'],
    ['sort=color'],
    ['cursor=bogus'],
    ['unknown=1'],
    ['namespace=Not_A_Namespace'],
    ['owner=%3A%3A'],
  ])('GET /instances?%s is a 400 InputError', async q => {
    const res = await request(server).get(`/api/databases/instances?${q}`).set('Authorization', carol);
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('InputError');
  });

  it('GET /instances?engine=<an engine no cluster serves> is an empty list, not an error', async () => {
    const res = await request(server).get('/api/databases/instances?engine=oracle').set('Authorization', carol);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([]);
  });

  it('GET one instance with the caller\'s actions; 404 for unknown cluster or name; 403 across RBAC', async () => {
    const ok = await request(server)
      .get('/api/databases/clusters/local/namespaces/team-a/instances/orders-db')
      .set('Authorization', alice);
    expect(ok.status).toBe(200);
    expect(ok.body.instance.spec.engine).toBe('mariadb');
    // alice is dbaas-edit in team-a (and reads credentials here): the cluster deletes no backup for her
    expect(ok.body.actions).toEqual({ update: true, delete: true, readConnection: true, backUp: true, deleteBackups: false, createSchedule: false, updateSchedules: false, deleteSchedules: false });
    const viewer = await request(server)
      .get('/api/databases/clusters/local/namespaces/team-a/instances/orders-db')
      .set('Authorization', carol);
    expect(viewer.body.actions).toEqual({ update: false, delete: false, readConnection: false, backUp: false, deleteBackups: false, createSchedule: false, updateSchedules: false, deleteSchedules: false });
    const missing = await request(server)
      .get('/api/databases/clusters/local/namespaces/team-a/instances/nope')
      .set('Authorization', alice);
    expect(missing.status).toBe(404);
    const noCluster = await request(server)
      .get('/api/databases/clusters/mars/namespaces/team-a/instances/orders-db')
      .set('Authorization', alice);
    expect(noCluster.status).toBe(404);
    const forbidden = await request(server)
      .get('/api/databases/clusters/local/namespaces/team-b/instances/search')
      .set('Authorization', alice);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.name).toBe('NotAllowedError');
    const down = await request(server)
      .get('/api/databases/clusters/down/namespaces/team-a/instances/orders-db')
      .set('Authorization', alice);
    expect(down.status).toBe(503);
  });

  // dave has no role of his own: every signed-in user reads the engines through the chart's
  // dbaas-engine-reader (bound to system:authenticated)
  it('GET /clusters/:cluster/engines lists every engine the apiserver serves to any signed-in user; the down cluster is a 503', async () => {
    const res = await request(server).get('/api/databases/clusters/local/engines').set('Authorization', dave);
    expect(res.status).toBe(200);
    // The backend names no engine: it passes on what the apiserver's adapters serve.
    expect(res.body.items.map((e: any) => e.spec.engine).sort()).toEqual(
      adapters.map(a => a.engine).sort(),
    );
    // The request form is built from these: what the apiserver states (sizes, replica rules, age) passes untouched.
    const served = system.apiserver.store.engines().find(e => e.spec.engine === 'mariadb')!;
    const relayed = res.body.items.find((e: any) => e.spec.engine === 'mariadb');
    expect(relayed.spec).toEqual(served.spec);
    expect(relayed.spec.sizes.length).toBeGreaterThan(0);
    expect(relayed.spec.replicas.galera).toMatchObject({ min: 3, odd: true });
    expect(relayed.metadata.creationTimestamp).toBe(served.metadata.creationTimestamp);
    const down = await request(server).get('/api/databases/clusters/down/engines').set('Authorization', dave);
    expect(down.status).toBe(503);
  });

  it('GET /entity-instances and /entities/:kind/:ns/:name/instances return the component\'s instances', async () => {
    const res = await request(server)
      .get('/api/databases/entity-instances?entityRef=component:default/orders')
      .set('Authorization', carol);
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeGreaterThan(0);
    expect(res.body.items.every((i: any) => i.instance.metadata.labels['backstage.io/kubernetes-id'] === 'orders')).toBe(true);
    const byPath = await request(server)
      .get('/api/databases/entities/component/default/orders/instances')
      .set('Authorization', carol);
    // the same instances by either route: the demo's (another case's instance of this component
    // may come or go between the two calls)
    const demo = (items: any[]) => items.filter(i => i.instance.metadata.labels['dbaas.platform.dev/requested-by'] === undefined);
    expect(demo(byPath.body.items)).toEqual(demo(res.body.items));
    expect(demo(res.body.items).length).toBeGreaterThan(0);
    const unknown = await request(server)
      .get('/api/databases/entity-instances?entityRef=component:default/ghost')
      .set('Authorization', carol);
    expect(unknown.status).toBe(404);
    const bad = await request(server).get('/api/databases/entity-instances').set('Authorization', carol);
    expect(bad.status).toBe(400);
  });

  it.each([
    ['no name', { owner: 'group:default/team-a', spec: { engine: 'redis' } }],
    ['bad engine', { name: 'x', owner: 'group:default/team-a', spec: { engine: 'oracle' } }],
    ['bad quantity', { name: 'x', owner: 'group:default/team-a', spec: { engine: 'redis', storage: { size: 'lots' } } }],
    ['extra field', { name: 'x', owner: 'group:default/team-a', spec: { engine: 'redis' }, color: 'red' }],
    ['bad owner', { name: 'x', owner: '::', spec: { engine: 'redis' } }],
  ])('POST create with %s is a 400', async (_, body) => {
    const res = await request(server)
      .post('/api/databases/clusters/local/namespaces/team-a/instances')
      .set('Authorization', alice)
      .send(body);
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('InputError');
  });

  it('POST create is denied by the permission policy when the owner is another team', async () => {
    const res = await request(server)
      .post('/api/databases/clusters/local/namespaces/team-a/instances')
      .set('Authorization', alice)
      .send({ name: 'sneaky', owner: 'group:default/team-b', spec: { engine: 'redis' } });
    expect(res.status).toBe(403);
    const history = await request(server)
      .get('/api/databases/clusters/local/namespaces/team-a/instances/sneaky/history')
      .set('Authorization', alice);
    expect(history.body.requests).toEqual([
      expect.objectContaining({ action: 'create', actor: 'user:default/alice', outcome: expect.objectContaining({ status: 403 }) }),
    ]);
  });

  it('PATCH and DELETE are 400 on bad bodies and 403 for a viewer', async () => {
    const base = '/api/databases/clusters/local/namespaces/team-a/instances/orders-db';
    const empty = await request(server).patch(base).set('Authorization', alice).send({});
    expect(empty.status).toBe(400);
    const neg = await request(server).patch(base).set('Authorization', alice).send({ replicas: -1 });
    expect(neg.status).toBe(400);
    const viewerPatch = await request(server).patch(base).set('Authorization', carol).send({ replicas: 5 });
    expect(viewerPatch.status).toBe(403);
    const viewerDelete = await request(server).delete(base).set('Authorization', carol);
    expect(viewerDelete.status).toBe(403);
    const viewerConn = await request(server).get(`${base}/connection`).set('Authorization', carol);
    expect(viewerConn.status).toBe(403);
    const otherTeam = await request(server).patch(base).set('Authorization', bob).send({ replicas: 5 });
    expect(otherTeam.status).toBe(403);
  });

  it("lists an instance's Kubernetes events, newest last, as kubectl describe would, and only to those who may read it", async () => {
    const base = '/api/databases/clusters/local/namespaces/team-a/instances/payments-ledger/events';
    let items: any[] = [];
    // the apiserver mirrors the emulated kubelet's events from its watch: wait for them
    await eventually(
      async () => {
        items = (await request(server).get(base).set('Authorization', alice)).body.items ?? [];
        return items.some(e => e.reason === 'BackOff');
      },
      20_000,
      () => `a BackOff among the events of payments-ledger; last seen: ${JSON.stringify(items.map(e => e.reason))}`,
    );
    expect(items).toContainEqual(
      expect.objectContaining({
        type: 'Warning',
        reason: 'BackOff',
        from: 'kubelet',
        about: 'Pod payments-ledger-2',
        message: expect.stringMatching(/^Back-off restarting failed container mariadb/),
        count: 1,
      }),
    );
    const times = items.map(e => e.lastTimestamp);
    expect(times).toEqual([...times].sort());
    expect((await request(server).get(base).set('Authorization', bob)).status).toBe(403);
  });

  it("streams an instance's events live as the user: the list, then an event kubelet writes now; refused before any stream to whoever may not read them", async () => {
    const port = (server.address() as net.AddressInfo).port;
    const live = '/api/databases/clusters/local/namespaces/team-a/instances/orders-db/events';
    const refused = openEvents(port, 'bob', live);
    await refused.ready;
    expect(refused.status).toBe(403);
    refused.close();
    const stream = openEvents(port, 'alice', live);
    try {
      await stream.ready;
      expect(stream.status).toBe(200);
      await eventually(() => stream.events.some(e => e.event === 'events'), 20_000, 'the first list on the stream');
      const message = `Readiness probe failed: live-${Date.now().toString(36)}`;
      const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
      system.emulator.store.create({ group: '', version: 'v1', plural: 'events' }, {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: `orders-db-0.live${Date.now().toString(16)}`, namespace: 'team-a' },
        involvedObject: { apiVersion: 'v1', kind: 'Pod', name: 'orders-db-0', namespace: 'team-a' },
        reason: 'Unhealthy',
        message,
        type: 'Warning',
        count: 1,
        firstTimestamp: now,
        lastTimestamp: now,
        source: { component: 'kubelet' },
      } as any);
      const arrived = () => stream.events.find(e => e.event === 'event' && e.data.item?.message === message);
      await eventually(() => arrived() !== undefined, 20_000, () => `the new event on the stream; got ${JSON.stringify(stream.events.map(e => e.event))}`);
      expect(arrived()!.data).toEqual({
        type: 'ADDED',
        item: expect.objectContaining({ name: expect.stringMatching(/^orders-db\./), type: 'Warning', reason: 'Unhealthy', from: 'kubelet', about: 'Pod orders-db-0' }),
      });
    } finally {
      stream.close();
    }
  });

  it('alice pauses and resumes orders-db through the apiserver; a Redis, whose operator cannot pause, is refused naming spec.paused', async () => {
    const base = '/api/databases/clusters/local/namespaces/team-a/instances';
    const preview = await request(server).patch(`${base}/orders-db`).set('Authorization', alice).send({ paused: true, dryRun: true });
    expect(preview.status).toBe(200);
    expect(preview.body.instance.status.phase).toBe('Paused');
    const paused = await request(server).patch(`${base}/orders-db`).set('Authorization', alice).send({ paused: true });
    expect(paused.status).toBe(200);
    expect(paused.body.instance.spec.paused).toBe(true);
    expect(paused.body.instance.status.phase).toBe('Paused');
    const resumed = await request(server).patch(`${base}/orders-db`).set('Authorization', alice).send({ paused: false });
    expect(resumed.status).toBe(200);
    expect(resumed.body.instance.spec.paused).toBeUndefined();
    expect(resumed.body.instance.status.phase).not.toBe('Paused');

    const created = await request(server)
      .post(base)
      .set('Authorization', alice)
      .send({ name: 'orders-pause-cache', owner: 'group:default/team-a', spec: { engine: 'redis', topology: 'standalone', storage: { size: '1Gi' } } });
    expect(created.status).toBe(201);
    const refused = await request(server).patch(`${base}/orders-pause-cache`).set('Authorization', alice).send({ paused: true });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(JSON.stringify(refused.body)).toContain('spec.paused');
    expect((await request(server).delete(`${base}/orders-pause-cache`).set('Authorization', alice)).status).toBe(202);
  });

  /**
   * alice's whole lifecycle of a Redis `name` for orders: a dry run, a create, the same create
   * again, a connection read, a stale and a real resize, a delete. Each test that needs it runs
   * its own, so that every test passes alone and in any order.
   */
  async function aliceLifecycle(name: string) {
    const base = '/api/databases/clusters/local/namespaces/team-a/instances';
    const body = {
      name,
      owner: 'group:default/team-a',
      entityRef: 'component:default/orders',
      spec: { engine: 'redis', topology: 'standalone', storage: { size: '1Gi' } },
    };
    const dry = await request(server).post(base).set('Authorization', alice).send({ ...body, dryRun: true });
    const notThere = await request(server).get(`${base}/${name}`).set('Authorization', alice);
    const created = await request(server).post(base).set('Authorization', alice).send(body);
    const again = await request(server).post(base).set('Authorization', alice).send(body);
    const conn = await request(server).get(`${base}/${name}/connection`).set('Authorization', alice);
    const stale = await request(server).patch(`${base}/${name}`).set('Authorization', alice).send({ storage: { size: '2Gi' }, resourceVersion: '1' });
    const resized = await request(server).patch(`${base}/${name}`).set('Authorization', alice).send({ storage: { size: '2Gi' } });
    const deleted = await request(server).delete(`${base}/${name}`).set('Authorization', alice);
    const history = await request(server).get(`${base}/${name}/history`).set('Authorization', alice);
    return { dry, notThere, created, again, conn, stale, resized, deleted, history };
  }

  it('alice creates (dry run, then for real), scales, reads the connection and deletes a Redis for orders', async () => {
    const r = await aliceLifecycle('orders-sessions');
    expect(r.dry.status).toBe(200);
    expect(r.dry.body.instance.metadata.labels['backstage.io/kubernetes-id']).toBe('orders');
    expect(r.notThere.status).toBe(404);
    expect(r.created.status).toBe(201);
    expect(r.created.body.instance.metadata.annotations['dbaas.platform.dev/owner']).toBe('group:default/team-a');
    expect(r.again.status).toBe(409);
    expect(r.conn.status).toBe(200);
    expect(r.conn.body.kind).toBe('DatabaseInstanceConnection');
    expect(r.stale.status).toBe(409);
    expect(r.resized.status).toBe(200);
    expect(r.resized.body.instance.spec.storage.size).toBe('2Gi');
    expect(r.deleted.status).toBe(202);
    // the dry run was a preview: not a request in the history
    expect(r.history.body.requests.map((q: any) => [q.action, q.outcome.status])).toEqual([
      ['create', 201],
      ['create', 409],
      ['update', 409],
      ['update', 200],
      ['delete', 202],
    ]);
  });

  it('audits every create, update, delete and connection read, with outcome; never a dry run or a read', async () => {
    const r = await aliceLifecycle('audited-sessions');
    expect(r.deleted.status).toBe(202);
    const mine = audited.filter(e => e.meta?.name === 'audited-sessions');
    expect(mine.map(e => [e.eventId, e.severityLevel, e.outcome])).toEqual([
      ['instance-create', 'medium', 'success'],
      ['instance-create', 'medium', 'failure'],
      ['instance-connection-read', 'high', 'success'],
      ['instance-update', 'medium', 'failure'],
      ['instance-update', 'medium', 'success'],
      ['instance-delete', 'high', 'success'],
    ]);
    expect(mine.every(e => e.meta?.cluster === 'local' && e.meta?.namespace === 'team-a' && e.actor === alice)).toBe(true);
    expect(mine[1].error).toMatch(/already exists/);
    // the connection read is audited without the secret it returned
    expect(JSON.stringify(audited)).not.toMatch(/password/i);
    // a denied connection read is audited as a failure
    const before = audited.length;
    const denied = await request(server)
      .get('/api/databases/clusters/local/namespaces/team-a/instances/orders-db/connection')
      .set('Authorization', carol);
    expect(denied.status).toBe(403);
    expect(audited.slice(before)).toEqual([
      expect.objectContaining({ eventId: 'instance-connection-read', outcome: 'failure', meta: { cluster: 'local', namespace: 'team-a', name: 'orders-db' } }),
    ]);
  });

  it('GET diagnosis is the apiserver\'s, asked as the user: findings for her team, 404 for another team\'s', async () => {
    const base = '/api/databases/clusters/local/namespaces/team-a/instances';
    const res = await request(server).get(`${base}/payments-ledger/diagnosis`).set('Authorization', alice);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatchObject({ kind: 'DatabaseInstanceDiagnosis', phase: 'Degraded' });
    expect(res.body.findings.map((f: any) => f.reason)).toEqual(['GaleraRecoveryInProgress', 'CrashLoopBackOff']);
    const ready = await request(server).get(`${base}/orders-db/diagnosis`).set('Authorization', alice);
    expect(ready.body.findings).toEqual([]);
    // bob's team may not read team-a: Kubernetes says so, the backend does not leak it
    const other = await request(server).get(`${base}/payments-ledger/diagnosis`).set('Authorization', bob);
    expect([403, 404]).toContain(other.status);
    expect(JSON.stringify(other.body)).not.toContain('Galera');
    const missing = await request(server).get(`${base}/no-such-db/diagnosis`).set('Authorization', alice);
    expect(missing.status).toBe(404);
  });

  it('SSE: a phase change reaches alice within the test, team-b changes do not', async () => {
    const url = new URL('/api/databases/events', `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`);
    const received: Array<{ event: string; data: any }> = [];
    const req = http.get(url, { headers: { Authorization: alice } });
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      req.on('response', resolve);
      req.on('error', reject);
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/event-stream/);
    let buffer = '';
    const waiters: Array<() => void> = [];
    res.setEncoding('utf8');
    res.on('data', chunk => {
      buffer += chunk;
      let i = buffer.indexOf('\n\n');
      while (i >= 0) {
        const block = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data) received.push({ event, data: JSON.parse(data) });
        waiters.forEach(w => w());
        i = buffer.indexOf('\n\n');
      }
    });
    const waitFor = (pred: () => boolean, ms = 20_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out; got ${JSON.stringify(received.map(r => r.event))}`)), ms);
        const check = () => {
          if (pred()) {
            clearTimeout(timer);
            resolve();
          }
        };
        waiters.push(check);
        check();
      });
    try {
      await waitFor(() => received.some(r => r.event === 'cluster' && r.data.cluster === 'local'));
      system.emulator.operators.setHealth({ kind: 'Elasticsearch', namespace: 'team-b', name: 'search' }, 'failed', 'red');
      system.emulator.operators.setHealth({ kind: 'MariaDB', namespace: 'team-a', name: 'orders-db' }, 'degraded', 'one node down');
      const isOrders = (r: { event: string; data: InstanceEvent }) =>
        r.event === 'instance' && r.data.instance.metadata.name === 'orders-db' && r.data.transition?.to === 'Degraded';
      await waitFor(() => received.some(isOrders as any));
      expect(received.some(r => r.event === 'instance' && r.data.instance.metadata.namespace !== 'team-a')).toBe(false);
    } finally {
      req.destroy();
      system.emulator.operators.setHealth({ kind: 'MariaDB', namespace: 'team-a', name: 'orders-db' }, 'ready');
      system.emulator.operators.setHealth({ kind: 'Elasticsearch', namespace: 'team-b', name: 'search' }, 'ready');
    }
    // The same watch fed the history.
    const deadline = Date.now() + 10_000;
    let history: any;
    do {
      history = (await request(server)
        .get('/api/databases/clusters/local/namespaces/team-a/instances/orders-db/history')
        .set('Authorization', alice)).body;
      if (history.transitions?.some((t: any) => t.to === 'Degraded')) break;
      await new Promise(r => setTimeout(r, 200));
    } while (Date.now() < deadline);
    expect(history.transitions).toEqual(expect.arrayContaining([expect.objectContaining({ from: 'Ready', to: 'Degraded' })]));
    const forbidden = await request(server)
      .get('/api/databases/clusters/local/namespaces/team-a/instances/orders-db/history')
      .set('Authorization', bob);
    expect(forbidden.status).toBe(403);
  });

  it("offers the connection and the deletion of backups only when the cluster's RBAC would give them: bob (dbaas-edit in team-b: no credentials, backs up but deletes no backup) may not", async () => {
    const page = await request(server).get('/api/databases/clusters/local/namespaces/team-b/instances/search').set('Authorization', bob);
    expect(page.status).toBe(200);
    expect(page.body.actions).toEqual({ update: true, delete: true, readConnection: false, backUp: true, deleteBackups: false, createSchedule: false, updateSchedules: false, deleteSchedules: false });
    const conn = await request(server).get('/api/databases/clusters/local/namespaces/team-b/instances/search/connection').set('Authorization', bob);
    expect(conn.status).toBe(403);
  });

  it('history survives a backend restart (same database file)', async () => {
    // a request of its own to remember: a create the policy refuses (another team's owner)
    const refused = await request(server)
      .post('/api/databases/clusters/local/namespaces/team-a/instances')
      .set('Authorization', alice)
      .send({ name: 'sneaky-restart', owner: 'group:default/team-b', spec: { engine: 'redis' } });
    expect(refused.status).toBe(403);
    const before = await request(server)
      .get('/api/databases/clusters/local/namespaces/team-a/instances/sneaky-restart/history')
      .set('Authorization', alice);
    expect(before.body.requests.length).toBeGreaterThan(0);
    const first = opened.shift()!;
    await first.stop();
    await knex.destroy();
    knex = sqliteKnex(path.join(dir, 'history.sqlite'));
    server = (await backend(knex)).server;
    const after = await request(server)
      .get('/api/databases/clusters/local/namespaces/team-a/instances/sneaky-restart/history')
      .set('Authorization', alice);
    expect(after.status).toBe(200);
    expect(after.body.requests).toEqual(before.body.requests);
  });
});
