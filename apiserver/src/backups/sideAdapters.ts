import type { OperatorAdapter, RelatedLookup, RelatedRef, ResourceType, SourceKind, KubeObject } from '../adapters/types';

/** What the store's informers need of one side of an adapter (its backup runs, its schedules). */
export interface StoreSide {
  kinds: SourceKind[];
  relatedTypes: ResourceType[];
  relatedRefs(source: KubeObject, kind: SourceKind): RelatedRef[];
  serves?(source: KubeObject, kind: SourceKind, related: RelatedLookup): boolean;
}

const origins = new WeakMap<OperatorAdapter, OperatorAdapter>();

/**
 * One side of each adapter (`sideOf`) as the instance store's informers see an adapter: the
 * side's kinds are the "source" kinds, its related types the related ones, its `serves` the
 * filter. The store's machinery (informers, resourceVersion order, history, late changes) is
 * the instances'; only the projection differs, which finds the real adapter through
 * {@link originOf}.
 */
export function sideAdapters(
  adapters: readonly OperatorAdapter[],
  sideOf: (adapter: OperatorAdapter) => StoreSide | undefined,
  what: string,
): OperatorAdapter[] {
  return adapters.flatMap(adapter => {
    const side = sideOf(adapter);
    if (!side) return [];
    const stand: OperatorAdapter = {
      id: adapter.id,
      engine: adapter.engine,
      operator: adapter.operator,
      capabilityLevel: adapter.capabilityLevel,
      versions: [],
      kinds: side.kinds,
      relatedTypes: side.relatedTypes,
      relatedRefs: (source, kind) => side.relatedRefs(source, kind),
      ...(side.serves && { serves: (source: KubeObject, kind: SourceKind, related: RelatedLookup) => side.serves!(source, kind, related) }),
      project: () => {
        throw new Error(`${adapter.id}: ${what} are projected by their own projection`);
      },
    };
    origins.set(stand, adapter);
    return [stand];
  });
}

/** The adapter a side adapter of {@link sideAdapters} stands for. */
export function originOf(stand: OperatorAdapter): OperatorAdapter {
  const adapter = origins.get(stand);
  if (!adapter) throw new Error(`${stand.id} is not a side adapter`);
  return adapter;
}
