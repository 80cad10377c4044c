import { badRequest } from './StatusError';

/** One `field=value` / `field==value` / `field!=value` term. */
export interface FieldRequirement {
  field: string;
  operator: '=' | '!=';
  value: string;
}

/** Splits on separators not preceded by a backslash (apimachinery `splitTerms`/`splitTerm`). */
function splitUnescaped(s: string, sep: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\' && i + 1 < s.length) {
      cur += c + s[i + 1];
      i++;
    } else if (c === sep) {
      out.push(cur);
      cur = '';
    } else {
      cur += c;
    }
  }
  out.push(cur);
  return out;
}

const unescape = (s: string) => s.replace(/\\(.)/g, '$1');

/**
 * Parses a field selector the way apimachinery's `fields.ParseSelector` does: comma = AND, operators
 * tried in the order `!=`, `==`, `=`, backslash escapes. Throws a 400 StatusError on bad syntax.
 */
export function parseFieldSelector(selector: string): FieldRequirement[] {
  const trimmed = selector.trim();
  if (!trimmed) return [];
  return splitUnescaped(trimmed, ',').map(term => {
    for (const op of ['!=', '==', '='] as const) {
      const idx = findUnescaped(term, op);
      if (idx >= 0) {
        return {
          field: unescape(term.slice(0, idx)).trim(),
          operator: op === '!=' ? '!=' : '=',
          value: unescape(term.slice(idx + op.length)),
        };
      }
    }
    throw badRequest(`invalid selector: '${selector}'; can't understand '${term}'`);
  });
}

function findUnescaped(s: string, op: string): number {
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\') {
      i++;
      continue;
    }
    if (s.startsWith(op, i)) return i;
  }
  return -1;
}

/**
 * Checks every requirement names a supported field; otherwise the 400 kube-apiserver gives
 * (`"x" is not a known field selector: only "a", "b"`).
 */
export function validateFieldSelector(reqs: FieldRequirement[], supported: readonly string[]): void {
  for (const r of reqs) {
    if (!supported.includes(r.field)) {
      throw badRequest(
        `"${r.field}" is not a known field selector: only ${supported.map(f => `"${f}"`).join(', ')}`,
      );
    }
  }
}

/** The value of the first `field=v` requirement (apimachinery `RequiresExactMatch`). */
export function requiresExactMatch(reqs: FieldRequirement[], field: string): string | undefined {
  return reqs.find(r => r.field === field && r.operator === '=')?.value;
}

/** True when `fields` satisfies every requirement; a missing field counts as ''. */
export function matchesFields(reqs: FieldRequirement[], fields: Record<string, string>): boolean {
  return reqs.every(r => ((fields[r.field] ?? '') === r.value) === (r.operator === '='));
}
