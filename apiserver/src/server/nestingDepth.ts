import { badRequest } from './StatusError';

/**
 * Deepest nesting of objects and arrays a request body may have. kube-apiserver's decoder stops
 * at 10,000; ours is far lower because Node's JSON.stringify and every recursive walk over a
 * document (merge patches, validation, the writes to kube-apiserver) overflow the stack a few
 * thousand levels down, and no DatabaseInstance, patch or DeleteOptions comes close to 100.
 */
export const MAX_NESTING_DEPTH = 100;

/** Nesting depth of JSON text (brackets outside strings), read in one pass before parsing. */
export function jsonTextDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) max = depth;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return max;
}

/** Nesting depth of a parsed value (iterative, so any depth can be measured). */
export function valueDepth(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d + 1 > max) max = d + 1;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

/** The 400 for a body nested deeper than {@link MAX_NESTING_DEPTH}; `what` names the body. */
export const tooDeep = (what: string) =>
  badRequest(`${what}: the body is nested deeper than ${MAX_NESTING_DEPTH} levels`);
