/** Dotted numeric engine versions (`11.4`, `8.4.3`, `7.0.15`). */

const VERSION = /^\d+(?:\.\d+)*$/;

/** The numeric parts of a version, or undefined when it is not a dotted number. */
export function parseVersion(value: unknown): number[] | undefined {
  if (typeof value !== 'string' || !VERSION.test(value)) return undefined;
  const parts = value.split('.').map(Number);
  return parts.every(Number.isSafeInteger) ? parts : undefined;
}

/**
 * Compares two dotted versions part by part; missing parts count as 0 (`11.4` = `11.4.0`).
 * Callers pass parseable versions; anything else compares as equal so no refusal is invented.
 */
export function compareVersions(a: string, b: string): -1 | 0 | 1 {
  const pa = parseVersion(a);
  const pb = parseVersion(b);
  if (!pa || !pb) return 0;
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/** Major version (first part). */
export const majorOf = (version: string) => parseVersion(version)?.[0];
