export { defaultOptions, type Options } from './Options';
export { parseOptions, envName } from './parseOptions';
export { validateOptions } from './validateOptions';
