import { beforeAll, describe, expect, it } from '@jest/globals';
import { CRD_RESOURCE, NAMESPACE_RESOURCE } from './builtinResources';
import { MemoryObjectStore } from './MemoryObjectStore';
import { StoreError } from './types';
import { celCompileCauses } from './celCompileCauses';
import { loadUpstreamCrds } from '../operators/__testutils__/upstream';

/**
 * Every `x-kubernetes-validations` rule of the upstream CRDs in ../shared/operators, evaluated:
 * each compiles, and each refuses an object that breaks it and admits one that keeps it. The
 * inventory test fails when an upstream CRD gains a rule no case here exercises.
 */

const upstream = loadUpstreamCrds();

interface RuleAt {
  crd: string;
  path: string;
  rule: string;
}

function rulesOf(crd: Record<string, any>): RuleAt[] {
  const out: RuleAt[] = [];
  const walk = (s: any, path: string) => {
    if (!s || typeof s !== 'object') return;
    for (const r of s['x-kubernetes-validations'] ?? [])
      out.push({ crd: crd.metadata.name, path, rule: r.rule });
    for (const [k, c] of Object.entries(s.properties ?? {}))
      walk(c, path ? `${path}.${k}` : k);
    if (s.items) walk(s.items, `${path}[]`);
  };
  for (const v of crd.spec.versions) walk(v.schema?.openAPIV3Schema, '');
  return out;
}

const allRules = [...upstream.values()].flatMap(rulesOf);

type Obj = Record<string, any>;
interface Case {
  crd: string;
  /** Where the rule sits, as rulesOf names it. */
  path: string;
  good: Obj;
  bad: Obj;
  /** For a transition rule: the object `good` and `bad` update. */
  before?: Obj;
  field: string;
  message: string;
}

const cnpg = (spec: Obj): Obj => ({ spec: { instances: 1, ...spec } });
const initdb = (v: Obj) => cnpg({ bootstrap: { initdb: v } });
const sync = (v: Obj) =>
  cnpg({ postgresql: { synchronous: { method: 'any', number: 1, ...v } } });

const CASES: Case[] = [
  {
    crd: 'mariadbs.k8s.mariadb.com',
    path: 'spec',
    good: { spec: { replicas: 3, galera: { enabled: true } } },
    bad: { spec: { replicas: 2, galera: { enabled: true } } },
    field: 'spec',
    message: 'An odd number of MariaDB instances',
  },
  {
    crd: 'rabbitmqclusters.rabbitmq.com',
    path: 'spec.rabbitmq.envConfig',
    good: { spec: { rabbitmq: { envConfig: 'A=1' } } },
    bad: { spec: { rabbitmq: { envConfig: 'A=$(id)' } } },
    field: 'spec.rabbitmq.envConfig',
    message: 'envConfig must not contain shell command substitution',
  },
  {
    crd: 'clusters.postgresql.cnpg.io',
    path: 'spec',
    good: cnpg({ imageName: 'postgres:17' }),
    bad: cnpg({
      imageName: 'postgres:17',
      imageCatalogRef: {
        apiGroup: 'postgresql.cnpg.io',
        kind: 'ImageCatalog',
        name: 'c',
        major: 17,
      },
    }),
    field: 'spec',
    message: 'imageName and imageCatalogRef are mutually exclusive',
  },
  ...(['builtinLocale', 'icuLocale', 'icuRules'] as const).map((key): Case => ({
    crd: 'clusters.postgresql.cnpg.io',
    path: 'spec.bootstrap.initdb',
    good: initdb({
      [key]: 'x',
      localeProvider: key === 'builtinLocale' ? 'builtin' : 'icu',
    }),
    bad: initdb({ [key]: 'x', localeProvider: 'libc' }),
    field: 'spec.bootstrap.initdb',
    message: `${key} is only available when localeProvider`,
  })),
  {
    crd: 'clusters.postgresql.cnpg.io',
    path: 'spec.imageCatalogRef',
    good: cnpg({
      imageCatalogRef: {
        apiGroup: 'postgresql.cnpg.io',
        kind: 'ClusterImageCatalog',
        name: 'c',
        major: 17,
      },
    }),
    bad: cnpg({
      imageCatalogRef: {
        apiGroup: 'postgresql.cnpg.io',
        kind: 'ConfigMap',
        name: 'c',
        major: 17,
      },
    }),
    field: 'spec.imageCatalogRef',
    message: 'Only image catalogs are supported',
  },
  {
    crd: 'clusters.postgresql.cnpg.io',
    path: 'spec.imageCatalogRef',
    good: cnpg({
      imageCatalogRef: {
        apiGroup: 'postgresql.cnpg.io',
        kind: 'ImageCatalog',
        name: 'c',
        major: 17,
      },
    }),
    bad: cnpg({
      imageCatalogRef: {
        apiGroup: 'example.com',
        kind: 'ImageCatalog',
        name: 'c',
        major: 17,
      },
    }),
    field: 'spec.imageCatalogRef',
    message: 'Only image catalogs are supported',
  },
  {
    crd: 'clusters.postgresql.cnpg.io',
    path: 'spec.postgresql.synchronous',
    good: sync({ dataDurability: 'preferred' }),
    bad: sync({ dataDurability: 'preferred', standbyNamesPre: ['a'] }),
    field: 'spec.postgresql.synchronous',
    message:
      "dataDurability set to 'preferred' requires empty 'standbyNamesPre'",
  },
  {
    crd: 'clusters.postgresql.cnpg.io',
    path: 'spec.postgresql.synchronous.number',
    good: sync({ dataDurability: 'required', number: 1 }),
    bad: sync({ dataDurability: 'required', number: 0 }),
    field: 'spec.postgresql.synchronous.number',
    message: 'The number of synchronous replicas should be greater than zero',
  },
  {
    crd: 'clusters.postgresql.cnpg.io',
    path: 'spec.serviceAccountName',
    before: cnpg({ serviceAccountName: 'a' }),
    good: cnpg({ serviceAccountName: 'a' }),
    bad: cnpg({ serviceAccountName: 'b' }),
    field: 'spec.serviceAccountName',
    message: 'serviceAccountName is immutable',
  },
  {
    crd: 'backups.postgresql.cnpg.io',
    path: 'spec',
    before: { spec: { cluster: { name: 'a' } } },
    good: { spec: { cluster: { name: 'a' } } },
    bad: { spec: { cluster: { name: 'b' } } },
    field: 'spec',
    message: 'BackupSpec is immutable once set',
  },
  {
    crd: 'scheduledbackups.postgresql.cnpg.io',
    path: 'spec.cluster',
    before: { spec: { schedule: '0 0 0 * * *', cluster: { name: 'a' } } },
    good: { spec: { schedule: '0 0 0 * * *', cluster: { name: 'a' } } },
    bad: { spec: { schedule: '0 0 0 * * *', cluster: { name: 'b' } } },
    field: 'spec.cluster',
    message: 'cluster reference is immutable after creation',
  },
];

