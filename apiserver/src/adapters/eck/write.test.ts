import { describe, it, expect } from '@jest/globals';
import type {
  DatabaseInstance,
  DatabaseInstanceSpec,
} from '@internal/plugin-databases-common';
import { describeCause } from '../../writes/FieldCause';
import { emptyLookup } from '../__testUtils__/schemaDerivedFixtures';
import { updateThrough } from '../__testUtils__/updateThrough';
import type { KubeObject } from '../types';
import { eckAdapter } from './adapter';

const write = eckAdapter.write!;
const kind = eckAdapter.kinds[0];

const elasticsearch = (spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'elasticsearch.k8s.elastic.co/v1',
  kind: 'Elasticsearch',
  metadata: { name: 'search', namespace: 'team-a', generation: 1 },
  spec,
});

const oneNodeSet = (nodeSet: Record<string, unknown> = {}) =>
  elasticsearch({
    version: '9.4.2',
    nodeSets: [{ name: 'default', count: 3, ...nodeSet }],
  });

const update = (
  current: KubeObject,
  change: Partial<DatabaseInstanceSpec>,
  without: Array<keyof DatabaseInstanceSpec> = [],
) => updateThrough(eckAdapter, current, change, without);

const causes = (result: ReturnType<typeof update>) =>
  (result.causes ?? []).map(describeCause);
const nodeSetOf = (result: ReturnType<typeof update>) => {
  expect(result.causes).toBeUndefined();
  return result.object!.spec!.nodeSets[0];
};

describe('eck upgrade paths (Elasticsearch: 9 from 8.18, 8 from 7.17)', () => {
  it.each<[string, string, string | undefined]>([
    ['8.15.3', '8.19.0', undefined],
    ['8.18.0', '9.4.3', undefined],
    ['8.19.0', '9.4.3', undefined],
    [
      '8.15.3',
      '9.4.3',
      'spec.version: Forbidden: upgrading from 8.15.3 to 9.4.3 is not supported by eck: upgrade to 8.18 or later first',
    ],
    [
      '7.17.9',
      '9.4.3',
      'spec.version: Forbidden: upgrading from 7.17.9 to 9.4.3 is not supported by eck: upgrade to 8.18 or later first',
    ],
    [
      '7.10.2',
      '8.19.0',
      'spec.version: Forbidden: upgrading from 7.10.2 to 8.19.0 is not supported by eck: upgrade to 7.17 or later first',
    ],
    ['7.17.9', '8.18.0', undefined],
  ])('%s to %s', (from, to, refusal) => {
    const result = update(
      elasticsearch({ version: from, nodeSets: [{ name: 'a', count: 3 }] }),
      { version: to },
    );
    expect(refusal ? causes(result) : result.object?.spec?.version).toEqual(
      refusal ? [refusal] : to,
    );
  });

  it('does not judge a path when the version does not change', () => {
    const result = update(
      elasticsearch({ version: '8.15.3', nodeSets: [{ name: 'a', count: 3 }] }),
      { replicas: 5 },
    );
    expect(nodeSetOf(result).count).toBe(5);
    expect(result.object?.spec?.version).toBe('8.15.3');
  });
});

describe('eck refuses count, size and resources on several node sets', () => {
  const tiers = elasticsearch({
    version: '9.4.3',
    nodeSets: [
      { name: 'hot', count: 3 },
      { name: 'warm', count: 2 },
    ],
  });
  const message =
    'the Elasticsearch object has 2 node sets; change them in the Elasticsearch object itself';

  it.each<[string, Partial<DatabaseInstanceSpec>]>([
    ['spec.replicas', { replicas: 7 }],
    ['spec.storage.size', { storage: { size: '20Gi' } }],
    ['spec.resources', { resources: { requests: { cpu: '2' } } }],
  ])('%s', (field, change) => {
    expect(causes(update(tiers, change))).toEqual([
      `${field}: Forbidden: ${message}`,
    ]);
  });

  it('takes a version upgrade and deletion protection, which are not per node set, and keeps every set as it was', () => {
    const result = update(tiers, {
      version: '9.4.4',
      deletionProtection: true,
    });
    expect(result.causes).toBeUndefined();
    expect(result.object?.spec?.version).toBe('9.4.4');
    expect(result.object?.spec?.nodeSets).toEqual(tiers.spec!.nodeSets);
  });

  it('takes every change on an object with one node set', () => {
    const result = update(oneNodeSet(), {
      replicas: 5,
      storage: { size: '20Gi' },
      resources: { requests: { cpu: '2' } },
    });
    expect(nodeSetOf(result)).toMatchObject({
      count: 5,
      volumeClaimTemplates: [
        { spec: { resources: { requests: { storage: '20Gi' } } } },
      ],
      podTemplate: {
        spec: {
          containers: [
            { name: 'elasticsearch', resources: { requests: { cpu: '2' } } },
          ],
        },
      },
    });
  });
});

