import YAML from 'yaml';
import { jsonTextDepth, MAX_NESTING_DEPTH, valueDepth } from './nestingDepth';

/**
 * A YAML request body, read as JSON when it is JSON (JSON is YAML, and what kubectl sends): the
 * YAML parser took 4.2 s over 2.7 MB of JSON numbers and 0.8 s over 560 KB, the apiserver stalled
 * meanwhile; JSON.parse takes milliseconds. Anything else (a flow mapping that is not JSON, JSON
 * with a comment) is YAML. As for every JSON body here, a key given twice is its last
 * (kube-apiserver reports it only under fieldValidation=Strict); the YAML parser refuses it.
 * `tooDeep` past MAX_NESTING_DEPTH (a JSON text before it is parsed), `undecodable` with the
 * parser's first line.
 */
export function parseYamlText(text: string, tooDeep: () => Error, undecodable: (message: string) => Error): unknown {
  if (/^\s*[{[]/.test(text)) {
    if (jsonTextDepth(text) > MAX_NESTING_DEPTH) throw tooDeep();
    try {
      return JSON.parse(text);
    } catch {
      // YAML, then
    }
  }
  let parsed: unknown;
  try {
    // YAML warnings (complex keys) would be written to stderr for every such request
    parsed = YAML.parse(text, { logLevel: 'error' });
  } catch (e) {
    throw undecodable((e as Error).message.split('\n')[0]);
  }
  if (valueDepth(parsed) > MAX_NESTING_DEPTH) throw tooDeep();
  return parsed;
}
