import type { KubeObject, ResourceType } from '../types';
import { asNumber, asRecord, asString } from './read';

/**
 * apps/v1 StatefulSets of the OT redis-operator, the one operator that reports no status of its
 * own for most kinds: only those it labels `redis_setup_type` (k8sutils/labels.go puts it on every
 * StatefulSet it makes), never every StatefulSet of the cluster, each kept as what
 * {@link observeStatefulSet} reads: a StatefulSet's pod template is most of its bytes.
 */
export const STATEFUL_SETS: ResourceType = {
  group: 'apps',
  version: 'v1',
  plural: 'statefulsets',
  kind: 'StatefulSet',
  labelSelector: 'redis_setup_type',
  slim: slimStatefulSet,
};

/** A StatefulSet as the cache keeps it: identity, generation, replicas and rollout status. */
export function slimStatefulSet(sts: KubeObject): KubeObject {
  const meta = sts.metadata ?? {};
  const spec = asRecord(sts.spec);
  const status = asRecord(sts.status) ?? {};
  const kept: Record<string, unknown> = {};
  for (const key of ['replicas', 'readyReplicas', 'observedGeneration', 'currentRevision', 'updateRevision']) {
    if (status[key] !== undefined) kept[key] = status[key];
  }
  return {
    apiVersion: sts.apiVersion,
    kind: sts.kind,
    metadata: {
      name: meta.name,
      namespace: meta.namespace,
      resourceVersion: meta.resourceVersion,
      ...(meta.generation !== undefined && { generation: meta.generation }),
      ...(meta.deletionTimestamp && { deletionTimestamp: meta.deletionTimestamp }),
    },
    ...(spec?.replicas !== undefined && { spec: { replicas: spec.replicas } }),
    status: kept,
  };
}

/** What a StatefulSet tells about the pods an operator runs. */
export interface StatefulSetObservation {
  desired: number;
  ready: number;
  /** A rollout is under way: controller behind the spec, or pods on an old revision. */
  rollingOut: boolean;
}

/** Reads replicas and rollout state of a StatefulSet (undefined when there is none). */
export function observeStatefulSet(
  sts: unknown,
): StatefulSetObservation | undefined {
  const o = asRecord(sts);
  if (!o) return undefined;
  const spec = asRecord(o.spec);
  const status = asRecord(o.status);
  // apps/v1 defaults spec.replicas to 1.
  const desired = asNumber(spec?.replicas) ?? 1;
  const ready = asNumber(status?.readyReplicas) ?? 0;
  const generation = asNumber(asRecord(o.metadata)?.generation);
  const observed = asNumber(status?.observedGeneration);
  const current = asString(status?.currentRevision);
  const update = asString(status?.updateRevision);
  const rollingOut =
    (generation !== undefined &&
      observed !== undefined &&
      observed < generation) ||
    (current !== undefined && update !== undefined && current !== update);
  return { desired, ready, rollingOut };
}
