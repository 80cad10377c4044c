import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Knex } from 'knex';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mockCredentials, mockServices, startTestBackend } from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { startSystem, type System } from '@internal/e2e';
import { databasesPlugin } from '../plugin';
import { ORDERS_COMPONENT } from '../__testUtils__/catalogEntities';
import { emulatorCluster } from '../__testUtils__/emulatorCluster';
import { eventually } from '../__testUtils__/eventually';
import { sqliteKnex } from '../__testUtils__/sqliteKnex';
import { teamIdentityMocks } from '../__testUtils__/teamIdentityMocks';

jest.setTimeout(60_000);

const alice = mockCredentials.user.header('user:default/alice');

const BASE = '/api/databases/clusters/local/namespaces/team-a/instances';
const MARIADBS = { group: 'k8s.mariadb.com', version: 'v1alpha1', plural: 'mariadbs' };
const REDISES = { group: 'redis.redis.opstreelabs.in', version: 'v1beta2', plural: 'redis' };

/** The portal's restore: the create route with spec.restoreFrom, as the Backups card sends it. */
let server: http.Server;
const restore = (name: string, spec: Record<string, unknown>, dryRun?: boolean) =>
  request(server).post(BASE).set('Authorization', alice).send({ name, owner: 'group:default/team-a', spec, ...(dryRun ? { dryRun } : {}) });

describe('restore into a new instance through the create route (emulator + apiserver)', () => {
  let system: System;
  let knex: Knex;
  let stop: () => Promise<void>;
  let dir = '';

  /** Names of the operator objects of a kind in team-a: what a refusal must not add to. */
  const operatorObjects = (resource: typeof MARIADBS) => system.emulator.store.list(resource, 'team-a').map((o: any) => o.metadata.name).sort();

  beforeAll(async () => {
    system = await startSystem({ seed: true });
    // the demo's runs finish: orders-db-nightly-check Succeeded, orders-db-before-migration Failed
    system.emulator.operators.settle();
    // ... and the apiserver serves them so (its watch cache follows the cluster a moment later)
    await eventually(() => system.apiserver.backups.get('team-a', 'orders-db-nightly-check')?.status?.phase === 'Succeeded', 20_000, 'orders-db-nightly-check served Succeeded');
    dir = mkdtempSync(path.join(os.tmpdir(), 'databases-restore-'));
    knex = sqliteKnex(path.join(dir, 'history.sqlite'));
    const backend = await startTestBackend({
      features: [
        databasesPlugin,
        mockServices.rootConfig.factory({ data: { databases: { clusters: [emulatorCluster(system)], requestTimeoutMs: 5000 } } }),
        mockServices.database.factory({ knex }),
        ...teamIdentityMocks(),
        catalogServiceMock.factory({ entities: [ORDERS_COMPONENT] }),
      ],
    });
    server = backend.server;
    stop = () => backend.stop();
  });

  afterAll(async () => {
    await stop?.().catch(() => undefined);
    await knex?.destroy();
    await system?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a restore of a Succeeded backup reaches the apiserver with restoreFrom unchanged; the new instance appears, Restoring then Ready', async () => {
    const spec = { engine: 'mariadb', topology: 'galera', replicas: 3, version: '11.4', storage: { size: '10Gi' }, restoreFrom: { backup: 'orders-db-nightly-check' } };
    const dry = await restore('orders-db-restored', spec, true);
    expect(dry.status).toBe(200);
    expect(dry.body.instance.spec.restoreFrom).toEqual({ backup: 'orders-db-nightly-check' });
    expect(operatorObjects(MARIADBS)).not.toContain('orders-db-restored');

    const res = await restore('orders-db-restored', spec);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ cluster: 'local', instance: { metadata: { name: 'orders-db-restored' }, spec: { restoreFrom: { backup: 'orders-db-nightly-check' } } } });
    // what the apiserver wrote for mariadb-operator: the Backup to bootstrap from
    const mariadb = system.emulator.store.get(MARIADBS, 'team-a', 'orders-db-restored') as any;
    expect(mariadb.spec.bootstrapFrom).toMatchObject({ backupRef: { name: 'orders-db-nightly-check' } });

    const seen: string[] = [];
    await eventually(
      async () => {
        const got = await request(server).get(`${BASE}/orders-db-restored`).set('Authorization', alice);
        const s = got.body.instance?.status;
        const line = `${s?.phase} ${s?.reason ?? ''}`.trim();
        if (seen[seen.length - 1] !== line) seen.push(line);
        return s?.phase === 'Ready';
      },
      45_000,
      () => `orders-db-restored Ready; saw ${JSON.stringify(seen)}`,
    );
    expect(seen).toContain('Provisioning Restoring');
    const history = await request(server).get(`${BASE}/orders-db-restored/history`).set('Authorization', alice);
    expect(history.body.requests).toContainEqual(
      expect.objectContaining({ action: 'create', actor: 'user:default/alice', request: expect.objectContaining({ spec }), outcome: { status: 201 } }),
    );
  });

  it("a refused restore comes back as an InputError in the apiserver's words, and nothing is written", async () => {
    const mariadbs = operatorObjects(MARIADBS);
    const redises = operatorObjects(REDISES);
    // a Redis: its operator has no backup objects
    const redis = await restore('cache-restored', { engine: 'redis', restoreFrom: { backup: 'orders-db-nightly-check' } });
    expect(redis.status).toBe(400);
    expect(redis.body.error.name).toBe('InputError');
    expect(redis.body.error.message).toMatch(/spec\.restoreFrom: Forbidden: redis instances cannot be restored from a backup: redis-operator has no backup objects/);
    // a backup that failed
    const failed = await restore('migration-restored', { engine: 'mariadb', storage: { size: '10Gi' }, restoreFrom: { backup: 'orders-db-before-migration' } });
    expect(failed.status).toBe(400);
    expect(failed.body.error.name).toBe('InputError');
    expect(failed.body.error.message).toMatch(/spec\.restoreFrom\.backup: .*Succeeded/);
    // a point in time where mariadb-operator has none
    const pit = await restore('time-restored', { engine: 'mariadb', restoreFrom: { instance: 'orders-db', pointInTime: new Date(Date.now() - 60_000).toISOString() } });
    expect(pit.status).toBe(400);
    expect(pit.body.error.message).toMatch(/spec\.restoreFrom\.pointInTime: Forbidden/);
    expect(operatorObjects(MARIADBS)).toEqual(mariadbs);
    expect(operatorObjects(REDISES)).toEqual(redises);
  });

  it('a restoreFrom of the wrong shape is a 400 of the backend, never sent', async () => {
    for (const restoreFrom of [{}, { backup: 'Not A Name' }, { backup: 'x', color: 'red' }, { pointInTime: '2026-01-01T00:00:00Z' }, 'orders-db-nightly-check']) {
      const res = await restore('bad-restored', { engine: 'mariadb', restoreFrom });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ name: 'InputError', message: expect.stringMatching(/^invalid body: spec\.restoreFrom/) });
    }
  });
});
