import type { DatabaseInstance, DatabaseMember, DatabaseMemberRole } from '@internal/plugin-databases-common';
import type { KubeObject, OperatorAdapter, RelatedLookup, RelatedRef, ResourceType, SourceKind } from '../types';
import { asArray, asRecord, asString, namespaceOf } from './read';

const ZONE_LABEL = 'topology.kubernetes.io/zone';

/** One pod an operator runs for an object, and the headless Service that names it in DNS. */
export interface ExpectedMember {
  pod: string;
  /** Absent where the operator makes no headless Service (CloudNativePG). */
  headless?: string;
}

/** A member's role as its adapter reads it. */
export interface MemberRole {
  role: DatabaseMemberRole;
  engineRole?: string;
  since?: string;
}

/**
 * How an adapter reads its members: the operator's pods (watched with the labels the operator
 * documents, so only its pods are cached, and slimmed to what is read), which pods an object
 * has, and each one's role. Pure: the pods come from the watch cache.
 */
export interface MemberSource {
  pods: ResourceType;
  expected(source: KubeObject, kind: SourceKind): ExpectedMember[];
  role(source: KubeObject, kind: SourceKind, name: string, pod: KubeObject | undefined): MemberRole;
}

/**
 * The pod type of an operator's members: core/v1 pods with `labelSelector`, each kept as its
 * name, the labels and annotations named (and the zone label), its node and its Ready
 * condition: a few hundred bytes where a pod is several KiB.
 */
export function memberPods(
  labelSelector: string,
  keep: { labels?: readonly string[]; annotations?: readonly string[] } = {},
): ResourceType {
  const labels = [...(keep.labels ?? []), ZONE_LABEL];
  const annotations = keep.annotations ?? [];
  return {
    group: '',
    version: 'v1',
    plural: 'pods',
    kind: 'Pod',
    labelSelector,
    slim: pod => slimPod(pod, labels, annotations),
  };
}

/**
 * One copy of each of the few values many pods share (namespaces, nodes, role label sets, the
 * Ready status), frozen: the cache's objects are never mutated. Bounded, for a cluster of many
 * distinct values (beyond it values are kept as they come).
 */
const SHARED_LIMIT = 50_000;
const shared = new Map<string, any>();
function share<T>(key: string, make: () => T): T {
  const held = shared.get(key);
  if (held !== undefined) return held;
  const value = make();
  if (shared.size < SHARED_LIMIT) shared.set(key, typeof value === 'object' && value ? Object.freeze(value) : value);
  return value;
}

function picked(from: Record<string, string> | undefined, keys: readonly string[]): Record<string, string> | undefined {
  if (!from) return undefined;
  let out: Record<string, string> | undefined;
  for (const key of keys) {
    if (typeof from[key] === 'string') (out ??= {})[key] = from[key];
  }
  return out;
}

const readyStatus = (status: unknown) =>
  share(`status\0${status}`, () => ({ conditions: [Object.freeze({ type: 'Ready', status })] }));

/**
 * A pod as the cache keeps it: name, namespace, resourceVersion, the labels and annotations
 * named, its node and its Ready condition's status, every part many pods have alike shared.
 */
function slimPod(pod: KubeObject, labels: readonly string[], annotations: readonly string[]): KubeObject {
  const meta = pod.metadata ?? {};
  const ready = asArray(asRecord(pod.status)?.conditions)
    .map(asRecord)
    .find(c => c?.type === 'Ready');
  const keptLabels = picked(meta.labels, labels);
  const keptAnnotations = picked(meta.annotations, annotations);
  const node = asString(asRecord(pod.spec)?.nodeName);
  const namespace = typeof meta.namespace === 'string' ? share(`ns\0${meta.namespace}`, () => meta.namespace) : undefined;
  const crashed = crashedContainers(pod);
  const readyOnly = ready ? readyStatus(asString(ready.status)) : undefined;
  // the shared Ready status, unless a container crashed (rare: then the pod's own)
  const status = crashed.length ? { ...readyOnly, containerStatuses: crashed } : readyOnly;
  return {
    metadata: {
      name: meta.name,
      namespace,
      resourceVersion: meta.resourceVersion,
      ...(meta.deletionTimestamp ? { deletionTimestamp: meta.deletionTimestamp } : {}),
      ...(keptLabels ? { labels: share(`labels\0${JSON.stringify(keptLabels)}`, () => keptLabels) } : {}),
      ...(keptAnnotations ? { annotations: keptAnnotations } : {}),
    },
    ...(node ? { spec: share(`node\0${node}`, () => ({ nodeName: node })) } : {}),
    ...(status ? { status } : {}),
  };
}