describe('eck writes into the one node set', () => {
  it('leaves an object without node sets as it was, but for the version', () => {
    const current = elasticsearch({ version: '9.4.2' });
    const result = update(current, { version: '9.4.3' });
    expect(result.object?.spec).toEqual({ version: '9.4.3' });
  });

  it('keeps the count when the change names no replicas', () => {
    expect(nodeSetOf(update(oneNodeSet(), {}, ['replicas'])).count).toBe(3);
  });

  it('adds the data claim ECK would otherwise default, beside the claims there are', () => {
    const logs = {
      metadata: { name: 'logs' },
      spec: { resources: { requests: { storage: '1Gi' } } },
    };
    const result = update(oneNodeSet({ volumeClaimTemplates: [logs] }), {
      storage: { size: '30Gi' },
    });
    expect(nodeSetOf(result).volumeClaimTemplates).toEqual([
      logs,
      {
        metadata: { name: 'elasticsearch-data' },
        spec: {
          accessModes: ['ReadWriteOnce'],
          resources: { requests: { storage: '30Gi' } },
        },
      },
    ]);
  });

  it('resizes the data claim in place, keeping its other fields', () => {
    const data = {
      metadata: { name: 'elasticsearch-data', labels: { tier: 'hot' } },
      spec: {
        accessModes: ['ReadWriteOnce'],
        storageClassName: 'fast',
        resources: { requests: { storage: '10Gi' }, limits: { x: '1' } },
      },
    };
    const result = update(
      oneNodeSet({
        volumeClaimTemplates: [{ metadata: { name: 'other' } }, data],
      }),
      { storage: { size: '40Gi', storageClassName: 'fast' } },
    );
    expect(nodeSetOf(result).volumeClaimTemplates).toEqual([
      { metadata: { name: 'other' } },
      {
        ...data,
        spec: {
          ...data.spec,
          resources: { requests: { storage: '40Gi' }, limits: { x: '1' } },
        },
      },
    ]);
  });

  it('writes resources into the nodeSet shorthand when the object uses it', () => {
    const result = update(
      oneNodeSet({
        resources: { requests: { cpu: '1', 'ephemeral-storage': '1Gi' } },
      }),
      { resources: { requests: { cpu: '3', memory: '4Gi' } } },
    );
    const nodeSet = nodeSetOf(result);
    expect(nodeSet.resources).toEqual({
      requests: { cpu: '3', memory: '4Gi', 'ephemeral-storage': '1Gi' },
    });
    expect(nodeSet.podTemplate).toBeUndefined();
  });

  it('drops a shorthand emptied by the change', () => {
    const result = update(
      oneNodeSet({ resources: { requests: { cpu: '1' } } }),
      {
        resources: {},
      },
    );
    expect(nodeSetOf(result)).not.toHaveProperty('resources');
  });

  it('adds no pod template when there are neither resources nor a template', () => {
    const result = update(oneNodeSet(), {}, ['resources']);
    expect(nodeSetOf(result)).toEqual({ name: 'default', count: 3 });
  });

  it('adds the elasticsearch container beside the sidecars of a pod template', () => {
    const sidecar = { name: 'sidecar', image: 'busybox' };
    const result = update(
      oneNodeSet({ podTemplate: { spec: { containers: [sidecar] } } }),
      { resources: { limits: { memory: '4Gi' } } },
    );
    expect(nodeSetOf(result).podTemplate.spec.containers).toEqual([
      sidecar,
      { name: 'elasticsearch', resources: { limits: { memory: '4Gi' } } },
    ]);
  });

  it('merges into the elasticsearch container, and removes resources emptied by the change', () => {
    const es = {
      name: 'elasticsearch',
      env: [{ name: 'A', value: '1' }],
      resources: { requests: { cpu: '1' } },
    };
    const sidecar = { name: 'sidecar' };
    const grown = update(
      oneNodeSet({ podTemplate: { spec: { containers: [sidecar, es] } } }),
      { resources: { requests: { cpu: '2' } } },
    );
    expect(nodeSetOf(grown).podTemplate.spec.containers).toEqual([
      sidecar,
      { ...es, resources: { requests: { cpu: '2' } } },
    ]);
    const emptied = update(
      oneNodeSet({ podTemplate: { spec: { containers: [es] } } }),
      { resources: {} },
    );
    expect(nodeSetOf(emptied).podTemplate.spec.containers).toEqual([
      { name: 'elasticsearch', env: es.env },
    ]);
  });
});

describe('eck new objects and connection', () => {
  const instance: DatabaseInstance = {
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseInstance',
    metadata: { name: 'search', namespace: 'team-a' },
    spec: {
      engine: 'elasticsearch',
      topology: 'cluster',
      version: '9.4.3',
      replicas: 3,
      storage: { size: '10Gi' },
    },
  };

  it('creates one node set that runs without raising vm.max_map_count', () => {
    const object = write.toOperatorObject(instance);
    expect(object.spec).toEqual({
      version: '9.4.3',
      nodeSets: [
        {
          name: 'default',
          count: 3,
          config: { 'node.store.allow_mmap': false },
          volumeClaimTemplates: [
            {
              metadata: { name: 'elasticsearch-data' },
              spec: expect.objectContaining({
                resources: { requests: { storage: '10Gi' } },
              }),
            },
          ],
        },
      ],
    });
  });

  it('connects to the http Service over TLS as elastic', () => {
    const source = write.toOperatorObject(instance);
    const projected = eckAdapter.project(source, kind, emptyLookup);
    const secret: KubeObject = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'search-es-elastic-user', namespace: 'team-a' },
      data: { elastic: Buffer.from('s3cret').toString('base64') },
    };
    const details = write.connection(projected, source, secret);
    expect(details).toMatchObject({
      username: 'elastic',
      password: 's3cret',
      secretRef: { name: 'search-es-elastic-user' },
      uri: 'https://elastic:s3cret@search-es-http.team-a.svc:9200',
      endpoints: [
        expect.objectContaining({
          name: 'http',
          host: 'search-es-http.team-a.svc',
          port: 9200,
        }),
      ],
    });
    expect(write.connectionSecretName(source)).toBe('search-es-elastic-user');
    expect(write.secretsToCreate(instance, () => 'x')).toEqual([]);
  });
});
