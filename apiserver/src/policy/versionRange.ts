/**
 * Version ranges for engine versions such as `11.4`, `8.0.36`, `7.2`: a small subset of npm's
 * semver ranges that fits dotted numeric versions without pre-release tags.
 *
 * - Comparators `>=`, `>`, `<=`, `<`, `=` (or none) followed by a dotted version; space-separated
 *   comparators must all hold; `||` separates alternatives of which one must hold.
 * - A comparator compares only as many parts as it names, so a partial version stands for all
 *   of its patch releases as in semver: `11.4` and `=11.4` match `11.4.2`, `<=11.4` allows
 *   `11.4.9`, `>11.4` starts at `11.5`, `<12` refuses `12.0.1`.
 * - `11.x` and `11.*` are `11`; a lone `*` (or `x`) matches every version.
 */

type Operator = '>=' | '>' | '<=' | '<' | '=';

interface Comparator {
  op: Operator;
  /** Empty for `*`, which every version satisfies. */
  parts: number[];
}

/** A parsed range: its text as written (for messages) and its alternatives. */
export interface VersionRange {
  text: string;
  alternatives: Comparator[][];
}

const COMPARATOR =
  /^(>=|<=|==|>|<|=)?v?(?:(\*|x|X)|(\d+(?:\.\d+)*)(?:\.(?:\*|x|X))?)$/;
const VERSION = /^v?(\d+(?:\.\d+)*)$/;

function numbers(text: string): number[] | undefined {
  const parts = text.split('.').map(Number);
  return parts.every(Number.isSafeInteger) ? parts : undefined;
}

/** The numeric parts of a version (`v` prefix allowed), or undefined when it is not dotted numbers. */
export function parseVersionParts(version: string): number[] | undefined {
  const m = VERSION.exec(version.trim());
  return m ? numbers(m[1]) : undefined;
}

/** Parses a range; the error names the offending comparator. */
export function parseVersionRange(
  text: string,
): { range: VersionRange } | { error: string } {
  if (!text.trim()) return { error: 'must not be empty' };
  const alternatives: Comparator[][] = [];
  for (const alternative of text.split('||')) {
    // `>= 10.11` is written with a space often enough to accept it.
    const tokens = alternative
      .trim()
      .replace(/(>=|<=|==|>|<|=)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean);
    if (!tokens.length) return { error: `empty alternative in "${text}"` };
    const comparators: Comparator[] = [];
    for (const token of tokens) {
      const m = COMPARATOR.exec(token);
      const parts = m?.[3] !== undefined ? numbers(m[3]) : [];
      if (!m || !parts) {
        return {
          error: `"${token}" is not a version comparator (expected e.g. ">=10.11", "<12", "11.4" or "11.x")`,
        };
      }
      const op: Operator = !m[1] || m[1] === '==' ? '=' : (m[1] as Operator);
      if (m[2] && op !== '=') {
        return {
          error: `"${token}": a wildcard cannot be compared with ${op}`,
        };
      }
      comparators.push({ op, parts });
    }
    alternatives.push(comparators);
  }
  return { range: { text: text.trim(), alternatives } };
}

/** Compares the first `bound.length` parts of `version` (missing parts are 0) with `bound`. */
function comparePrefix(version: number[], bound: number[]): number {
  for (let i = 0; i < bound.length; i++) {
    const d = (version[i] ?? 0) - bound[i];
    if (d !== 0) return d;
  }
  return 0;
}

function satisfies(version: number[], c: Comparator): boolean {
  const d = comparePrefix(version, c.parts);
  switch (c.op) {
    case '>=':
      return d >= 0;
    case '>':
      return d > 0;
    case '<=':
      return d <= 0;
    case '<':
      return d < 0;
    default:
      return d === 0;
  }
}

/** True when `version` is a dotted numeric version inside `range`; anything unparseable is outside. */
export function versionInRange(version: string, range: VersionRange): boolean {
  const parts = parseVersionParts(version);
  if (!parts) return false;
  return range.alternatives.some(alt => alt.every(c => satisfies(parts, c)));
}
