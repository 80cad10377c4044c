import type { SourceKind } from '../../adapters/types';

/** An operator kind of no real operator, for tests of the shared status code. */
export const THING_KIND: SourceKind = {
  group: 'example.com',
  version: 'v1',
  plural: 'things',
  kind: 'Thing',
  topologies: ['standalone'],
};
