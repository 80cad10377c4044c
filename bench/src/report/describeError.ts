import { repoRoot } from '../system/ApiserverProcess';

/**
 * A failed group's error as results record it: its stack with repo-relative paths (the results
 * are committed; where the checkout lived on the measuring machine means nothing elsewhere).
 */
export function describeError(e: unknown): string {
  return String((e as Error)?.stack ?? e).split(`${repoRoot}/`).join('');
}
