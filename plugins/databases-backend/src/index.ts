/**
 * The databases backend plugin: `backend.add(import('@internal/plugin-databases-backend'))`,
 * plus `catalogModuleDatabases` for catalog entities and the permission rules for policies.
 *
 * @packageDocumentation
 */
export { databasesPlugin as default } from './plugin';
export { catalogModuleDatabases } from './catalog/catalogModuleDatabases';
export { instanceToEntity, ANNOTATION_CLUSTER, ANNOTATION_SCOPE } from './catalog/instanceToEntity';
export { DatabasesCatalogAccess } from './catalog/DatabasesCatalogAccess';
export { databasesCatalogAccessServiceRef } from './catalog/databasesCatalogAccessServiceRef';
export {
  databasesInstanceConditions,
  createDatabasesInstanceConditionalDecision,
  databasesInstanceRules,
  databasesInstanceResourceRef,
} from './permissions/rules';
export { impersonationFor, type ImpersonationOptions } from './kube/impersonationFor';
export { clusterSetServiceRef } from './watch/clusterSetServiceRef';
export type { ClusterSet } from './watch/ClusterSet';
export type { InstanceRequests, InstanceCaller } from './instances/InstanceRequests';
