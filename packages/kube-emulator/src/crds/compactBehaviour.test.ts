import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { loadCompactCrds } from './loadCompactCrds';
import { isOpaque } from './compareSchemas';
import { SchemaValidator } from '../store/SchemaValidator';
import { MemoryObjectStore } from '../store/MemoryObjectStore';
import { CRD_RESOURCE } from '../store/builtinResources';
import { StoreError } from '../store/types';
import {
  loadUpstreamCrds,
  UPSTREAM_OPERATORS_DIR,
} from '../operators/__testutils__/upstream';

/**
 * The demo's compact CRDs prune, default-check and refuse what the operators' own CRDs do: on
 * every upstream sample of their kinds and on objects generated from the fields they declare
 * (valid and invalid values, unknown fields at every level). Generation is seeded; a failure
 * names the seed and the object.
 */

type Obj = Record<string, any>;
const compact = loadCompactCrds();
const upstream = loadUpstreamCrds();
const validator = new SchemaValidator();

const samples: Obj[] = fs
  .readdirSync(UPSTREAM_OPERATORS_DIR)
  .flatMap(op => {
    const dir = path.join(UPSTREAM_OPERATORS_DIR, op, 'samples');
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir)
      .filter(f => f.endsWith('.yaml'))
      .flatMap(f =>
        YAML.parseAllDocuments(fs.readFileSync(path.join(dir, f), 'utf8')).map(
          d => d.toJS(),
        ),
      );
  })
  .filter(o => o && typeof o === 'object');

/** What a cluster does with an object: the fields it prunes and the causes it refuses it with. */
function outcome(schema: unknown, obj: Obj) {
  const { causes, pruned } = validator.validate(schema, structuredClone(obj));
  return {
    pruned: [...pruned].sort(),
    causes: causes.map(c => `${c.field}: ${c.message}`).sort(),
  };
}

function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A value for a declared schema node: mostly plausible, sometimes wrong, with unknown fields. */
function generate(schema: Obj, random: () => number, depth = 0): unknown {
  const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)];
  if (random() < 0.05) return pick(['wrong', 7, true, [], {}]);
  if (Array.isArray(schema.enum)) return pick([...schema.enum, 'Bogus']);
  if (schema['x-kubernetes-int-or-string'])
    return pick([1, 3, '10Gi', '1.5Gi', 'lots', '50%', -1]);
  switch (schema.type) {
    case 'integer':
      return pick([0, 1, 2, 3, 5, -1, 2 ** 31]);
    case 'number':
      return pick([0, 0.5, 2]);
    case 'boolean':
      return random() < 0.5;
    case 'string':
      return pick(['x', '', 'mariadb:11.4', '10Gi', 'lots', '$(id)']);
    case 'array': {
      const n = Math.floor(random() * 3);
      return Array.from({ length: n }, () =>
        schema.items ? generate(schema.items, random, depth + 1) : 'x',
      );
    }
    default: {
      const out: Obj = {};
      // opaque nodes are the one allowed difference: they keep what they are sent unvalidated
      for (const [key, sub] of Object.entries<Obj>(schema.properties ?? {}))
        if (!isOpaque(sub) && random() < 0.6 && depth < 6)
          out[key] = generate(sub, random, depth + 1);
      if (
        schema.additionalProperties &&
        typeof schema.additionalProperties === 'object'
      )
        out.someKey = generate(schema.additionalProperties, random, depth + 1);
      if (random() < 0.3) out.zzTypo = pick([1, 'x', { nested: true }]);
      return out;
    }
  }
}

const SEED = Number(process.env.COMPACT_SEED ?? 20261201);
const GENERATED = 150;

describe.each(compact.map(c => [c.metadata.name as string, c] as const))(
  'compact CRD %s behaves as upstream',
  (name, ours) => {
    const theirs = upstream.get(name)!;
    const versions: Obj[] = ours.spec.versions.filter((v: Obj) => v.served);

    it.each(versions.map(v => [v.name as string, v] as [string, Obj]))(
      '%s: on the upstream samples of its kind',
      (version: string, v: Obj) => {
        const u = theirs.spec.versions.find((x: Obj) => x.name === version);
        const mine = samples.filter(
          s =>
            s.kind === ours.spec.names.kind &&
            s.apiVersion === `${ours.spec.group}/${version}`,
        );
        for (const s of mine)
          expect({
            sample: s.metadata?.name,
            ...outcome(v.schema.openAPIV3Schema, s),
          }).toEqual({
            sample: s.metadata?.name,
            ...outcome(u.schema.openAPIV3Schema, s),
          });
      },
    );

    it.each(versions.map(v => [v.name as string, v] as [string, Obj]))(
      `%s: on ${GENERATED} generated objects`,
      (version: string, v: Obj) => {
        const u = theirs.spec.versions.find((x: Obj) => x.name === version);
        const random = mulberry32(SEED);
        let refused = 0;
        let pruned = 0;
        for (let i = 0; i < GENERATED; i++) {
          const root = v.schema.openAPIV3Schema;
          const obj = {
            apiVersion: `${ours.spec.group}/${version}`,
            kind: ours.spec.names.kind,
            metadata: { name: `g${i}` },
            spec: generate(root.properties.spec, random),
          };
          const a = outcome(root, obj);
          expect({ seed: SEED, obj, ...a }).toEqual({
            seed: SEED,
            obj,
            ...outcome(u.schema.openAPIV3Schema, obj),
          });
          if (a.causes.length) refused++;
          if (a.pruned.length) pruned++;
        }
        // the generator reaches both outcomes, so the comparison is not vacuous
        expect(refused).toBeGreaterThan(10);
        expect(pruned).toBeGreaterThan(10);
      },
    );
  },
);

describe('the objects a real cluster refuses or prunes, on the compact MariaDB CRD', () => {
  const store = new MemoryObjectStore();
  for (const crd of compact) store.create(CRD_RESOURCE, crd);
  const def = store.resource({
    group: 'k8s.mariadb.com',
    version: 'v1alpha1',
    plural: 'mariadbs',
  })!;
  const refusal = (spec: Obj) => {
    try {
      store.create(
        def,
        { metadata: { name: 'm', namespace: 'default' }, spec },
        { dryRun: true },
      );
    } catch (e) {
      const causes = ((e as StoreError).details as { causes?: Obj[] })?.causes;
      return causes?.map(c => `${c.field}: ${c.message}`);
    }
    return undefined;
  };

  it('refuses a Galera cluster of two replicas, with the upstream rule message', () => {
    expect(refusal({ replicas: 2, galera: { enabled: true } })).toEqual([
      expect.stringMatching(
        /^spec: Invalid value: "object": An odd number of MariaDB instances/,
      ),
    ]);
  });

  it('refuses a storage size that is no quantity', () => {
    expect(refusal({ storage: { size: 'lots' } })).toEqual([
      expect.stringMatching(
        /^spec.storage.size: Invalid value: "lots": spec.storage.size in body should match/,
      ),
    ]);
  });

  it('prunes an unknown spec field', () => {
    const created = store.create(
      def,
      {
        metadata: { name: 'typo', namespace: 'default' },
        spec: { replicasTypo: 3 },
      },
      { dryRun: true },
    );
    expect(created.spec).not.toHaveProperty('replicasTypo');
  });
});
