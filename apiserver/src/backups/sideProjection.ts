import type { DatabaseInstance } from '@internal/plugin-databases-common';
import type { KubeObject, OperatorAdapter, RelatedLookup, SourceKind } from '../adapters/types';
import { asServed, type Projection, type ProjectionInput, type ServedShape } from '../cache/projectInstance';

/**
 * A ProjectedStore's projection (InformerInstanceStore's `project`) for a side of the adapters
 * (backup runs, schedules): the side's projection of the object under its served name, with the
 * Stale and NameConflict conditions and no rollout memory; `fallback` where the side throws (the
 * object exists, its state is not understood). Pure.
 */
export function sideProjection<T extends ServedShape>(
  project: (adapter: OperatorAdapter, source: KubeObject, kind: SourceKind, related: RelatedLookup) => T,
  fallback: (input: Pick<ProjectionInput, 'entry' | 'source'>, err: unknown) => T,
): (input: ProjectionInput) => Projection {
  return input => {
    let projected: T;
    try {
      projected = project(input.entry.adapter, input.source, input.entry.kind, input.related);
    } catch (err) {
      projected = fallback(input, err);
    }
    // the store's types name DatabaseInstance (its first and main kind); ProjectedStore reads it back
    return asServed(projected, input) as unknown as Projection & { projected: DatabaseInstance };
  };
}
