import type { AdapterWriteSide, OperatorAdapter, SourceKind } from '../types';

/**
 * The descriptive half of an adapter, from its write side's rules: id, engine and operator
 * name, versions offered, and no related objects (adapters that read some override
 * `relatedTypes` and `relatedRefs`). The adapter adds its capability level and `project`.
 */
export function adapterBasics(
  write: AdapterWriteSide,
  kinds: SourceKind[],
): Pick<
  OperatorAdapter,
  | 'id'
  | 'engine'
  | 'operator'
  | 'kinds'
  | 'relatedTypes'
  | 'versions'
  | 'relatedRefs'
  | 'write'
> {
  const { rules } = write;
  return {
    id: rules.operator,
    engine: rules.engine,
    operator: rules.operator,
    kinds,
    relatedTypes: [],
    versions: [...rules.versions],
    relatedRefs: () => [],
    write,
  };
}
