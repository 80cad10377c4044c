/**
 * Scaffolder actions for databases: `databases:instance:create` and `databases:instance:wait`.
 *
 * @packageDocumentation
 */
export { scaffolderModuleDatabases as default } from './module';
export { createDatabaseInstanceAction, type DatabaseInstanceActionOptions } from './actions/createDatabaseInstanceAction';
export { waitForDatabaseInstanceAction } from './actions/waitForDatabaseInstanceAction';
