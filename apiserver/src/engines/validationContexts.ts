import type { EngineValidationContexts } from '../writes/validateSpec';
import type { EngineConfig } from './EngineConfig';

/** What creates and updates validate against per engine: the configured version lists. */
export function validationContexts(
  config: EngineConfig,
): EngineValidationContexts {
  const contexts: EngineValidationContexts = {};
  for (const [engine, overrides] of Object.entries(config.engines)) {
    if (overrides?.versions)
      contexts[engine as keyof EngineValidationContexts] = {
        versions: [...overrides.versions],
      };
  }
  return contexts;
}
