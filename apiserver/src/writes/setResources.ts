import type { DatabaseInstanceSpec } from '@internal/plugin-databases-common';
import { mergeResources } from './resources';

/**
 * Puts the requested cpu/memory into `holder[key]` (a ResourceRequirements), keeping every
 * other entry there, and removes the field when nothing is left, so an update never writes an
 * empty object the operator would read as "no limits".
 */
export function setResources(
  holder: Record<string, any>,
  next: DatabaseInstanceSpec['resources'],
  key = 'resources',
): void {
  const merged = mergeResources(holder[key], next);
  if (merged) holder[key] = merged;
  else delete holder[key];
}
