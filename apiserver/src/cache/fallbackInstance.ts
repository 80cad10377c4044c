import {
  DATABASES_GROUP_VERSION,
  type DatabaseInstance,
} from '@internal/plugin-databases-common';
import type {
  KubeObject,
  OperatorAdapter,
  SourceKind,
} from '../adapters/types';
import { buildConditions } from '../status/conditions';

/** What we serve when an adapter throws: the object exists, its state is not understood. */
export function fallbackInstance(
  entry: { adapter: OperatorAdapter; kind: SourceKind },
  source: KubeObject,
  err: unknown,
): DatabaseInstance {
  const m = source.metadata ?? {};
  const verdict = {
    phase: 'Unknown' as const,
    reason: 'ProjectionFailed',
    message: `cannot read the ${entry.kind.kind} object: ${(err as Error)?.message ?? String(err)}`,
  };
  return {
    apiVersion: DATABASES_GROUP_VERSION,
    kind: 'DatabaseInstance',
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      creationTimestamp: m.creationTimestamp,
      ...(m.labels ? { labels: m.labels } : {}),
      ...(m.annotations ? { annotations: m.annotations } : {}),
    },
    spec: { engine: entry.adapter.engine },
    status: {
      ...verdict,
      // Ready=Unknown: with no conditions at all, kstatus (Flux) would read the object Current
      conditions: buildConditions(verdict),
      source: {
        apiVersion: `${entry.kind.group}/${entry.kind.version}`,
        kind: entry.kind.kind,
        name: m.name ?? '',
        operator: entry.adapter.operator,
      },
      ...(source.status !== undefined ? { operatorStatus: source.status } : {}),
    },
  };
}
