/**
 * Node.js library of the databases plugin, for other backend plugins and modules.
 *
 * @packageDocumentation
 */
export { databasesServiceRef } from './databasesServiceRef';
export { DatabasesClient } from './DatabasesClient';
export type { CreateInstanceInput, DatabasesService, InstanceKey, WaitOptions } from './DatabasesService';