describe('the CEL rules of the upstream CRDs', () => {
  let store: MemoryObjectStore;
  beforeAll(() => {
    store = new MemoryObjectStore();
    for (const crd of upstream.values()) store.create(CRD_RESOURCE, crd);
    store.create(NAMESPACE_RESOURCE, { metadata: { name: 'cel' } });
  });

  it('all compile', () => {
    expect(allRules.length).toBeGreaterThanOrEqual(13);
    for (const crd of upstream.values())
      crd.spec.versions.forEach((v: any, i: number) =>
        expect({
          crd: crd.metadata.name,
          causes: celCompileCauses(
            v.schema?.openAPIV3Schema,
            `spec.versions[${i}]`,
          ),
        }).toEqual({ crd: crd.metadata.name, causes: [] }),
      );
  });

  it('each have a case here', () => {
    const covered = new Set(CASES.map(c => `${c.crd} ${c.path}`));
    expect(allRules.filter(r => !covered.has(`${r.crd} ${r.path}`))).toEqual(
      [],
    );
  });

  let n = 0;
  const write = (c: Case, body: Obj) => {
    const crd = upstream.get(c.crd)!;
    const def = store.resource({
      group: crd.spec.group,
      version: crd.spec.versions.find((v: any) => v.storage).name,
      plural: crd.spec.names.plural,
    })!;
    const name = `o${++n}`;
    const metadata = { name, namespace: 'cel' };
    if (!c.before)
      return store.create(def, { ...structuredClone(body), metadata });
    store.create(def, { ...structuredClone(c.before), metadata });
    const current = store.get(def, 'cel', name)!;
    return store.update(def, {
      ...structuredClone(body),
      metadata: current.metadata,
    });
  };

  it.each(CASES.map(c => [`${c.crd} ${c.field}: ${c.message}`, c] as const))(
    '%s',
    (_label, c) => {
      expect(() => write(c, c.good)).not.toThrow();
      let error: unknown;
      try {
        write(c, c.bad);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(StoreError);
      expect((error as StoreError).code).toBe(422);
      expect((error as StoreError).details?.causes).toEqual([
        expect.objectContaining({
          reason: 'FieldValueInvalid',
          field: c.field,
          message: expect.stringContaining(c.message),
        }),
      ]);
    },
  );
});
