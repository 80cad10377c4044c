export type { EngineConfig, EngineOverrides } from './EngineConfig';
export { NO_ENGINE_CONFIG } from './EngineConfig';
export { defaultSizes } from './defaultSizes';
export { engineOffer, type EngineOffer } from './engineOffer';
export { loadEngineConfig } from './loadEngineConfig';
export {
  parseEngineConfig,
  type EngineConfigParseResult,
} from './parseEngineConfig';
export { validationContexts } from './validationContexts';
