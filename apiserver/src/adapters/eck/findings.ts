import type {
  DatabaseInstance,
  DiagnosisFinding,
} from '@internal/plugin-databases-common';
import {
  asRecord,
  asString,
  nameOf,
  namespaceOf,
  objectRefOf,
} from '../shared/read';
import type { KubeObject } from '../types';

/** What Elasticsearch's health colour means for the shards, and how to find out which. */
export function eckFindings(
  source: KubeObject,
  instance: DatabaseInstance,
): DiagnosisFinding[] {
  const health = asString(asRecord(source.status)?.health);
  const name = nameOf(source);
  const ns = namespaceOf(source);
  const objects = [objectRefOf(source)];
  const explain = `GET _cluster/allocation/explain (kubectl port-forward -n ${ns} service/${name}-es-http 9200) says which shard and why`;
  if (health === 'yellow')
    return [
      {
        reason: 'ReplicaShardsUnassigned',
        severity: 'Warning',
        message: `Elasticsearch health is yellow: every primary shard is served, but some replica shards cannot be allocated${
          instance.spec.replicas !== undefined
            ? ` on the ${instance.spec.replicas} node(s)`
            : ''
        }, so a node lost now loses data redundancy`,
        hint: `A replica is never put on the node of its primary: with fewer data nodes than number_of_replicas + 1 it stays unassigned. Add nodes (spec.replicas), lower the indices' number_of_replicas, or free disk above the watermarks; ${explain}.`,
        objects,
      },
    ];
  if (health === 'red')
    return [
      {
        reason: 'PrimaryShardsUnassigned',
        severity: 'Error',
        message:
          'Elasticsearch health is red: some primary shards are not allocated, so part of the data is not served',
        hint: `Bring back the nodes that held them, or restore the affected indices from a snapshot; ${explain}.`,
        objects,
      },
    ];
  return [];
}
