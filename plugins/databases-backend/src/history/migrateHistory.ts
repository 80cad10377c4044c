import type { Knex } from 'knex';

/**
 * What knex answers when another replica is creating its bookkeeping tables (knex_migrations,
 * knex_migrations_lock) at the same moment, on an empty database: PostgreSQL's "already exists"
 * or a duplicate key in pg_class/pg_type, SQLite's "already exists", or the lock taken ("already
 * locked"). Past those tables, knex's own lock (in the migration's transaction) orders the
 * replicas and the second finds the migrations done.
 */
const CONCURRENT_START = /already exists|duplicate key value|Migration table is already locked|database is locked/i;
const LOCKED = /Migration table is already locked/i;
/** knex's lock table for the default migrations table (knex_migrations). */
const LOCK_TABLE = 'knex_migrations_lock';

/**
 * Migrates the history store to the latest schema. Several backend replicas may start at once on
 * one empty database (a new deployment): the ones that lose the race for knex's tables, or find
 * its lock taken (knex does not wait for it), try again, a little later each time (at most 1 s
 * apart), for as long as another replica may take to migrate (`waitMs`); any other error is
 * thrown at once.
 */
export async function migrateHistory(knex: Knex, directory: string, waitMs = 120_000): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (let attempt = 1; ; attempt++) {
    try {
      await knex.migrate.latest({ directory });
      return;
    } catch (e) {
      const message = String((e as Error)?.message);
      if (Date.now() >= deadline || !CONCURRENT_START.test(message)) throw e;
      if (LOCKED.test(message)) await dropDuplicateLockRows(knex);
      const backoff = Math.min(1_000, 50 * 2 ** Math.min(attempt, 5));
      await new Promise(r => setTimeout(r, backoff / 2 + Math.random() * (backoff / 2)));
    }
  }
}

/**
 * knex inserts its lock row when it finds the lock table empty, without a lock of its own: two
 * replicas starting at once can both insert one. Its lock is then an update of the one row at
 * is_locked = 0 that must touch exactly one row, so with two it fails for ever ("already
 * locked", seen in CI). The extra unlocked rows go; the first row, held or not, stays.
 */
async function dropDuplicateLockRows(knex: Knex): Promise<void> {
  const rows: Array<{ index: number }> = await knex(LOCK_TABLE).select('index').orderBy('index', 'asc');
  if (rows.length < 2) return;
  await knex(LOCK_TABLE).where('index', '>', rows[0].index).andWhere('is_locked', 0).del();
}
