import type net from 'node:net';
import request from 'supertest';
import { describe, expect, it, jest } from '@jest/globals';
import { mockCredentials } from '@backstage/backend-test-utils';
import { bindClusterRole } from '@internal/e2e';
import { eventually } from '../__testUtils__/eventually';
import { openEvents } from '../__testUtils__/openEvents';
import { useSeededBackend } from '../__testUtils__/useSeededBackend';

jest.setTimeout(60_000);

const alice = mockCredentials.user.header('user:default/alice');
const bob = mockCredentials.user.header('user:default/bob');
const carol = mockCredentials.user.header('user:default/carol');

const BASE = '/api/databases/clusters/local/namespaces/team-a/instances';
const MARIADB_BACKUPS = { group: 'k8s.mariadb.com', version: 'v1alpha1', plural: 'backups' };

describe('backups of an instance through the databases backend (emulator + apiserver)', () => {
  const backend = useSeededBackend();
  const { audited } = backend;

  /** The operator's backup objects in team-a, by name: what a refusal must not add to. */
  const operatorBackups = () => backend.system.emulator.store.list(MARIADB_BACKUPS, 'team-a').map((o: any) => o.metadata.name).sort();

  it("GET lists orders-db's runs as alice, newest first, never cached; another team's user is refused", async () => {
    const res = await request(backend.server).get(`${BASE}/orders-db/backups`).set('Authorization', alice);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.cluster).toBe('local');
    const names = res.body.items.map((b: any) => b.metadata.name);
    // the demo's two runs of orders-db, one that succeeded and one that failed
    expect(names).toEqual(expect.arrayContaining(['orders-db-nightly-check', 'orders-db-before-migration']));
    expect(res.body.items.every((b: any) => b.spec.instanceRef.name === 'orders-db')).toBe(true);
    const created = res.body.items.map((b: any) => b.metadata.creationTimestamp);
    expect(created).toEqual([...created].sort().reverse());
    // bob's team may not read team-a: Kubernetes says so, as bob
    const other = await request(backend.server).get(`${BASE}/orders-db/backups`).set('Authorization', bob);
    expect(other.status).toBe(403);
    expect(other.body.error.name).toBe('NotAllowedError');
    expect(JSON.stringify(other.body)).not.toContain('nightly-check');
    const missing = await request(backend.server).get(`${BASE}/no-such-db/backups`).set('Authorization', alice);
    expect(missing.status).toBe(404);
  });

  it('POST backs orders-db up now (a dry run first, which writes nothing); the run reaches Succeeded; history and audit record it', async () => {
    const before = operatorBackups();
    const dry = await request(backend.server).post(`${BASE}/orders-db/backups`).set('Authorization', alice).send({ dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.body.backup.spec.instanceRef.name).toBe('orders-db');
    expect(operatorBackups()).toEqual(before);

    const res = await request(backend.server).post(`${BASE}/orders-db/backups`).set('Authorization', alice).send({});
    expect(res.status).toBe(201);
    const name: string = res.body.backup.metadata.name;
    expect(name).toMatch(/^orders-db-\d{14}$/);
    expect(res.body).toMatchObject({ cluster: 'local', backup: { kind: 'DatabaseBackup', spec: { instanceRef: { name: 'orders-db' } } } });
    let phase = '';
    await eventually(
      async () => {
        const list = await request(backend.server).get(`${BASE}/orders-db/backups`).set('Authorization', alice);
        phase = list.body.items.find((b: any) => b.metadata.name === name)?.status?.phase ?? '';
        return phase === 'Succeeded';
      },
      30_000,
      () => `${name} Succeeded; last seen ${phase}`,
    );
    const history = await request(backend.server).get(`${BASE}/orders-db/history`).set('Authorization', alice);
    expect(history.body.requests).toContainEqual(
      expect.objectContaining({ action: 'backup', actor: 'user:default/alice', request: { backup: name }, outcome: { status: 201 } }),
    );
    // the dry run was a preview: neither history nor audit
    expect(history.body.requests.filter((r: any) => r.action === 'backup')).toHaveLength(1);
    expect(audited.filter(e => e.eventId === 'instance-backup' && e.meta?.name === 'orders-db')).toEqual([
      expect.objectContaining({ severityLevel: 'medium', outcome: 'success', meta: expect.objectContaining({ cluster: 'local', namespace: 'team-a' }) }),
    ]);
  });

  it("streams the runs live: the list, then a new run's changes up to Succeeded", async () => {
    const port = (backend.server.address() as net.AddressInfo).port;
    const stream = openEvents(port, 'alice', `${BASE}/orders-db/backups`);
    try {
      await stream.ready;
      expect(stream.status).toBe(200);
      await eventually(() => stream.events.some(e => e.event === 'backups'), 20_000, 'the first list on the stream');
      const created = await request(backend.server).post(`${BASE}/orders-db/backups`).set('Authorization', alice).send({});
      expect(created.status).toBe(201);
      const name = created.body.backup.metadata.name;
      const phases = () => stream.events.filter(e => e.event === 'backup' && e.data.backup.metadata.name === name).map(e => e.data.backup.status?.phase);
      await eventually(() => phases().includes('Succeeded'), 30_000, () => `${name} Succeeded on the stream; saw ${JSON.stringify(phases())}`);
      expect(phases()[0]).not.toBe('Succeeded');
      // two at once (the same second, most likely): the second name gets the apiserver's suffix instead of a 409
      const twice = await Promise.all([0, 1].map(() => request(backend.server).post(`${BASE}/orders-db/backups`).set('Authorization', alice).send({})));
      expect(twice.map(r => r.status)).toEqual([201, 201]);
      const names = twice.map(r => r.body.backup.metadata.name as string);
      expect(new Set(names).size).toBe(2);
      expect(names.every(n => /^orders-db-\d{14}(-[a-z0-9]{5})?$/.test(n))).toBe(true);
    } finally {
      stream.close();
    }
    const refused = openEvents(port, 'bob', `${BASE}/orders-db/backups`);
    await refused.ready;
    expect(refused.status).toBe(403);
    refused.close();
  });

  it('POST is refused by Kubernetes RBAC for another team and by the Backstage policy for a non-owner, writing nothing', async () => {
    const before = operatorBackups();
    const otherTeam = await request(backend.server).post(`${BASE}/orders-db/backups`).set('Authorization', bob).send({});
    expect(otherTeam.status).toBe(403);
    expect(otherTeam.body.error.name).toBe('NotAllowedError');
    // carol may edit team-a in Kubernetes, but the policy lets owners alone write
    const undo = bindClusterRole(backend.system.emulator, { name: 'carol-edits-team-a', namespace: 'team-a', clusterRole: 'dbaas-edit', user: 'user:default/carol' });
    try {
      const policy = await request(backend.server).post(`${BASE}/orders-db/backups`).set('Authorization', carol).send({});
      expect(policy.status).toBe(403);
      expect(policy.body.error).toMatchObject({ name: 'NotAllowedError', message: 'not allowed to back up orders-db' });
      const history = await request(backend.server).get(`${BASE}/orders-db/history`).set('Authorization', alice);
      expect(history.body.requests).toContainEqual(expect.objectContaining({ action: 'backup', actor: 'user:default/carol', outcome: expect.objectContaining({ status: 403 }) }));
    } finally {
      undo();
    }
    expect(operatorBackups()).toEqual(before);
  });

  it("a Redis is refused with the apiserver's words (its operator has no backup objects); bad bodies are 400s", async () => {
    const redis = await request(backend.server).post(`${BASE}/orders-cache/backups`).set('Authorization', alice).send({});
    expect(redis.status).toBe(400);
    expect(redis.body.error.name).toBe('InputError');
    expect(redis.body.error.message).toMatch(/spec\.instanceRef\.name: Forbidden: redis instances cannot be backed up through this API: redis-operator has no backup objects/);
    const method = await request(backend.server).post(`${BASE}/orders-db/backups`).set('Authorization', alice).send({ method: 'volumeSnapshot', dryRun: true });
    expect(method.status).toBe(400);
    expect(method.body.error.message).toMatch(/spec\.method/);
    for (const body of [{ color: 'red' }, { method: '' }, { method: 'a b' }, { dryRun: 'yes' }, []]) {
      const res = await request(backend.server).post(`${BASE}/orders-db/backups`).set('Authorization', alice).send(body);
      expect(res.status).toBe(400);
      expect(res.body.error.name).toBe('InputError');
    }
    // a body the JSON parser did not read (another content type) is refused, not taken for none
    const before = operatorBackups();
    const text = await request(backend.server).post(`${BASE}/orders-db/backups`).set('Authorization', alice).set('Content-Type', 'text/plain').send('{"dryRun":true}');
    expect(text.status).toBe(400);
    expect(text.body.error.message).toMatch(/must be JSON/);
    expect(operatorBackups()).toEqual(before);
  });

  it('DELETE is refused by RBAC to an editor; with dbaas-admin it deletes the run and passes on the warning that the stored data stays', async () => {
    const target = `${BASE}/orders-db/backups/orders-db-before-migration`;
    const editor = await request(backend.server).delete(target).set('Authorization', alice);
    expect(editor.status).toBe(403);
    expect(editor.body.error.message).toMatch(/cannot delete resource "databasebackups"/);
    const undo = bindClusterRole(backend.system.emulator, { name: 'alice-admin', namespace: 'team-a', clusterRole: 'dbaas-admin', user: 'user:default/alice' });
    try {
      // the path names the instance: another instance's backup is not found under it
      const elsewhere = await request(backend.server).delete(`${BASE}/payments-ledger/backups/orders-db-before-migration`).set('Authorization', alice);
      expect(elsewhere.status).toBe(404);
      const missing = await request(backend.server).delete(`${BASE}/orders-db/backups/no-such-backup`).set('Authorization', alice);
      expect(missing.status).toBe(404);
      const policy = await request(backend.server).delete(target).set('Authorization', carol);
      expect(policy.status).toBe(403);

      const res = await request(backend.server).delete(target).set('Authorization', alice);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        cluster: 'local',
        namespace: 'team-a',
        name: 'orders-db-before-migration',
        warnings: [expect.stringMatching(/^DatabaseBackup "orders-db-before-migration": the backup data itself is not deleted/)],
      });
      expect(operatorBackups()).not.toContain('orders-db-before-migration');
      const list = await request(backend.server).get(`${BASE}/orders-db/backups`).set('Authorization', alice);
      expect(list.body.items.map((b: any) => b.metadata.name)).not.toContain('orders-db-before-migration');
      const history = await request(backend.server).get(`${BASE}/orders-db/history`).set('Authorization', alice);
      expect(history.body.requests.filter((r: any) => r.action === 'delete-backup').map((r: any) => [r.actor, r.outcome.status])).toEqual([
        ['user:default/alice', 403],
        ['user:default/alice', 404],
        ['user:default/carol', 403],
        ['user:default/alice', 200],
      ]);
      expect(audited.filter(e => e.eventId === 'instance-delete-backup').every(e => e.severityLevel === 'high')).toBe(true);
    } finally {
      undo();
    }
  });
});
