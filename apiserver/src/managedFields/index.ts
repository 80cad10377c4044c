export { applyConfiguration, BEFORE_FIRST_APPLY, recordUpdate, type ApplyOutcome, type FieldConflict } from './fieldManager';
export { leafPaths, pathString, trackedPart } from './fieldPaths';
export { managedTime, type Manager, type ManagedFieldsEntry } from './managers';
export { managerName } from './managerName';
export { recordedManagedFields, recordManagers, requestManagers, servedManagers } from './recordedManagedFields';
