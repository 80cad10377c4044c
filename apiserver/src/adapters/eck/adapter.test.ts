import { describe, it, expect } from '@jest/globals';
import type { KubeObject } from '../types';
import { readSample } from '../__testUtils__/operatorFiles';
import { emptyLookup } from '../__testUtils__/schemaDerivedFixtures';
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
  ])('%s', (_name, status, phase, reason) => {
    const instance = project(withStatus(status));
    expect({
      phase: instance.status?.phase,
      reason: instance.status?.reason,
    }).toEqual({ phase, reason });
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
