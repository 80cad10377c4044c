import type { ResourceType } from '../types';
import { asNumber, asRecord, asString } from './read';

/** apps/v1 StatefulSets: the related type of operators that report no status of their own. */
export const STATEFUL_SETS: ResourceType = {
  group: 'apps',
  version: 'v1',
  plural: 'statefulsets',
  kind: 'StatefulSet',
};

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
