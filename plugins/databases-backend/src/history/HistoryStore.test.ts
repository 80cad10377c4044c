import path from 'node:path';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DatabasePhase } from '@internal/plugin-databases-common';
import { HistoryStore } from './HistoryStore';
import { migrateHistory } from './migrateHistory';
import { HISTORY_DATABASES, NO_POSTGRES, sharedDatabase, type SharedDatabase } from '../__testUtils__/historyDatabases';

const MIGRATIONS = path.resolve(__dirname, '../../migrations');
const KEY = { cluster: 'local', namespace: 'team-a', name: 'orders-db' };

/** What two replicas both see, in order: [phase, resourceVersion]. */
const SEEN: ReadonlyArray<readonly [DatabasePhase, string]> = [
  ['Pending', '10'],
  ['Provisioning', '11'],
  ['Ready', '14'],
  ['Updating', '20'],
  ['Ready', '23'],
];
const TIMELINE = ['-→Pending', 'Pending→Provisioning', 'Provisioning→Ready', 'Ready→Updating', 'Updating→Ready'];
const timeline = async (store: HistoryStore, key = KEY) => (await store.history(key)).transitions.map(t => `${t.from ?? '-'}→${t.to}`);

it('has a PostgreSQL server to run on as well as SQLite', () => {
  expect(NO_POSTGRES).toBeUndefined();
});

