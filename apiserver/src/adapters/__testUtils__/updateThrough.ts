import type { DatabaseInstanceSpec } from '@internal/plugin-databases-common';
import type { FieldCause } from '../../writes/FieldCause';
import type { KubeObject, OperatorAdapter } from '../types';
import { emptyLookup } from './schemaDerivedFixtures';

/**
 * Applies `change` to the spec `adapter` projects from `current`, as the update path does, with
 * the fields in `without` left out of the next spec (a change that names none of them). Either
 * field of the result may be there: tests look at both.
 */
export function updateThrough(
  adapter: OperatorAdapter,
  current: KubeObject,
  change: Partial<DatabaseInstanceSpec>,
  without: Array<keyof DatabaseInstanceSpec> = [],
): { object?: KubeObject; causes?: FieldCause[] } {
  const kind =
    adapter.kinds.find(k => k.kind === current.kind) ?? adapter.kinds[0];
  const previous = adapter.project(current, kind, emptyLookup).spec;
  const next: DatabaseInstanceSpec = { ...previous, ...change };
  for (const key of without) delete next[key];
  return adapter.write!.applyUpdate(current, next, previous);
}
