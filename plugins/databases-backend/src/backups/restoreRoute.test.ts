import request from 'supertest';
import { describe, expect, it, jest } from '@jest/globals';
import { mockCredentials } from '@backstage/backend-test-utils';
import { eventually } from '../__testUtils__/eventually';
import { useSeededBackend } from '../__testUtils__/useSeededBackend';

jest.setTimeout(60_000);

const alice = mockCredentials.user.header('user:default/alice');

const BASE = '/api/databases/clusters/local/namespaces/team-a/instances';
const MARIADBS = { group: 'k8s.mariadb.com', version: 'v1alpha1', plural: 'mariadbs' };
const REDISES = { group: 'redis.redis.opstreelabs.in', version: 'v1beta2', plural: 'redis' };

describe('restore into a new instance through the create route (emulator + apiserver)', () => {
  const backend = useSeededBackend({
    // the demo's runs finish (orders-db-nightly-check Succeeded, orders-db-before-migration
    // Failed) and the apiserver serves them so (its watch cache follows the cluster a moment later)
    ready: system =>
      eventually(() => system.apiserver.backups.get('team-a', 'orders-db-nightly-check')?.status?.phase === 'Succeeded', 20_000, 'orders-db-nightly-check served Succeeded'),
  });
  /** The portal's restore: the create route with spec.restoreFrom, as the Backups card sends it. */
  const restore = (name: string, spec: Record<string, unknown>, dryRun?: boolean) =>
    request(backend.server).post(BASE).set('Authorization', alice).send({ name, owner: 'group:default/team-a', spec, ...(dryRun ? { dryRun } : {}) });

  /** Names of the operator objects of a kind in team-a: what a refusal must not add to. */
  const operatorObjects = (resource: typeof MARIADBS) => backend.system.emulator.store.list(resource, 'team-a').map((o: any) => o.metadata.name).sort();

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
    const mariadb = backend.system.emulator.store.get(MARIADBS, 'team-a', 'orders-db-restored') as any;
    expect(mariadb.spec.bootstrapFrom).toMatchObject({ backupRef: { name: 'orders-db-nightly-check' } });

    const seen: string[] = [];
    await eventually(
      async () => {
        const got = await request(backend.server).get(`${BASE}/orders-db-restored`).set('Authorization', alice);
        const s = got.body.instance?.status;
        const line = `${s?.phase} ${s?.reason ?? ''}`.trim();
        if (seen[seen.length - 1] !== line) seen.push(line);
        return s?.phase === 'Ready';
      },
      45_000,
      () => `orders-db-restored Ready; saw ${JSON.stringify(seen)}`,
    );
    expect(seen).toContain('Provisioning Restoring');
    const history = await request(backend.server).get(`${BASE}/orders-db-restored/history`).set('Authorization', alice);
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
