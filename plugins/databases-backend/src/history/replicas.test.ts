import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Knex } from 'knex';
import { mockServices, startTestBackend } from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { startSystem, type System } from '@internal/e2e';
import type { PhaseTransition } from '@internal/plugin-databases-common';
import { databasesPlugin } from '../plugin';
import { emulatorCluster } from '../__testUtils__/emulatorCluster';
import { eventually } from '../__testUtils__/eventually';
import { HISTORY_DATABASES, NO_POSTGRES, sharedDatabase, type SharedDatabase } from '../__testUtils__/historyDatabases';
import { teamIdentityMocks } from '../__testUtils__/teamIdentityMocks';
import { HistoryStore } from './HistoryStore';

jest.setTimeout(60_000);

type Backend = Awaited<ReturnType<typeof startTestBackend>>;
const MARIADB = { kind: 'MariaDB', namespace: 'team-a', name: 'orders-db' };
const KEY = { cluster: 'local', namespace: MARIADB.namespace, name: MARIADB.name };

/** Every recordPhase call of every backend in this file: which store (replica), what, and what it answered. */
const recordPhase = jest.spyOn(HistoryStore.prototype, 'recordPhase');

let system: System;
beforeAll(async () => {
  system = await startSystem({ seed: true });
  system.emulator.operators.settle();
}, 60_000);
afterAll(async () => {
  await system?.stop();
});

it('has a PostgreSQL server to run on as well as SQLite', () => {
  expect(NO_POSTGRES).toBeUndefined();
});

/**
 * The real backend (startTestBackend with the plugin, which migrates its store itself), twice,
 * on one database, both watching the same cluster: Backstage scaled out.
 */
describe.each(HISTORY_DATABASES)('two backend replicas on one %s database', id => {
  let db: SharedDatabase;
  let reader: Knex;
  const running = new Set<Backend>();

  const start = async () => {
    const backend = await startTestBackend({
      features: [
        databasesPlugin,
        mockServices.rootConfig.factory({ data: { databases: { clusters: [emulatorCluster(system)], requestTimeoutMs: 5000 } } }),
        mockServices.database.factory({ knex: db.open() }),
        ...teamIdentityMocks(),
        catalogServiceMock.factory({ entities: [] }),
      ],
    });
    running.add(backend);
    return backend;
  };
  const stop = async (backend: Backend) => {
    running.delete(backend);
    await backend.stop();
  };
  const rows = () => reader('databases_transitions').where(KEY).orderBy('id', 'asc').select('from_phase', 'to_phase', 'resource_version');

  /** The calls for orders-db reaching `phase` since call number `since`; `store` is one replica's (a restart makes a new one). */
  const callsTo = (phase: string, since: number) =>
    recordPhase.mock.calls
      .map((args, i) => ({ i, store: recordPhase.mock.contexts[i], key: args[0], to: args[1], result: recordPhase.mock.results[i].value as Promise<PhaseTransition | undefined> }))
      .filter(c => c.i >= since && c.key.name === KEY.name && c.key.namespace === KEY.namespace && c.to === phase);
  /** Waits until `stores` distinct replicas have recorded `phase` since call `since`; then what their stores answered. */
  const seenBy = async (phase: string, stores: number, since: number) => {
    await eventually(
      () => new Set(callsTo(phase, since).map(c => c.store)).size >= stores,
      20_000,
      () => `${stores} replicas record ${phase}: ${callsTo(phase, since).length} calls`,
    );
    return Promise.all(callsTo(phase, since).map(c => c.result));
  };
  /** Moves orders-db (the operator's health) and waits for `stores` replicas to record `phase`: how many stored it. */
  const move = async (health: 'ready' | 'degraded' | 'failed', phase: string, stores: number) => {
    const since = recordPhase.mock.calls.length;
    system.emulator.operators.setHealth(MARIADB, health, health === 'ready' ? undefined : `now ${phase}`);
    return (await seenBy(phase, stores, since)).filter(Boolean).length;
  };

  beforeAll(async () => {
    recordPhase.mockClear();
    system.emulator.operators.settle();
    db = await sharedDatabase(id);
    reader = db.open();
  });
  afterAll(async () => {
    for (const b of running) await b.stop().catch(() => undefined);
    await db?.close();
    system.emulator.operators.setHealth(MARIADB, 'ready');
  });

  it('start at once on the empty database, record each phase change once; a restarted replica adds nothing and goes on', async () => {
    const [, b] = await Promise.all([start(), start()]);
    // both list orders-db at their start (Ready, seeded and settled): stored once at most
    expect((await seenBy('Ready', 2, 0)).filter(Boolean).length).toBeLessThanOrEqual(1);
    const before = await rows();
    const was = before.at(-1)?.to_phase ?? null;

    expect(await move('degraded', 'Degraded', 2)).toBe(1);
    expect(await move('ready', 'Ready', 2)).toBe(1);
    const changed = (await rows()).slice(before.length);
    expect(changed.map(r => [r.from_phase, r.to_phase])).toEqual([[was, 'Degraded'], ['Degraded', 'Ready']]);

    // one replica restarts (a new pool on the same database); a change while it is down is the other's
    await stop(b);
    expect(await move('failed', 'Failed', 1)).toBe(1);
    const since = recordPhase.mock.calls.length;
    await start();
    // the restarted replica lists Failed at its start: nothing to add
    expect((await seenBy('Failed', 1, since)).filter(Boolean)).toHaveLength(0);
    // and goes on with the other (a failed MariaDB recovers through Degraded)
    expect(await move('degraded', 'Degraded', 2)).toBe(1);
    expect(await move('ready', 'Ready', 2)).toBe(1);

    const after = await rows();
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length).map(r => [r.from_phase, r.to_phase])).toEqual([
      [was, 'Degraded'],
      ['Degraded', 'Ready'],
      ['Ready', 'Failed'],
      ['Failed', 'Degraded'],
      ['Degraded', 'Ready'],
    ]);
    // one row per resourceVersion: what both replicas saw is stored once
    const rvs = after.map(r => r.resource_version);
    expect(new Set(rvs).size).toBe(rvs.length);
  });
});
