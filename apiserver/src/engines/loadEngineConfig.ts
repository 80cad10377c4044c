import { readFileSync } from 'node:fs';
import type { OperatorAdapter } from '../adapters/types';
import { NO_ENGINE_CONFIG } from './EngineConfig';
import {
  type EngineConfigParseResult,
  parseEngineConfig,
} from './parseEngineConfig';

/**
 * Reads and parses an `--engine-config` file; every error starts with the file's name. No file
 * (`undefined`) means no overrides.
 */
export function loadEngineConfig(
  file: string | undefined,
  adapters: readonly OperatorAdapter[],
  readFile: (file: string) => string = f => readFileSync(f, 'utf8'),
): EngineConfigParseResult {
  if (file === undefined) return { config: NO_ENGINE_CONFIG };
  let text: string;
  try {
    text = readFile(file);
  } catch (err) {
    return { errors: [`${file}: cannot be read: ${(err as Error).message}`] };
  }
  const result = parseEngineConfig(text, adapters);
  return 'errors' in result
    ? { errors: result.errors.map(e => `${file}: ${e}`) }
    : result;
}
