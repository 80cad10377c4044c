export { createInstance } from './createInstance';
export { deleteCollection, deleteInstance, deletionProtected } from './deleteInstance';
export { KeyedMutex } from './KeyedMutex';
export { noPolicy, type PolicyChecker, type PolicyRequest } from './PolicyChecker';
export { serveConnection } from './serveConnection';
export { serveDiagnosis } from './serveDiagnosis';
export { patchInstance, updateInstance } from './updateInstance';
export type { WriteDeps } from './WriteDeps';
export { createBackup, deleteBackup, type BackupWriteDeps } from './backupWrites';
