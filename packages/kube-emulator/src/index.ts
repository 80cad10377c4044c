/**
 * An in-process Kubernetes API with emulated database operators, for development and tests.
 * Nothing in the apiserver or the plugins may import this package.
 *
 * @packageDocumentation
 */
export { KubeEmulator } from './KubeEmulator';
export type { KubeEmulatorOptions, ApiServiceRegistration } from './KubeEmulator';
export { loadCompactCrds } from './crds';
export { DEMO_INSTANCES, DEMO_TEAMS } from './seed';
export type { HealthMode, ObjectRef } from './operators';
export type { ApiServerFault, ApiServerFaultOptions } from './server/createApiServer';
export { layerPackageBinary } from './rbac/helmBinary';
