import type net from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
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

describe('backup schedules of an instance through the databases backend (emulator + apiserver)', () => {
  const backend = useSeededBackend();
  const { audited } = backend;

  /** mariadb-operator's Backups in team-a that carry a schedule, by name. */
  const operatorSchedules = () =>
    backend.system.emulator.store
      .list(MARIADB_BACKUPS, 'team-a')
      .filter((o: any) => o.spec?.schedule)
      .map((o: any) => o.metadata.name)
      .sort();
  const operatorObject = (name: string) => backend.system.emulator.store.get(MARIADB_BACKUPS, 'team-a', name) as any;
  const history = async () => (await request(backend.server).get(`${BASE}/orders-db/history`).set('Authorization', alice)).body.requests as any[];

  it("an editor (dbaas-edit) may read schedules but not write them: Kubernetes says so, and the instance's actions say so first", async () => {
    const list = await request(backend.server).get(`${BASE}/orders-db/schedules`).set('Authorization', alice);
    expect(list.status).toBe(200);
    expect(list.headers['cache-control']).toBe('no-store');
    expect(list.body).toEqual({ cluster: 'local', items: [] });
    const page = await request(backend.server).get(`${BASE}/orders-db`).set('Authorization', alice);
    expect(page.body.actions).toMatchObject({ backUp: true, createSchedule: false, updateSchedules: false, deleteSchedules: false });
    const refused = await request(backend.server).post(`${BASE}/orders-db/schedules`).set('Authorization', alice).send({ schedule: '0 2 * * *' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/cannot create resource "databasebackupschedules"/);
    // another team may not even read them
    const other = await request(backend.server).get(`${BASE}/orders-db/schedules`).set('Authorization', bob);
    expect(other.status).toBe(403);
    expect(operatorSchedules()).toEqual([]);
  });

  describe('as dbaas-admin of team-a', () => {
    let undo: () => void;
    beforeAll(() => {
      undo = bindClusterRole(backend.system.emulator, { name: 'alice-admin', namespace: 'team-a', clusterRole: 'dbaas-admin', user: 'user:default/alice' });
    });
    afterAll(() => undo?.());

    it('POST schedules orders-db (a dry run first, which writes nothing), named after it; a second one gets a suffix', async () => {
      const dry = await request(backend.server).post(`${BASE}/orders-db/schedules`).set('Authorization', alice).send({ schedule: '*/5 * * * *', dryRun: true });
      expect(dry.status).toBe(200);
      expect(dry.body.schedule.spec).toMatchObject({ instanceRef: { name: 'orders-db' }, schedule: '*/5 * * * *' });
      expect(operatorSchedules()).toEqual([]);

      const res = await request(backend.server).post(`${BASE}/orders-db/schedules`).set('Authorization', alice).send({ schedule: '*/5 * * * *', retention: '7d' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        cluster: 'local',
        // retention as the operator keeps it (a Go duration)
        schedule: { kind: 'DatabaseBackupSchedule', metadata: { name: 'orders-db-backups' }, spec: { schedule: '*/5 * * * *', retention: '168h', suspend: false } },
      });
      // the operator's own object, in its dialect: a Backup with spec.schedule and maxRetention
      expect(operatorObject('orders-db-backups').spec).toMatchObject({ schedule: { cron: '*/5 * * * *', suspend: false }, maxRetention: '168h' });
      const second = await request(backend.server).post(`${BASE}/orders-db/schedules`).set('Authorization', alice).send({ schedule: '0 3 * * 0' });
      expect(second.status).toBe(201);
      expect(second.body.schedule.metadata.name).toMatch(/^orders-db-backups-[a-z0-9]{5}$/);
      expect(operatorSchedules()).toEqual(['orders-db-backups', second.body.schedule.metadata.name].sort());
      expect((await history()).filter(r => r.action === 'schedule').map(r => [r.actor, r.outcome.status])).toEqual([
        ['user:default/alice', 403],
        ['user:default/alice', 201],
        ['user:default/alice', 201],
      ]);
    });

    it("refusals are the apiserver's, field by field, and write nothing: a bad cron, retention, an engine without schedules, a bad body", async () => {
      const before = operatorSchedules();
      const cron = await request(backend.server).post(`${BASE}/orders-db/schedules`).set('Authorization', alice).send({ schedule: '61 * * * *' });
      expect(cron.status).toBe(400);
      expect(cron.body.error).toMatchObject({ name: 'InputError', message: expect.stringMatching(/spec\.schedule/) });
      const retention = await request(backend.server).post(`${BASE}/orders-db/schedules`).set('Authorization', alice).send({ schedule: '0 2 * * *', retention: 'forever' });
      expect(retention.status).toBe(400);
      expect(retention.body.error.message).toMatch(/spec\.retention/);
      const redis = await request(backend.server).post(`${BASE}/orders-cache/schedules`).set('Authorization', alice).send({ schedule: '0 2 * * *' });
      expect(redis.status).toBe(400);
      expect(redis.body.error.message).toMatch(/redis-operator has no backup objects/);
      // mysql-operator deletes no backups: a retention on an InnoDB Cluster's schedule is refused by name
      const mysql = await request(backend.server).post(`${BASE}/payments-db/schedules`).set('Authorization', alice).send({ schedule: '0 2 * * *', retention: '7d' });
      expect(mysql.status).toBe(400);
      expect(mysql.body.error.message).toMatch(/spec\.retention: Forbidden: mysql-operator deletes no backups/);
      for (const body of [{}, { schedule: '' }, { schedule: 5 }, { schedule: '0 2 * * *', suspend: 'yes' }, { schedule: '0 2 * * *', name: 'x' }, []]) {
        const res = await request(backend.server).post(`${BASE}/orders-db/schedules`).set('Authorization', alice).send(body);
        expect([res.status, res.body.error?.name]).toEqual([400, 'InputError']);
      }
      const text = await request(backend.server).post(`${BASE}/orders-db/schedules`).set('Authorization', alice).set('Content-Type', 'text/plain').send('{"schedule":"0 2 * * *"}');
      expect(text.status).toBe(400);
      // carol may administer team-a in Kubernetes, but the policy lets owners alone write
      const undoCarol = bindClusterRole(backend.system.emulator, { name: 'carol-admin', namespace: 'team-a', clusterRole: 'dbaas-admin', user: 'user:default/carol' });
      try {
        const policy = await request(backend.server).post(`${BASE}/orders-db/schedules`).set('Authorization', carol).send({ schedule: '0 2 * * *' });
        expect(policy.status).toBe(403);
        expect(policy.body.error.message).toBe('not allowed to change the backup schedules of orders-db');
      } finally {
        undoCarol();
      }
      expect(operatorSchedules()).toEqual(before);
    });

    it('PATCH suspends, guarded by the version read (a stale one is a 409), and retention null goes back to the default; live on the stream', async () => {
      const port = (backend.server.address() as net.AddressInfo).port;
      const stream = openEvents(port, 'alice', `${BASE}/orders-db/schedules`);
      try {
        await stream.ready;
        expect(stream.status).toBe(200);
        await eventually(() => stream.events.some(e => e.event === 'schedules'), 20_000, 'the first list on the stream');
        const listed = stream.events.find(e => e.event === 'schedules')!.data.items;
        const read = listed.find((s: any) => s.metadata.name === 'orders-db-backups');
        expect(read.spec.retention).toBe('168h');

        const stale = await request(backend.server)
          .patch(`${BASE}/orders-db/schedules/orders-db-backups`)
          .set('Authorization', alice)
          .send({ suspend: true, resourceVersion: String(Number(read.metadata.resourceVersion) - 1) });
        expect(stale.status).toBe(409);
        expect(operatorObject('orders-db-backups').spec.schedule.suspend).toBe(false);

        const dry = await request(backend.server).patch(`${BASE}/orders-db/schedules/orders-db-backups`).set('Authorization', alice).send({ suspend: true, dryRun: true });
        expect([dry.status, dry.body.schedule.spec.suspend]).toEqual([200, true]);
        expect(operatorObject('orders-db-backups').spec.schedule.suspend).toBe(false);

        const res = await request(backend.server)
          .patch(`${BASE}/orders-db/schedules/orders-db-backups`)
          .set('Authorization', alice)
          .send({ suspend: true, retention: null, resourceVersion: read.metadata.resourceVersion });
        expect(res.status).toBe(200);
        expect(res.body.schedule.spec).toMatchObject({ suspend: true, schedule: '*/5 * * * *' });
        expect(res.body.schedule.spec.retention).toBeUndefined();
        expect(operatorObject('orders-db-backups').spec.schedule).toMatchObject({ cron: '*/5 * * * *', suspend: true });
        expect(operatorObject('orders-db-backups').spec.maxRetention).toBeUndefined();
        await eventually(
          () => stream.events.some(e => e.event === 'schedule' && e.data.schedule.metadata.name === 'orders-db-backups' && e.data.schedule.spec.suspend === true),
          20_000,
          'the suspended schedule on the stream',
        );

        for (const body of [{}, { dryRun: true }, { schedule: 7 }, { suspend: true, name: 'x' }]) {
          const bad = await request(backend.server).patch(`${BASE}/orders-db/schedules/orders-db-backups`).set('Authorization', alice).send(body);
          expect([bad.status, bad.body.error?.name]).toEqual([400, 'InputError']);
        }
        // the path names the instance: another instance's schedule is not found under it
        const elsewhere = await request(backend.server).patch(`${BASE}/payments-ledger/schedules/orders-db-backups`).set('Authorization', alice).send({ suspend: false });
        expect(elsewhere.status).toBe(404);
      } finally {
        stream.close();
      }
    });

    it('DELETE removes the operator object and passes on that the runs taken are kept; history and audit record it as grave', async () => {
      // the page's actions follow the binding once the backend's short cache of access reviews has
      // let go of the answer it gave before it
      await eventually(
        async () => {
          const { actions } = (await request(backend.server).get(`${BASE}/orders-db`).set('Authorization', alice)).body;
          return actions?.createSchedule === true && actions.updateSchedules === true && actions.deleteSchedules === true;
        },
        20_000,
        'the admin binding in the instance actions',
      );
      const missing = await request(backend.server).delete(`${BASE}/orders-db/schedules/no-such-schedule`).set('Authorization', alice);
      expect(missing.status).toBe(404);
      const res = await request(backend.server).delete(`${BASE}/orders-db/schedules/orders-db-backups`).set('Authorization', alice);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        cluster: 'local',
        namespace: 'team-a',
        name: 'orders-db-backups',
        warnings: [expect.stringMatching(/^DatabaseBackupSchedule "orders-db-backups": no new runs start; the backups it already took are kept/)],
      });
      expect(operatorSchedules()).not.toContain('orders-db-backups');
      const list = await request(backend.server).get(`${BASE}/orders-db/schedules`).set('Authorization', alice);
      expect(list.body.items.map((s: any) => s.metadata.name)).not.toContain('orders-db-backups');
      expect((await history()).filter(r => r.action === 'delete-schedule').map(r => r.outcome.status)).toEqual([404, 200]);
      expect(audited.filter(e => e.eventId === 'instance-delete-schedule').map(e => [e.severityLevel, e.outcome])).toEqual([
        ['high', 'failure'],
        ['high', 'success'],
      ]);
    });
  });
});