/** A container of a pod that last ended in failure (exit code other than 0), and how often it restarted. */
export interface CrashedContainer {
  name: string;
  restartCount?: number;
  lastState: { terminated: { exitCode: number; reason?: string } };
}

/**
 * The containers of `pod` whose last run ended with a non-zero exit code (kubelet's
 * `lastState.terminated`), as a slim pod keeps them: what a phase can read of a crashing member
 * (a restore that fails in it) without keeping every pod's container statuses.
 */
export function crashedContainers(pod: KubeObject | undefined): CrashedContainer[] {
  const status = asRecord(pod?.status);
  return [...asArray(status?.initContainerStatuses), ...asArray(status?.containerStatuses)].flatMap(c => {
    const container = asRecord(c);
    const terminated = asRecord(asRecord(container?.lastState)?.terminated);
    const exitCode = terminated?.exitCode;
    const name = asString(container?.name);
    if (!name || typeof exitCode !== 'number' || exitCode === 0) return [];
    const reason = asString(terminated?.reason);
    const restartCount = container?.restartCount;
    return [
      {
        name,
        ...(typeof restartCount === 'number' ? { restartCount } : {}),
        lastState: { terminated: { exitCode, ...(reason ? { reason } : {}) } },
      },
    ];
  });
}

/** The pod's Ready condition is True (a pod being deleted is not ready, as endpoints treat it). */
export function podReady(pod: KubeObject | undefined): boolean {
  if (!pod || pod.metadata?.deletionTimestamp) return false;
  return asArray(asRecord(pod.status)?.conditions).some(c => asRecord(c)?.type === 'Ready' && asRecord(c)?.status === 'True');
}

/** A label of the pod, where it has it. */
export const podLabel = (pod: KubeObject | undefined, key: string): string | undefined =>
  asString(pod?.metadata?.labels?.[key]);

/** The members of `source`, in the order its operator names them. */
export function readMembers(
  members: MemberSource,
  source: KubeObject,
  kind: SourceKind,
  related: RelatedLookup,
): DatabaseMember[] {
  const namespace = namespaceOf(source);
  return members.expected(source, kind).map(({ pod: name, headless }) => {
    const pod = related.get({ type: members.pods, namespace, name });
    const { role, engineRole, since } = members.role(source, kind, name, pod);
    const node = asString(asRecord(pod?.spec)?.nodeName);
    const zone = podLabel(pod, ZONE_LABEL);
    return {
      name,
      role,
      ...(engineRole ? { engineRole } : {}),
      ready: podReady(pod),
      ...(headless ? { host: `${name}.${headless}.${namespace}.svc` } : {}),
      ...(node ? { node } : {}),
      ...(zone ? { zone } : {}),
      ...(since ? { since } : {}),
    };
  });
}

/**
 * The most members listed for one instance: a StatefulSet's replicas are an int32, and a spec
 * (or a would-be one in a dry run) asking for billions must not make us build billions of rows.
 */
export const MAX_LISTED_MEMBERS = 1000;

/** `<name>-<i>` for i in [from, from + count): how StatefulSets name their pods (at most MAX_LISTED_MEMBERS). */
export function ordinalPods(set: string, count: number, headless?: string, from = 0): ExpectedMember[] {
  const listed = Number.isFinite(count) ? Math.min(Math.max(0, Math.trunc(count)), MAX_LISTED_MEMBERS) : 0;
  return Array.from({ length: listed }, (_, i) => ({ pod: `${set}-${i + from}`, ...(headless ? { headless } : {}) }));
}

/**
 * The adapter with its members: their pods among the related objects it watches and reads, and
 * `status.members` on every instance it projects.
 */
export function withMembers(adapter: OperatorAdapter, members: MemberSource): OperatorAdapter {
  return {
    ...adapter,
    members,
    relatedTypes: [...adapter.relatedTypes, members.pods],
    relatedRefs(source, kind): RelatedRef[] {
      const namespace = namespaceOf(source);
      return [
        ...adapter.relatedRefs(source, kind),
        ...members.expected(source, kind).map(m => ({ type: members.pods, namespace, name: m.pod })),
      ];
    },
    project(source, kind, related): DatabaseInstance {
      const instance = adapter.project(source, kind, related);
      const list = readMembers(members, source, kind, related);
      return list.length && instance.status ? { ...instance, status: { ...instance.status, members: list } } : instance;
    },
  };
}
