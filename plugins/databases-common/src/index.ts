/**
 * The contract shared by the dbaas apiserver and the Backstage databases plugins.
 *
 * @packageDocumentation
 */
export * from './constants';
export * from './types';
export * from './rest';
export * from './permissions';
export * from './mirroredEvents';
export * from './bindingType';
export * from './backups';
