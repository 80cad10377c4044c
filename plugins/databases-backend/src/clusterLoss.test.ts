import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Knex } from 'knex';
import { mockCredentials, mockServices, startTestBackend } from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { startSystem, type System } from '@internal/e2e';
import { databasesPlugin } from './plugin';
import { emulatorCluster } from './__testUtils__/emulatorCluster';
import { sqliteKnex } from './__testUtils__/sqliteKnex';

const carol = mockCredentials.user.header('user:default/carol');
const OWNERSHIP: Record<string, string[]> = { 'user:default/carol': ['user:default/carol', 'group:default/platform'] };
const MARIADB = { kind: 'MariaDB', namespace: 'team-a', name: 'orders-db' };

type Backend = Awaited<ReturnType<typeof startTestBackend>>;

async function eventually(cond: () => boolean | Promise<boolean>, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms: ${cond}`);
    await new Promise(r => setTimeout(r, 50));
  }
}

/** Reads a server-sent event stream into `events` until closed. */
function openEvents(port: number) {
  const events: Array<{ event: string; data: any }> = [];
  const req = http.get({ host: '127.0.0.1', port, path: '/api/databases/events', headers: { Authorization: carol } });
  const ready = new Promise<void>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', res => {
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', chunk => {
        buffer += chunk;
        for (let i = buffer.indexOf('\n\n'); i >= 0; i = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) });
        }
      });
      resolve();
    });
  });
  return { events, ready, close: () => req.destroy() };
}

/**
 * Issue 8 (reliability, docs/reliability.md): two clusters, each an emulator with its own
 * aggregated apiserver, behind one backend; one goes away and comes back, the backend restarts
 * on the same database. Here rather than in test/src/reliability because the backend's test
 * dependencies (backend-test-utils, knex, better-sqlite3) are this package's.
 */
describe('the Backstage backend loses one of two clusters', () => {
  let east: System;
  let west: System;
  let dir: string;
  let knex: Knex;
  let backend: Backend | undefined;
  let port: number;

  const get = async (pathname: string) => {
    const res = await fetch(`http://127.0.0.1:${port}/api/databases${pathname}`, { headers: { Authorization: carol } });
    return { status: res.status, body: (await res.json()) as any };
  };
  const transitions = () => knex('databases_transitions').orderBy('id', 'asc').select('cluster', 'namespace', 'name', 'from_phase', 'to_phase');

  async function startBackend() {
    knex = sqliteKnex(path.join(dir, 'history.sqlite'));
    backend = await startTestBackend({
      features: [
        databasesPlugin,
        mockServices.rootConfig.factory({
          data: { databases: { clusters: [emulatorCluster(east, 'east'), emulatorCluster(west, 'west')], requestTimeoutMs: 3000 } },
        }),
        mockServices.database.factory({ knex }),
        mockServices.userInfo.mock({
          getUserInfo: async (c: any) => ({ userEntityRef: c.principal.userEntityRef, ownershipEntityRefs: OWNERSHIP[c.principal.userEntityRef] ?? [] }),
        }).factory,
        mockServices.permissions.mock({
          authorizeConditional: async (queries: any[]) => queries.map(() => ({ result: AuthorizeResult.ALLOW })),
          authorize: async (queries: any[]) => queries.map(() => ({ result: AuthorizeResult.ALLOW })),
        }).factory,
        catalogServiceMock.factory({ entities: [] }),
      ],
    });
    port = (backend.server.address() as AddressInfo).port;
    await eventually(async () => (await get('/clusters')).body.items.every((c: any) => c.healthy), 20_000);
  }

  async function stopBackend() {
    await backend?.stop();
    backend = undefined;
    await knex.destroy();
  }

  beforeAll(async () => {
    east = await startSystem({ seed: true });
    west = await startSystem({ seed: true });
    east.emulator.operators.settle();
    west.emulator.operators.settle();
    dir = mkdtempSync(path.join(os.tmpdir(), 'dbaas-backend-faults-'));
    await startBackend();
  }, 90_000);

  afterAll(async () => {
    west?.emulator.setFault('none');
    if (backend) await stopBackend();
    await east?.stop();
    await west?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it('keeps serving the other cluster, names the lost one in errors[] and on the event stream, and resumes it', async () => {
    const sse = openEvents(port);
    await sse.ready;
    try {
      await eventually(() => ['east', 'west'].every(c => sse.events.some(e => e.event === 'cluster' && e.data.cluster === c && e.data.healthy)));

      west.emulator.setFault('unavailable'); // the whole kube-apiserver: connections cut, every request 503
      await eventually(() => sse.events.some(e => e.event === 'cluster' && e.data.cluster === 'west' && !e.data.healthy), 20_000);
      const list = await get('/instances');
      expect(list.status).toBe(200);
      expect(list.body.items.length).toBeGreaterThan(0);
      expect(list.body.items.every((i: any) => i.cluster === 'east')).toBe(true);
      expect(list.body.errors).toEqual([expect.objectContaining({ cluster: 'west' })]);
      const clusters = (await get('/clusters')).body.items;
      expect(clusters).toEqual([
        expect.objectContaining({ name: 'east', healthy: true }),
        expect.objectContaining({ name: 'west', healthy: false, message: expect.any(String) }),
      ]);

      // east goes on: its changes still reach the stream
      east.emulator.operators.setHealth(MARIADB, 'degraded', 'one node down');
      const moved = (c: string, to: string) =>
        sse.events.some(e => e.event === 'instance' && e.data.cluster === c && e.data.instance.metadata.name === MARIADB.name && e.data.transition?.to === to);
      await eventually(() => moved('east', 'Degraded'), 20_000);

      west.emulator.setFault('none');
      await eventually(() => sse.events.some(e => e.event === 'cluster' && e.data.cluster === 'west' && e.data.healthy && sse.events.indexOf(e) > 2), 30_000);
      west.emulator.operators.setHealth(MARIADB, 'failed', 'disk full');
      await eventually(() => moved('west', 'Failed'), 20_000);
      const westStatus = sse.events.filter(e => e.event === 'cluster' && e.data.cluster === 'west').map(e => e.data.healthy);
      expect(westStatus).toEqual([true, false, true]);
      expect((await get('/instances')).body.errors).toEqual([]);
    } finally {
      sse.close();
    }
  }, 90_000);

  it('keeps every history row across a restart, and adds no duplicate', async () => {
    const row = (cluster: string, from: string, to: string) => ({ cluster, namespace: 'team-a', name: MARIADB.name, from_phase: from, to_phase: to });
    const lastPhase = (rows: Array<ReturnType<typeof row>>, cluster: string) =>
      rows.filter(t => t.cluster === cluster && t.name === MARIADB.name).pop()?.to_phase;
    // its own starting point: east's MariaDB Degraded, recorded
    east.emulator.operators.setHealth(MARIADB, 'degraded', 'one node down');
    await eventually(async () => lastPhase(await transitions(), 'east') === 'Degraded', 20_000);
    const before = await transitions();
    await stopBackend();
    // what happens while the backend is down is recorded once, when it is back
    east.emulator.operators.setHealth(MARIADB, 'ready');
    east.emulator.operators.settle();
    await startBackend();
    const since = async (n: number) => (await transitions()).slice(n);
    await eventually(async () => (await since(before.length)).length > 0, 20_000);
    // one change per cluster after the restart: each cluster's rows are written in order, so
    // once these are in, any duplicate of what the backend re-read at its start would be too
    east.emulator.operators.setHealth(MARIADB, 'degraded', 'marker');
    await eventually(async () => (await since(before.length)).some(t => t.cluster === 'east' && t.to_phase === 'Degraded'), 20_000);
    const westWas = lastPhase(before, 'west') ?? 'Ready';
    const westTo = westWas === 'Degraded' ? 'Failed' : 'Degraded';
    west.emulator.operators.setHealth(MARIADB, westTo === 'Failed' ? 'failed' : 'degraded', 'marker');
    await eventually(async () => (await since(before.length)).some(t => t.cluster === 'west'), 20_000);
    const after = await transitions();
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length)).toEqual([row('east', 'Degraded', 'Ready'), row('east', 'Ready', 'Degraded'), row('west', westWas, westTo)]);
    // back to Ready, for whatever runs next (settled at once: a loaded machine stretches the
    // operators' rounds, and how many rounds a recovery takes is not what this test is about)
    east.emulator.operators.setHealth(MARIADB, 'ready');
    west.emulator.operators.setHealth(MARIADB, 'ready');
    east.emulator.operators.settle();
    west.emulator.operators.settle();
    await eventually(async () => {
      const rows = await transitions();
      return lastPhase(rows, 'east') === 'Ready' && lastPhase(rows, 'west') === 'Ready';
    }, 30_000);
    // no instance has the same phase recorded twice in a row
    const last = new Map<string, string>();
    for (const t of after) {
      const key = `${t.cluster}/${t.namespace}/${t.name}`;
      expect(`${key} ${t.to_phase}`).not.toBe(`${key} ${last.get(key)}`);
      last.set(key, t.to_phase);
    }
  }, 90_000);
});
