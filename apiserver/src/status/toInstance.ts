import {
  ANNOTATION_KUBECTL_LAST_APPLIED,
  ANNOTATION_LAST_APPLIED,
  APISERVER_RECORDS,
  ANNOTATION_READY_SPEC,
  DATABASE_INSTANCE_KIND,
  DATABASES_GROUP_VERSION,
  type Condition,
  type DatabaseEngineName,
  type DatabaseInstance,
  type DatabaseInstanceSpec,
  type Endpoint,
  type ObjectMeta,
} from '@internal/plugin-databases-common';
import type { KubeObject, SourceKind } from '../adapters/types';
import { recordedManagedFields } from '../managedFields/recordedManagedFields';
import { buildConditions, type UpstreamCondition } from './conditions';
import type { PhaseFacts } from './facts';
import { decidePhase } from './phaseTable';
import { specSignature } from './rolloutMemory';

/** What an adapter hands over to become a DatabaseInstance. */
export interface InstanceParts {
  /** Adapter id = `status.source.operator`. */
  operator: string;
  engine: DatabaseEngineName;
  kind: SourceKind;
  source: KubeObject;
  /** Spec as read back from the operator object (without `engine`). */
  spec: Omit<DatabaseInstanceSpec, 'engine'>;
  facts: PhaseFacts;
  /** Running version as the operator reports it; falls back to `spec.version`. */
  version?: string;
  endpoints: Endpoint[];
  credentialsSecretRef?: { name: string };
  observedGeneration?: number;
  /** Upstream conditions that may carry the Ready condition's lastTransitionTime (first match wins). */
  upstreamConditions?: ReadonlyArray<UpstreamCondition | undefined>;
  /**
   * Conditions beyond Ready the adapter reports (a failing WAL archiver, a failed backup):
   * problems that do not change the phase but that the instance must show.
   */
  conditions?: Condition[];
}

const COPIED_METADATA = [
  'name',
  'namespace',
  'uid',
  'creationTimestamp',
  // the operator object's: 1 on create, +1 on each change of its spec (which is where the
  // instance's spec goes), in the same count as the operator's status.observedGeneration
  'generation',
  'deletionTimestamp',
  'labels',
  'annotations',
] as const;

/**
 * The operator object's annotations as the instance's: kubectl's last-applied copy of the
 * instance comes back under kubectl's key (so `kubectl apply` diffs against it); the operator
 * object's own copy, if someone applied it directly, is not the instance's.
 */
function instanceAnnotations(
  annotations: Record<string, string>,
): Record<string, string> | undefined {
  if (
    !(ANNOTATION_LAST_APPLIED in annotations) &&
    !(ANNOTATION_KUBECTL_LAST_APPLIED in annotations) &&
    !APISERVER_RECORDS.some(key => key in annotations)
  )
    return annotations;
  const {
    [ANNOTATION_LAST_APPLIED]: lastApplied,
    [ANNOTATION_KUBECTL_LAST_APPLIED]: _operatorObjects,
    ...rest
  } = annotations;
  // the apiserver's own records (the last Ready spec, a failed restore, the restored backup;
  // managedFields is served as metadata.managedFields): no client's to see or edit
  const out = Object.fromEntries(Object.entries(lastApplied === undefined ? rest : { ...rest, [ANNOTATION_KUBECTL_LAST_APPLIED]: lastApplied }).filter(([key]) => !APISERVER_RECORDS.includes(key)));
  return Object.keys(out).length ? out : undefined;
}

/** Drops undefined members so projections compare and serialise cleanly. */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== undefined),
  ) as T;
}

/**
 * An upgrade not rolled out yet: the operator reports running another version than the spec
 * asks for. A spec naming a release line ("11.4") is met by any patch release of it ("11.4.2").
 */
function withVersionFact(facts: PhaseFacts, parts: InstanceParts): PhaseFacts {
  const running = parts.version;
  const desired = parts.spec.version;
  if (!running || !desired || facts.versionBehind) return facts;
  if (running === desired || running.startsWith(`${desired}.`)) return facts;
  return { ...facts, versionBehind: { running, desired } };
}

/**
 * The apiserver recorded this instance Ready with the spec it has now (the annotation the
 * ReadySpecRecorder writes): it ran, whatever the operator's status still shows, so a child the
 * operator reports missing or a cluster it reports unavailable is not a first creation. Read off
 * the object, the same on every replica and after a restart. A spec changed since is a rollout,
 * which the rollout memory tells apart.
 */
function withRecordedReady(
  facts: PhaseFacts,
  parts: InstanceParts,
): PhaseFacts {
  if (facts.onceReady) return facts;
  const recorded = parts.source.metadata?.annotations?.[ANNOTATION_READY_SPEC];
  return recorded !== undefined && recorded === specSignature(parts.spec)
    ? { ...facts, onceReady: true }
    : facts;
}

/**
 * Assembles the DatabaseInstance for one operator object: metadata copied from the source
 * (resourceVersion is left to the cache), spec as read back, status decided by the shared
 * phase table, with the upstream status attached untouched.
 */
export function toInstance(parts: InstanceParts): DatabaseInstance {
  const { source, kind, facts } = parts;
  const metadata: ObjectMeta = {};
  for (const key of COPIED_METADATA) {
    const value = source.metadata?.[key];
    if (value !== undefined) (metadata as Record<string, unknown>)[key] = value;
  }
  if (metadata.annotations) {
    const managedFields = recordedManagedFields(metadata.annotations);
    const annotations = instanceAnnotations(metadata.annotations);
    if (annotations) metadata.annotations = annotations;
    else delete metadata.annotations;
    if (managedFields) metadata.managedFields = managedFields;
  }
  const verdict = decidePhase(
    withVersionFact(withRecordedReady(facts, parts), parts),
  );
  const replicas = facts.replicas
    ? compact({ desired: facts.replicas.desired, ready: facts.replicas.ready })
    : undefined;
  const status = compact({
    phase: verdict.phase,
    reason: verdict.reason,
    message: verdict.message,
    conditions: [
      ...buildConditions(verdict, {
        upstream: parts.upstreamConditions,
        observedGeneration: parts.observedGeneration,
      }),
      ...(parts.conditions ?? []),
    ],
    source: {
      apiVersion: kind.group ? `${kind.group}/${kind.version}` : kind.version,
      kind: kind.kind,
      name: source.metadata?.name ?? '',
      operator: parts.operator,
    },
    operatorStatus: source.status,
    version: parts.version ?? parts.spec.version,
    replicas:
      replicas && Object.keys(replicas).length > 0 ? replicas : undefined,
    endpoints: parts.endpoints,
    credentialsSecretRef: parts.credentialsSecretRef,
    observedGeneration: parts.observedGeneration,
  });
  return {
    apiVersion: DATABASES_GROUP_VERSION as DatabaseInstance['apiVersion'],
    kind: DATABASE_INSTANCE_KIND as DatabaseInstance['kind'],
    metadata,
    spec: compact({ engine: parts.engine, ...parts.spec }),
    status,
  };
}