describe.each(HISTORY_DATABASES)('HistoryStore on %s', id => {
  let db: SharedDatabase;

  beforeAll(async () => {
    db = await sharedDatabase(id);
  });
  afterAll(async () => {
    await db?.close();
  });

  describe('migrations', () => {
    it('three replicas starting at once on an empty database all migrate it (the plugin\'s migrateHistory), each migration once', async () => {
      const fresh = await sharedDatabase(id);
      try {
        const replicas = [fresh.open(), fresh.open(), fresh.open()];
        await Promise.all(replicas.map(k => migrateHistory(k, MIGRATIONS)));
        const [, pending] = await replicas[1].migrate.list({ directory: MIGRATIONS });
        expect(pending).toEqual([]);
        const done = await replicas[2]('knex_migrations').orderBy('id').pluck('name');
        expect(done).toEqual(['20261129000000_init.js', '20261129120000_transition_resource_version.js']);
      } finally {
        await fresh.close();
      }
    });

    it('two lock rows (two replicas that both found knex\'s lock table empty) do not lock the migrations out for ever', async () => {
      const fresh = await sharedDatabase(id);
      try {
        const [a, b] = [fresh.open(), fresh.open()];
        // knex's bookkeeping tables as that race leaves them: each replica inserted its lock row
        await a.migrate.latest({ directory: MIGRATIONS });
        await a.migrate.rollback({ directory: MIGRATIONS }, true);
        await a('knex_migrations_lock').insert({ is_locked: 0 });
        expect(await a('knex_migrations_lock').pluck('is_locked')).toEqual([0, 0]);
        await expect(a.migrate.latest({ directory: MIGRATIONS })).rejects.toThrow(/already locked/);

        await Promise.all([migrateHistory(a, MIGRATIONS, 3_000), migrateHistory(b, MIGRATIONS, 3_000)]);
        const [, pending] = await b.migrate.list({ directory: MIGRATIONS });
        expect(pending).toEqual([]);
        expect(await b('knex_migrations_lock').pluck('is_locked')).toEqual([0]);
      } finally {
        await fresh.close();
      }
    });

    it('migrate up from nothing, down to nothing and up again; the store works on the result', async () => {
      const knex = db.open();
      try {
        await knex.migrate.latest({ directory: MIGRATIONS });
        const [, done] = await knex.migrate.list({ directory: MIGRATIONS });
        expect(done).toEqual([]);
        await knex.migrate.rollback({ directory: MIGRATIONS }, true);
        expect(await knex.schema.hasTable('databases_transitions')).toBe(false);
        expect(await knex.schema.hasTable('databases_requests')).toBe(false);
        await knex.migrate.latest({ directory: MIGRATIONS });
        const store = new HistoryStore(knex);
        const key = { ...KEY, name: 'migrated-db' };
        expect(await store.recordPhase(key, 'Pending', { resourceVersion: '1' })).toBeDefined();
        const req = await store.recordRequest({ ...key, action: 'create', actor: 'user:default/alice', request: { spec: { engine: 'redis' } }, outcome: { status: 201 } });
        expect(await store.history(key)).toEqual({
          transitions: [expect.objectContaining({ to: 'Pending' })],
          requests: [req],
        });
      } finally {
        await knex.destroy();
      }
    });

    it('the resourceVersion migration keeps the rows written before it (they have none, and stay distinct)', async () => {
      const knex = db.open();
      try {
        await knex.migrate.rollback({ directory: MIGRATIONS }, true);
        await knex.migrate.up({ directory: MIGRATIONS }); // the first one only
        const old = { ...KEY, name: 'before-rv-db' };
        await knex('databases_transitions').insert([
          { ...old, from_phase: null, to_phase: 'Pending', at: '2026-11-29T00:00:00.000Z' },
          { ...old, from_phase: 'Pending', to_phase: 'Ready', at: '2026-11-29T00:00:01.000Z' },
        ]);
        await knex.migrate.latest({ directory: MIGRATIONS });
        const store = new HistoryStore(knex);
        expect(await timeline(store, old)).toEqual(['-→Pending', 'Pending→Ready']);
        expect(await store.recordPhase(old, 'Ready', { resourceVersion: '5' })).toBeUndefined();
        expect(await store.recordPhase(old, 'Degraded', { resourceVersion: '6' })).toEqual(expect.objectContaining({ from: 'Ready', to: 'Degraded' }));
      } finally {
        await knex.destroy();
      }
    });
  });

  /** Two backend replicas = two connection pools to one database, each with its own store. */
  describe('shared by backend replicas', () => {
    let replicas: Knex[];

    beforeAll(async () => {
      replicas = [db.open(), db.open()];
      await replicas[0].migrate.latest({ directory: MIGRATIONS });
    });
    afterAll(async () => {
      await Promise.all((replicas ?? []).map(k => k.destroy()));
    });

    it('stores a transition seen by both replicas at the same resourceVersion once', async () => {
      const [a, b] = replicas.map(k => new HistoryStore(k));
      for (const [phase, rv] of SEEN) {
        const results = await Promise.all([a, b].map(s => s.recordPhase(KEY, phase, { resourceVersion: rv })));
        // exactly one replica stored it
        expect(results.filter(Boolean)).toHaveLength(1);
      }
      expect(await timeline(a)).toEqual(TIMELINE);
      expect((await b.history(KEY)).transitions).toEqual((await a.history(KEY)).transitions);
    });

    it('each transition once when the replicas race through the same events, neither waiting for the other', async () => {
      const key = { ...KEY, name: 'raced-db' };
      const [a, b] = replicas.map(k => new HistoryStore(k));
      const stored = await Promise.all(
        [a, b].map(async s => {
          const mine = [];
          for (const [phase, rv] of SEEN) mine.push(await s.recordPhase(key, phase, { resourceVersion: rv }));
          return mine.filter(Boolean).length;
        }),
      );
      expect(stored[0] + stored[1]).toBe(SEEN.length);
      expect(await timeline(b, key)).toEqual(TIMELINE);
      const [{ n }] = await replicas[0]('databases_transitions').where(key).count({ n: '*' });
      expect(Number(n)).toBe(SEEN.length);
      const rows = await replicas[1]('databases_transitions').where(key).select('resource_version');
      expect(rows.map(r => r.resource_version).sort()).toEqual(SEEN.map(([, rv]) => rv).sort());
    });

    it('a relist after a restart (same phase, new resourceVersion) adds nothing', async () => {
      // its own instance: the tests run in any order
      const key = { ...KEY, name: 'relisted-db' };
      const before = new HistoryStore(replicas[0]);
      expect(await before.recordPhase(key, 'Provisioning', { resourceVersion: '40' })).toBeDefined();
      expect(await before.recordPhase(key, 'Ready', { resourceVersion: '41' })).toBeDefined();
      const restarted = new HistoryStore(replicas[1]);
      expect(await restarted.recordPhase(key, 'Ready', { resourceVersion: '99' })).toBeUndefined();
      expect((await restarted.history(key)).transitions.map(t => t.to)).toEqual(['Provisioning', 'Ready']);
    });
    it('a replica behind the other adds nothing older than what is stored (its stale phase is no transition)', async () => {
      // what CI caught: A saw Degraded (10), Degraded (12), Ready (15) and stored 10 and 15; B, a
      // few events behind, then saw Degraded at 12, a resourceVersion nobody stored
      const key = { ...KEY, name: 'lagging-db' };
      const [ahead, behind] = replicas.map(k => new HistoryStore(k));
      expect(await ahead.recordPhase(key, 'Degraded', { resourceVersion: '10' })).toBeDefined();
      expect(await ahead.recordPhase(key, 'Degraded', { resourceVersion: '12' })).toBeUndefined();
      expect(await ahead.recordPhase(key, 'Ready', { resourceVersion: '15' })).toBeDefined();
      expect(await behind.recordPhase(key, 'Degraded', { resourceVersion: '12' })).toBeUndefined();
      expect(await behind.recordPhase(key, 'Ready', { resourceVersion: '15' })).toBeUndefined();
      // and goes on with the next change, whoever sees it first
      expect(await behind.recordPhase(key, 'Failed', { resourceVersion: '100' })).toBeDefined();
      expect(await ahead.recordPhase(key, 'Failed', { resourceVersion: '100' })).toBeUndefined();
      expect((await ahead.history(key)).transitions.map(t => [t.from, t.to])).toEqual([
        [undefined, 'Degraded'],
        ['Degraded', 'Ready'],
        ['Ready', 'Failed'],
      ]);
    });
  });

  describe('a backend restart', () => {
    it('keeps every transition and request, in order, and reads them back as written', async () => {
      const key = { ...KEY, name: 'restarted-db' };
      let knex = db.open();
      await knex.migrate.latest({ directory: MIGRATIONS });
      let store = new HistoryStore(knex);
      const written = [];
      for (const [phase, rv] of SEEN) written.push(await store.recordPhase(key, phase, { resourceVersion: rv, reason: `r${rv}`, message: `m ${rv}` }));
      const requests = [];
      for (const status of [201, 403, 409]) {
        requests.push(
          await store.recordRequest({ ...key, action: 'create', actor: 'user:default/alice', request: { n: status, nested: { a: [1, 'x'] } }, outcome: { status, ...(status > 299 ? { message: `no ${status}` } : {}) }, at: `2026-12-02T10:00:0${status % 10}.000Z` }),
        );
      }
      const before = await store.history(key);
      expect(before.transitions).toEqual(written);
      expect(before.requests).toEqual(requests);
      await knex.destroy();

      knex = db.open();
      try {
        await knex.migrate.latest({ directory: MIGRATIONS }); // a no-op at the latest
        store = new HistoryStore(knex);
        expect(await store.history(key)).toEqual(before);
        // the relist at start: every phase again at the last resourceVersion, or a newer one
        expect(await store.recordPhase(key, 'Ready', { resourceVersion: '23' })).toBeUndefined();
        expect(await store.recordPhase(key, 'Ready', { resourceVersion: '30' })).toBeUndefined();
        expect(await store.recordPhase(key, 'Degraded', { resourceVersion: '31' })).toEqual(expect.objectContaining({ from: 'Ready', to: 'Degraded' }));
        expect(await timeline(store, key)).toEqual([...TIMELINE, 'Ready→Degraded']);
      } finally {
        await knex.destroy();
      }
    });
  });
});
