import { describe, it, expect } from '@jest/globals';
import type { DatabaseInstance } from '@internal/plugin-databases-common';
import { eckFindings } from './findings';

// status.health of the Elasticsearch CRD (green, yellow, red, unknown); derived, not captured
const es = (status?: Record<string, unknown>) => ({
  apiVersion: 'elasticsearch.k8s.elastic.co/v1',
  kind: 'Elasticsearch',
  metadata: { name: 'search', namespace: 'team-b' },
  spec: {},
  ...(status && { status }),
});
const objects = [
  {
    apiVersion: 'elasticsearch.k8s.elastic.co/v1',
    kind: 'Elasticsearch',
    name: 'search',
    namespace: 'team-b',
  },
];
const withReplicas = (replicas?: number) =>
  ({ spec: { engine: 'elasticsearch', replicas } }) as DatabaseInstance;
const explain =
  'GET _cluster/allocation/explain (kubectl port-forward -n team-b service/search-es-http 9200) says which shard and why';

describe('eckFindings', () => {
  it('yellow: replicas unassigned, on how many nodes, and how to ask why', () => {
    expect(eckFindings(es({ health: 'yellow' }), withReplicas(1))).toEqual([
      {
        reason: 'ReplicaShardsUnassigned',
        severity: 'Warning',
        message:
          'Elasticsearch health is yellow: every primary shard is served, but some replica shards cannot be allocated on the 1 node(s), so a node lost now loses data redundancy',
        hint: `A replica is never put on the node of its primary: with fewer data nodes than number_of_replicas + 1 it stays unassigned. Add nodes (spec.replicas), lower the indices' number_of_replicas, or free disk above the watermarks; ${explain}.`,
        objects,
      },
    ]);
    expect(
      eckFindings(es({ health: 'yellow' }), withReplicas(undefined))[0].message,
    ).toBe(
      'Elasticsearch health is yellow: every primary shard is served, but some replica shards cannot be allocated, so a node lost now loses data redundancy',
    );
  });

  it('red: primaries unassigned', () => {
    expect(eckFindings(es({ health: 'red' }), withReplicas(3))).toEqual([
      {
        reason: 'PrimaryShardsUnassigned',
        severity: 'Error',
        message:
          'Elasticsearch health is red: some primary shards are not allocated, so part of the data is not served',
        hint: `Bring back the nodes that held them, or restore the affected indices from a snapshot; ${explain}.`,
        objects,
      },
    ]);
  });

  it.each([['green'], ['unknown']])('%s is no finding', health => {
    expect(eckFindings(es({ health }), withReplicas(3))).toEqual([]);
  });

  it('no status is no finding', () => {
    expect(eckFindings(es(), withReplicas(3))).toEqual([]);
  });
});
