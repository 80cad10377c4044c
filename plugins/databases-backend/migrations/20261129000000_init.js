// @ts-check

/**
 * Request history and phase transitions of the databases plugin.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('databases_requests', table => {
    table.comment('Every create, update and delete asked through the portal, with its answer');
    table.string('id').primary().notNullable();
    table.string('cluster').notNullable();
    table.string('namespace').notNullable();
    table.string('name').notNullable();
    table.string('action').notNullable();
    table.string('actor').notNullable();
    table.text('request').notNullable();
    table.integer('status').notNullable();
    table.text('message').nullable();
    table.string('at').notNullable().comment('ISO 8601');
    table.index(['cluster', 'namespace', 'name'], 'databases_requests_instance_idx');
  });
  await knex.schema.createTable('databases_transitions', table => {
    table.comment('Every phase transition the backend saw for an instance');
    table.bigIncrements('id').primary();
    table.string('cluster').notNullable();
    table.string('namespace').notNullable();
    table.string('name').notNullable();
    table.string('from_phase').nullable();
    table.string('to_phase').notNullable();
    table.string('reason').nullable();
    table.text('message').nullable();
    table.string('at').notNullable().comment('ISO 8601');
    table.index(['cluster', 'namespace', 'name'], 'databases_transitions_instance_idx');
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('databases_transitions');
  await knex.schema.dropTable('databases_requests');
};
