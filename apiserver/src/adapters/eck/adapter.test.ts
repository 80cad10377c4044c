import { describe, it, expect } from '@jest/globals';
import type { KubeObject } from '../types';
import { readSample } from '../__testUtils__/operatorFiles';
import { emptyLookup } from '../__testUtils__/schemaDerivedFixtures';
import { specSignature } from '../../status/rolloutMemory';
import { eckAdapter } from './adapter';

const kind = eckAdapter.kinds[0];
const project = (object: KubeObject) =>
  eckAdapter.project(object, kind, emptyLookup);
const sample = (file: string) => {
  const o = readSample('eck', file, 'Elasticsearch');
  return {
    ...o,
    metadata: { ...o.metadata, namespace: 'search', generation: 2 },
  };
};

describe('eckAdapter on upstream samples', () => {
  it('projects elasticsearch.yaml: version, Σ nodeSet counts, es-http endpoint, elastic user Secret', () => {
    const object = sample('elasticsearch.yaml');
    const instance = project(object);
    const nodes = object.spec.nodeSets.reduce(
      (n: number, s: any) => n + s.count,
      0,
    );
    expect(instance.spec).toMatchObject({
      engine: 'elasticsearch',
      version: object.spec.version,
      topology: 'cluster',
      replicas: nodes,
    });
    expect(instance.status?.endpoints).toEqual([
      {
        name: 'http',
        host: `${object.metadata.name}-es-http.search.svc`,
        port: 9200,
      },
    ]);
    expect(instance.status?.credentialsSecretRef).toEqual({
      name: `${object.metadata.name}-es-elastic-user`,
    });
    expect(instance.status?.phase).toBe('Pending');
  });

  it('reads the elasticsearch-data claim size of recipes-maps-02-es-kb.yaml', () => {
    expect(project(sample('recipes-maps-02-es-kb.yaml')).spec.storage).toEqual({
      size: '50Gi',
    });
  });
});

