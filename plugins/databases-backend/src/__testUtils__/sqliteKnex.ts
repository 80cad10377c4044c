import knexFactory, { type Knex } from 'knex';

/** A knex on the SQLite database file `file` (the plugin's history store in tests). */
export const sqliteKnex = (file: string): Knex => knexFactory({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true });
