import fs from 'node:fs';
import path from 'node:path';
import type { KubeObject, RelatedLookup } from '../types';

/**
 * A fixture we built ourselves from an upstream CRD schema and README, for states no real
 * capture exists of. `provenance` says so in the file itself.
 */
export interface SchemaDerivedFixture {
  file: string;
  provenance: string;
  object: KubeObject;
  /** Objects the watch cache would hold beside it (StatefulSets...). */
  related: KubeObject[];
}

/** Every `*.schema-derived.json` in a `__fixtures__` folder, sorted by file name. */
export function readSchemaDerivedFixtures(dir: string): SchemaDerivedFixture[] {
  return fs
    .readdirSync(dir)
    .filter(f => f.endsWith('.schema-derived.json'))
    .sort()
    .map(file => {
      const parsed = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
      return {
        file,
        provenance: parsed.provenance,
        object: parsed.object,
        related: parsed.related ?? [],
      };
    });
}

/** A RelatedLookup over a fixed set of objects, matched by apiVersion, kind, namespace and name. */
export function lookupOf(objects: readonly KubeObject[]): RelatedLookup {
  return {
    get: ref =>
      objects.find(
        o =>
          o.apiVersion ===
            (ref.type.group
              ? `${ref.type.group}/${ref.type.version}`
              : ref.type.version) &&
          o.kind === ref.type.kind &&
          o.metadata?.namespace === ref.namespace &&
          o.metadata?.name === ref.name,
      ),
  };
}

/** A lookup that holds nothing (operators whose projection reads no related objects). */
export const emptyLookup: RelatedLookup = { get: () => undefined };