describe('eckAdapter states', () => {
  const base = () => sample('elasticsearch.yaml');
  const desired = () =>
    base().spec.nodeSets.reduce((n: number, s: any) => n + s.count, 0);
  const withStatus = (status: Record<string, unknown>): KubeObject => ({
    ...base(),
    status: { observedGeneration: 2, ...status },
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    [
      'green and Ready',
      {
        phase: 'Ready',
        health: 'green',
        availableNodes: desired(),
        version: '9.4.3',
      },
      'Ready',
      'AllReplicasReady',
    ],
    [
      'yellow',
      {
        phase: 'Ready',
        health: 'yellow',
        availableNodes: desired(),
        version: '9.4.3',
      },
      'Degraded',
      'HealthYellow',
    ],
    [
      'red',
      {
        phase: 'Ready',
        health: 'red',
        availableNodes: desired(),
        version: '9.4.3',
      },
      'Failed',
      'HealthRed',
    ],
    [
      'new cluster not reachable yet',
      { phase: 'ApplyingChanges', health: 'unknown', availableNodes: 0 },
      'Provisioning',
      'ApplyingChanges',
    ],
    [
      'upgrade under way',
      {
        phase: 'ApplyingChanges',
        health: 'yellow',
        availableNodes: desired(),
        version: '9.4.2',
        inProgressOperations: { upgrade: { nodes: [{ name: 'n-0' }] } },
      },
      'Updating',
      'ApplyingChanges',
    ],
    [
      'spec rejected',
      {
        phase: 'Invalid',
        conditions: [
          {
            type: 'ReconciliationComplete',
            status: 'False',
            message: 'invalid nodeSets',
          },
        ],
      },
      'Failed',
      'InvalidSpec',
    ],
    [
      'unreachable after having run',
      {
        phase: 'Ready',
        health: 'green',
        version: '9.4.3',
        conditions: [
          {
            type: 'ElasticsearchIsReachable',
            status: 'False',
            message: 'Service has no endpoints',
          },
        ],
      },
      'Failed',
      'ElasticsearchUnreachable',
    ],
    [
      'spec change not yet observed',
      {
        phase: 'Ready',
        health: 'green',
        availableNodes: desired(),
        version: '9.4.3',
        observedGeneration: 1,
      },
      'Updating',
      'GenerationNotObserved',
    ],
    [
      'phase this adapter does not know',
      { phase: 'Reticulating' },
      'Unknown',
      'UnrecognizedPhase',
    ],
    [
      // ECK writes status.version as soon as the first nodes of a new cluster run: no sign it ran
      'changes applied with nodes running and no operation that only an existing cluster has',
      { phase: 'ApplyingChanges', availableNodes: 1, version: '9.4.3' },
      'Provisioning',
      'ApplyingChanges',
    ],
    [
      'a downscale under way before status.version was ever written',
      {
        phase: 'ApplyingChanges',
        availableNodes: 1,
        inProgressOperations: { downscale: { nodes: [{ name: 'n-2' }] } },
      },
      'Updating',
      'ApplyingChanges',
    ],
    [
      'an upgrade under way before status.version was ever written',
      {
        phase: 'ApplyingChanges',
        availableNodes: 1,
        inProgressOperations: { upgrade: { nodes: [{ name: 'n-0' }] } },
      },
      'Updating',
      'ApplyingChanges',
    ],
    [
      'an upscale listed is no sign the cluster ran',
      {
        phase: 'ApplyingChanges',
        availableNodes: 1,
        inProgressOperations: { upscale: { nodes: [{ name: 'n-2' }] } },
      },
      'Provisioning',
      'ApplyingChanges',
    ],
    [
      'data migrating off nodes with every node up is a change in progress',
      {
        phase: 'MigratingData',
        health: 'green',
        availableNodes: desired(),
        version: '9.4.3',
      },
      'Updating',
      'MigratingData',
    ],
    [
      'Operational (the phase name before ECK 1.0)',
      { phase: 'Operational', health: 'green', availableNodes: desired() },
      'Ready',
      'AllReplicasReady',
    ],
    [
      'Pending (the phase name before ECK 1.0)',
      { phase: 'Pending', availableNodes: 0 },
      'Provisioning',
      'Pending',
    ],
    [
      'node shutdown stalled on a cluster that serves',
      {
        phase: 'Stalled',
        health: 'green',
        availableNodes: desired(),
        version: '9.4.3',
      },
      'Degraded',
      'Stalled',
    ],
  ])('%s', (_name, status, phase, reason) => {
    const instance = project(withStatus(status));
    expect({
      phase: instance.status?.phase,
      reason: instance.status?.reason,
    }).toEqual({ phase, reason });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['Stalled', { phase: 'Stalled', version: '9.4.3' }, 'node shutdown stuck'],
    ['ApplyingChanges', { phase: 'ApplyingChanges' }, 'node shutdown stuck'],
    ['Invalid', { phase: 'Invalid' }, 'node shutdown stuck'],
  ])(
    'says why from the ReconciliationComplete condition (%s)',
    (_name, status, message) => {
      const condition = {
        type: 'ReconciliationComplete',
        status: 'False',
        message,
        lastTransitionTime: '2026-11-30T10:00:00Z',
      };
      const instance = project(
        withStatus({ ...status, conditions: [condition] }),
      );
      expect(instance.status?.message).toBe(message);
      // The Ready condition changed when the operator's verdict did.
      expect(instance.status?.conditions).toContainEqual(
        expect.objectContaining({
          type: 'Ready',
          status: 'False',
          lastTransitionTime: condition.lastTransitionTime,
        }),
      );
    },
  );

  it('changes applied to a cluster the apiserver recorded Ready (ready-spec) are Updating', () => {
    const applying = withStatus({
      phase: 'ApplyingChanges',
      availableNodes: 1,
      version: '9.4.3',
    });
    const recorded = {
      ...applying,
      metadata: {
        ...applying.metadata,
        annotations: {
          'dbaas.platform.dev/ready-spec': specSignature(
            project(applying).spec,
          ),
        },
      },
    };
    expect(project(recorded).status?.phase).toBe('Updating');
  });

  it('names the phase it does not know', () => {
    expect(project(withStatus({ phase: 'Reticulating' })).status?.message).toBe(
      'phase Reticulating',
    );
  });

  it('counts available nodes even when the spec declares none', () => {
    const object = withStatus({ phase: 'Ready', availableNodes: 2 });
    object.spec = { ...object.spec, nodeSets: [] };
    expect(project(object).status?.replicas).toEqual({ ready: 2 });
  });

  it('reports no replicas when neither the spec nor the status counts nodes', () => {
    const object = withStatus({ phase: 'Ready' });
    object.spec = { ...object.spec, nodeSets: [] };
    expect(project(object).status?.replicas).toBeUndefined();
  });

  it('is Deleting once the object has a deletionTimestamp', () => {
    const object = withStatus({ phase: 'Ready', health: 'green' });
    object.metadata = {
      ...object.metadata,
      deletionTimestamp: '2026-01-01T00:00:00Z',
    };
    expect(project(object).status?.phase).toBe('Deleting');
  });

  it('reports running version, node counts and observedGeneration', () => {
    const instance = project(
      withStatus({
        phase: 'Ready',
        health: 'green',
        availableNodes: 2,
        version: '9.4.2',
      }),
    );
    expect(instance.status).toMatchObject({
      version: '9.4.2',
      replicas: { desired: desired(), ready: 2 },
      observedGeneration: 2,
    });
  });
});

