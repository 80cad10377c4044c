import { beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { CRD_RESOURCE } from './builtinResources';
import { MemoryObjectStore } from './MemoryObjectStore';
import { StoreError } from './types';

// packages/kube-emulator/src/store → ../shared/operators beside the repository root
const OPERATORS = path.resolve(__dirname, '../../../../../shared/operators');

function readDocs(
  dir: string,
): Array<{ file: string; doc: Record<string, any> }> {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter(f => f.endsWith('.yaml'))
    .flatMap(file =>
      parseAllDocuments(fs.readFileSync(path.join(dir, file), 'utf8'))
        .map(d => d.toJS())
        .filter(doc => doc && typeof doc === 'object')
        .map(doc => ({ file, doc })),
    );
}

const operators = fs
  .readdirSync(OPERATORS)
  .filter(d => fs.existsSync(path.join(OPERATORS, d, 'crds')));
const crds = operators.flatMap(op =>
  readDocs(path.join(OPERATORS, op, 'crds')),
);
const samples = operators.flatMap(op =>
  readDocs(path.join(OPERATORS, op, 'samples')).map(s => ({ ...s, op })),
);

/** A store with every upstream CRD created in it. */
function storeWithCrds(): MemoryObjectStore {
  const store = new MemoryObjectStore();
  for (const { doc } of crds) store.create(CRD_RESOURCE, doc);
  return store;
}

describe('upstream operator CRDs', () => {
  // the samples only dry-run into it, so they share one; tests that change CRDs have their own
  let shared: MemoryObjectStore;
  beforeAll(() => {
    shared = storeWithCrds();
  });

  it('finds the six operators', () => {
    expect(operators.sort()).toEqual([
      'cloudnative-pg',
      'eck',
      'mariadb-operator',
      'mysql-operator',
      'rabbitmq-cluster-operator',
      'redis-operator',
    ]);
  });

  it('registers every CRD by creating it, and marks it Established with accepted names', () => {
    const store = new MemoryObjectStore();
    for (const { doc } of crds) {
      const created = store.create(CRD_RESOURCE, doc);
      const conditions = (created.status as any).conditions as Array<{
        type: string;
        status: string;
      }>;
      expect(conditions).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ type: 'Established', status: 'True' }),
          expect.objectContaining({ type: 'NamesAccepted', status: 'True' }),
        ]),
      );
      expect((created.status as any).acceptedNames.plural).toBe(
        doc.spec.names.plural,
      );
      for (const v of doc.spec.versions.filter((x: any) => x.served)) {
        const def = store.resource({
          group: doc.spec.group,
          version: v.name,
          plural: doc.spec.names.plural,
        });
        expect(def).toMatchObject({
          kind: doc.spec.names.kind,
          namespaced: doc.spec.scope === 'Namespaced',
        });
        expect(def!.statusSubresource).toBe(!!v.subresources?.status);
      }
    }
    expect(crds.length).toBeGreaterThanOrEqual(16);
  });

  // Samples of kinds whose CRDs are not among the fixtures (EnterpriseSearch, autoscalers,
  // CloudNativePG's ImageCatalog) cannot be served.
  const servedKinds = new Set(
    crds.map(c => `${c.doc.spec.group}/${c.doc.spec.names.kind}`),
  );
  const groupKind = (doc: Record<string, any>) =>
    `${doc.apiVersion.includes('/') ? doc.apiVersion.split('/')[0] : ''}/${doc.kind}`;
  const servable = samples.filter(
    s => servedKinds.has(groupKind(s.doc)) || s.doc.apiVersion === 'v1',
  );

  it('serves the kinds of all samples but the ones without a CRD fixture', () => {
    const unserved = samples
      .filter(s => !servable.includes(s))
      .map(s => s.doc.kind);
    expect([...new Set(unserved)].sort()).toEqual([
      'ElasticsearchAutoscaler',
      'EnterpriseSearch',
      'ImageCatalog',
    ]);
  });

  it.each(
    servable.map(
      s =>
        [
          `${s.op}/${s.file} ${s.doc.kind} ${s.doc.metadata?.name}`,
          s.doc,
        ] as const,
    ),
  )('accepts the upstream sample %s', (_label, doc) => {
    const [group, version] = doc.apiVersion.includes('/')
      ? doc.apiVersion.split('/')
      : ['', doc.apiVersion];
    const def = shared
      .resources()
      .find(
        r => r.group === group && r.version === version && r.kind === doc.kind,
      )!;
    const ns = `sample-${Math.random().toString(36).slice(2, 8)}`;
    shared.create(
      { group: '', version: 'v1', plural: 'namespaces' },
      { metadata: { name: ns } },
    );
    const obj = {
      ...doc,
      metadata: {
        ...doc.metadata,
        ...(def.namespaced ? { namespace: ns } : {}),
      },
    };
    const dry = shared.create(def, obj, { dryRun: true });
    expect(dry.metadata.name).toBe(doc.metadata.name);
  });

  it('reports the field path of a bad field in an upstream CRD', () => {
    const def = shared.resources().find(r => r.kind === 'MariaDB')!;
    let err: unknown;
    try {
      shared.create(def, {
        metadata: { name: 'bad', namespace: 'default' },
        spec: { replicas: 'three' },
      });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe(422);
    expect((err as StoreError).details?.causes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          field: 'spec.replicas',
          reason: 'FieldValueTypeInvalid',
        }),
      ]),
    );
  });

  it('removes the served resource and its objects when the CRD is deleted', () => {
    const store = storeWithCrds();
    const crd = crds.find(
      c => c.doc.spec.names.kind === 'RabbitmqCluster',
    )!.doc;
    const key = {
      group: crd.spec.group,
      version: 'v1beta1',
      plural: crd.spec.names.plural,
    };
    store.create(key, {
      metadata: { name: 'mq', namespace: 'default' },
      spec: {},
    });
    const deleted: string[] = [];
    const w = store.watch(store.currentRV(), e =>
      deleted.push(`${e.type} ${e.object.kind}`),
    );
    store.delete(CRD_RESOURCE, undefined, crd.metadata.name);
    w.stop();
    expect(store.resource(key)).toBeUndefined();
    expect(deleted).toEqual([
      'DELETED RabbitmqCluster',
      'DELETED CustomResourceDefinition',
    ]);
  });
});
