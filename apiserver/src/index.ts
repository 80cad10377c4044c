/**
 * The dbaas.platform.dev aggregated API server, as a library (main.ts is the process entry).
 *
 * @packageDocumentation
 */
export { startApiserver } from './startApiserver';
export { HEAP_SETTLED } from './memory/heapSettler';
export type { RunningApiserver } from './startApiserver';
export { defaultOptions } from './options/Options';
export type { Options } from './options/Options';
export { parseOptions } from './options/parseOptions';
export { validateOptions } from './options/validateOptions';
export { adapters } from './adapters/registry';
export { waitForStore } from './server/waitForStore';
export { rolloutSignature } from './status/rolloutMemory';
