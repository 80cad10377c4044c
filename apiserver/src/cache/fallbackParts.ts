import type { ObjectMeta, SourceRef } from '@internal/plugin-databases-common';
import type { KubeObject, OperatorAdapter, SourceKind } from '../adapters/types';

/** The metadata every served object copies from the operator object it is projected from. */
export function sourceMetadata(source: KubeObject): ObjectMeta {
  const m = source.metadata ?? {};
  return {
    name: m.name,
    namespace: m.namespace,
    uid: m.uid,
    creationTimestamp: m.creationTimestamp,
    ...(m.labels ? { labels: m.labels } : {}),
    ...(m.annotations ? { annotations: m.annotations } : {}),
  };
}

/**
 * The parts of what is served when an adapter throws on an object: the object exists, its state
 * is not understood (Unknown, reason ProjectionFailed, the error in the message), its source named
 * and its status kept untouched.
 */
export function projectionFailure(entry: { adapter: OperatorAdapter; kind: SourceKind }, source: KubeObject, err: unknown) {
  return {
    reason: 'ProjectionFailed',
    message: `cannot read the ${entry.kind.kind} object: ${(err as Error)?.message ?? String(err)}`,
    source: {
      apiVersion: `${entry.kind.group}/${entry.kind.version}`,
      kind: entry.kind.kind,
      name: source.metadata?.name ?? '',
      operator: entry.adapter.operator,
    } satisfies SourceRef,
    ...(source.status !== undefined ? { operatorStatus: source.status as unknown } : {}),
  };
}