describe('eckAdapter spec fields', () => {
  const withNodeSets = (nodeSets: unknown[]): KubeObject => ({
    ...sample('elasticsearch.yaml'),
    spec: { version: '9.4.3', nodeSets },
  });
  const specOf = (nodeSets: unknown[]) => project(withNodeSets(nodeSets)).spec;

  it.each<[string, unknown[], unknown]>([
    ['no node sets: no size', [], undefined],
    [
      'a node set without claims: ECK default 1Gi',
      [{ name: 'a', count: 1 }],
      { size: '1Gi' },
    ],
    [
      'claims but none named elasticsearch-data: ECK default 1Gi',
      [
        {
          name: 'a',
          count: 1,
          volumeClaimTemplates: [
            {
              metadata: { name: 'logs' },
              spec: { resources: { requests: { storage: '5Gi' } } },
            },
          ],
        },
      ],
      { size: '1Gi' },
    ],
    [
      'the data claim of the first set that has one',
      [
        { name: 'a', count: 1 },
        {
          name: 'b',
          count: 1,
          volumeClaimTemplates: [
            {
              metadata: { name: 'logs' },
              spec: { resources: { requests: { storage: '5Gi' } } },
            },
            {
              metadata: { name: 'elasticsearch-data' },
              spec: {
                storageClassName: 'fast',
                resources: { requests: { storage: '7Gi' } },
              },
            },
          ],
        },
      ],
      { size: '7Gi', storageClassName: 'fast' },
    ],
  ])('storage: %s', (_name, nodeSets, storage) => {
    expect(specOf(nodeSets).storage).toEqual(storage);
  });

  it.each<[string, unknown[], unknown]>([
    [
      'the nodeSet shorthand first',
      [
        {
          name: 'a',
          count: 1,
          resources: { requests: { cpu: '1' } },
          podTemplate: {
            spec: {
              containers: [
                {
                  name: 'elasticsearch',
                  resources: { requests: { cpu: '9' } },
                },
              ],
            },
          },
        },
      ],
      { requests: { cpu: '1' } },
    ],
    [
      'the elasticsearch container, not a sidecar',
      [
        {
          name: 'a',
          count: 1,
          podTemplate: {
            spec: {
              containers: [
                { name: 'sidecar', resources: { requests: { cpu: '9' } } },
                {
                  name: 'elasticsearch',
                  resources: { requests: { cpu: '2' } },
                },
              ],
            },
          },
        },
      ],
      { requests: { cpu: '2' } },
    ],
    [
      'a later set when the first declares none',
      [
        {
          name: 'a',
          count: 1,
          podTemplate: { spec: { containers: [{ name: 'elasticsearch' }] } },
        },
        { name: 'b', count: 1, resources: { limits: { memory: '4Gi' } } },
      ],
      { limits: { memory: '4Gi' } },
    ],
    ['none', [{ name: 'a', count: 1 }], undefined],
  ])('resources: %s', (_name, nodeSets, resources) => {
    expect(specOf(nodeSets).resources).toEqual(resources);
  });

  it('is the eck operator', () => {
    expect(project(withNodeSets([])).status?.source).toMatchObject({
      operator: 'eck',
    });
  });
});
