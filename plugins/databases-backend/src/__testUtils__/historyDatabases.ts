import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { TestDatabases, type TestDatabaseId } from '@backstage/backend-test-utils';

/**
 * The databases the history store is tested on: SQLite (development, the tests' default) and
 * PostgreSQL (Backstage in production). The PostgreSQL server is the one in
 * BACKSTAGE_TEST_DATABASE_POSTGRES<major>_CONNECTION_STRING, which scripts/test.mjs sets to a
 * throwaway server it starts (scripts/lib/postgres.mjs); there is no docker here, so without it the
 * PostgreSQL cases fail, saying how to get one.
 */
const POSTGRES_IDS = ['POSTGRES_18', 'POSTGRES_17', 'POSTGRES_16', 'POSTGRES_15', 'POSTGRES_14', 'POSTGRES_13'] as const;
const envName = (id: string) => `BACKSTAGE_TEST_DATABASE_${id.replace('_', '')}_CONNECTION_STRING`;
// a server of a major this backend-test-utils has no id for yet (Debian moves on): given as its newest
const otherMajor = Object.keys(process.env).find(k => /^BACKSTAGE_TEST_DATABASE_POSTGRES\d+_CONNECTION_STRING$/.test(k) && process.env[k]);
if (otherMajor && !POSTGRES_IDS.some(id => process.env[envName(id)])) process.env[envName(POSTGRES_IDS[0])] = process.env[otherMajor];
const postgresId = POSTGRES_IDS.find(id => process.env[envName(id)]);

const NO_POSTGRES_HELP =
  'No PostgreSQL server for the history store tests: run them through `npm test` / `node scripts/test.mjs`, which ' +
  'starts a throwaway server when initdb, pg_ctl and postgres are on PATH or in /usr/lib/postgresql/<major>/bin ' +
  '(Debian: apt-get install postgresql), or set BACKSTAGE_TEST_DATABASE_POSTGRES<major>_CONNECTION_STRING to a ready server.';

/**
 * sqliteKnex with SQLite's busy timeout at 0: the replicas here share one process, and
 * better-sqlite3 waits for a lock synchronously, so a wait for another connection's transaction
 * (a migration: replicas starting at once) blocks the very thread that would finish it, for the
 * whole timeout (5 s). At 0 the loser gets "database is locked" at once, and migrateHistory tries again.
 */
function replicaSqliteKnex(file: string): Knex {
  return knexFactory({
    client: 'better-sqlite3',
    connection: { filename: file },
    useNullAsDefault: true,
    pool: {
      afterCreate: (conn: { pragma(p: string): unknown }, done: (err: Error | null, conn: unknown) => void) => {
        conn.pragma('busy_timeout = 0');
        done(null, conn);
      },
    },
  });
}

/** One database of the given kind, empty; `open()` is one more connection pool to it: a backend replica, or the backend after a restart. */
export interface SharedDatabase {
  id: TestDatabaseId;
  open(): Knex;
  /** Destroys every pool `open()` gave (again, for those already destroyed: knex allows it), and deletes the database. */
  close(): Promise<void>;
}

/** Why the PostgreSQL cases cannot run, or undefined: a test expects it undefined, so that they never pass by being absent. */
export const NO_POSTGRES: string | undefined = postgresId ? undefined : NO_POSTGRES_HELP;

/** What to run the store tests on (ids for describe.each); PostgreSQL only when a server was given. */
export const HISTORY_DATABASES: TestDatabaseId[] = ['SQLITE_3', ...(postgresId ? [postgresId] : [])];

// created when the test file imports this, at its top level: TestDatabases' afterAll, which drops
// the databases, then runs after the describe blocks' own afterAll (which close their pools)
const testDatabases = postgresId ? TestDatabases.create({ ids: [postgresId], disableDocker: true }) : undefined;

/**
 * A fresh database on `id`. SQLite: a file in a temp dir (TestDatabases' SQLite is `:memory:`,
 * which a second connection or a restart cannot reopen); PostgreSQL: TestDatabases' fresh logical
 * database on the given server, each `open()` a new pool with its connection settings.
 */
export async function sharedDatabase(id: TestDatabaseId): Promise<SharedDatabase> {
  const pools: Knex[] = [];
  const track = (k: Knex) => {
    pools.push(k);
    return k;
  };
  if (id === 'SQLITE_3') {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'databases-history-'));
    const file = path.join(dir, 'history.sqlite');
    return {
      id,
      open: () => track(replicaSqliteKnex(file)),
      async close() {
        await Promise.all(pools.map(k => k.destroy()));
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  if (!testDatabases) throw new Error(NO_POSTGRES_HELP);
  const first = await testDatabases.init(id);
  const connection = (first.client.config as Knex.Config).connection;
  await first.destroy();
  return {
    id,
    open: () => track(knexFactory({ client: 'pg', connection, pool: { min: 0, max: 5 } })),
    async close() {
      await Promise.all(pools.map(k => k.destroy()));
    },
  };
}
