// @ts-check

/**
 * Phase transitions keyed by the instance's resourceVersion: several backend replicas watch the
 * same clusters and see the same events (the apiserver's resourceVersions are the cluster's, the
 * same on every replica), so each transition is stored once however many replicas record it.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('databases_transitions', table => {
    table.string('resource_version').nullable().comment('resourceVersion of the instance when the phase was seen');
    table.unique(['cluster', 'namespace', 'name', 'resource_version'], {
      indexName: 'databases_transitions_instance_rv_uniq',
    });
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('databases_transitions', table => {
    table.dropUnique(['cluster', 'namespace', 'name', 'resource_version'], 'databases_transitions_instance_rv_uniq');
    table.dropColumn('resource_version');
  });
};
