import { pausedOf } from '../../writes/pauseSwitch';
import type { PhaseFacts } from '../../status/facts';
import { toInstance } from '../../status/toInstance';
import { adapterBasics } from '../shared/adapterBasics';
import { storageOf } from '../shared/storageOf';
import type { KubeObject, OperatorAdapter, SourceKind } from '../types';
import { rabbitmqPause, rabbitmqWriteSide } from './write';
import {
  asNumber,
  asRecord,
  asString,
  errorReason,
  findCondition,
  hasAnyStatus,
  nameOf,
  namespaceOf,
  resourcesOf,
  serviceEndpoint,
  versionFromImage,
  deletionProtectionOf,
  pascalCase,
} from '../shared/read';
import { withMembers } from '../shared/members';
import { rabbitmqMembers } from './members';

/** The label that pauses the operator's reconciliation of one RabbitmqCluster. */
const PAUSE_LABEL = 'rabbitmq.com/pauseReconciliation';

/**
 * One RabbitmqCluster kind serves both topologies: `standalone` for one replica, `cluster`
 * for more (the operator forms an Erlang cluster from replicas > 1).
 */
const RABBITMQ_CLUSTER: SourceKind = {
  group: 'rabbitmq.com',
  version: 'v1beta1',
  plural: 'rabbitmqclusters',
  kind: 'RabbitmqCluster',
  topologies: ['standalone', 'cluster'],
};

const AMQP_PORT = 5672;
const MANAGEMENT_PORT = 15672;
/** CRD defaults (spec.replicas 1, spec.persistence.storage 10Gi). */
const DEFAULT_REPLICAS = 1;
const DEFAULT_STORAGE = '10Gi';

/** "x/y Pods ready", the AllReplicasReady message (internal/status/all_replicas_ready.go). */
function readyFromMessage(message: string | undefined): number | undefined {
  const match = /^(\d+)\/(\d+) Pods ready/.exec(message ?? '');
  return match ? Number(match[1]) : undefined;
}

/** Facts from the four RabbitmqCluster conditions and quorumStatus. */
export function rabbitmqFacts(source: KubeObject): PhaseFacts {
  const spec = asRecord(source.spec) ?? {};
  const status = asRecord(source.status) ?? {};
  const allReady = findCondition(status, 'AllReplicasReady');
  const available = findCondition(status, 'ClusterAvailable');
  const reconcile = findCondition(status, 'ReconcileSuccess');
  const desired = asNumber(spec.replicas) ?? DEFAULT_REPLICAS;
  const facts: PhaseFacts = {
    deleting: source.metadata?.deletionTimestamp !== undefined,
    hasStatus: hasAnyStatus(source),
    // The status holds no trace of past readiness (observedGeneration is set by the first reconcile).
    onceReady: false,
    generation: asNumber(source.metadata?.generation),
    observedGeneration: asNumber(status.observedGeneration),
  };
  if (allReady?.status === 'True') facts.replicas = { desired, ready: desired };
  else {
    const ready = readyFromMessage(allReady?.message);
    facts.replicas = ready === undefined ? { desired } : { desired, ready };
  }
  if (reconcile?.status === 'False')
    facts.error = {
      reason: errorReason(reconcile.reason),
      message: reconcile.message,
    };
  if (available?.status === 'False')
    facts.notServing = {
      reason: available.reason ?? 'ClusterUnavailable',
      message: available.message,
    };
  // Missing conditions do not contradict readiness (trimmed statuses omit them); a False one does.
  if (
    allReady?.status === 'True' &&
    available?.status !== 'False' &&
    reconcile?.status !== 'False'
  ) {
    facts.operatorReady = true;
    facts.readyMessage = allReady.message;
  } else if (allReady?.status === 'False') {
    facts.operatorReady = false;
    facts.readyMessage = allReady.message;
    if (allReady.reason) facts.notReadyReason = pascalCase(allReady.reason);
  }
  // The operator's documented pause: with this label it neither watches nor updates the cluster
  // (controllers/reconcile_paused.go: an Event PausedReconciliation, NoWarnings=False).
  if (source.metadata?.labels?.[PAUSE_LABEL] === 'true')
    facts.paused = {
      reason: 'ReconciliationPaused',
      message: `the label ${PAUSE_LABEL}=true stops the operator from reconciling this cluster`,
    };
  const quorum = asString(status.quorumStatus);
  if (quorum?.startsWith('quorum-critical'))
    facts.unhealthy = { reason: 'QuorumCritical', message: quorum };
  return facts;
}

function specStorage(spec: Record<string, any>) {
  const persistence = asRecord(spec.persistence) ?? {};
  return {
    size: DEFAULT_STORAGE,
    ...storageOf(persistence.storage, persistence.storageClassName),
  };
}

/** RabbitMQ Cluster Operator: RabbitmqCluster. OperatorHub capability level 3 (Full Lifecycle). */
export const rabbitmqClusterOperatorAdapter: OperatorAdapter = withMembers({
  // 4.2.6 is the operator's default image (v2.22.3); 3.13 is the last 3.x line.
  ...adapterBasics(rabbitmqWriteSide(RABBITMQ_CLUSTER), [RABBITMQ_CLUSTER]),
  capabilityLevel: 3,
  // The StatefulSet selector (internal/metadata labels), on its pods and persistence claims.
  memberSelectors: source => [
    {
      'app.kubernetes.io/name': nameOf(source),
      'app.kubernetes.io/component': 'rabbitmq',
    },
  ],
  project(source, kind) {
    const spec = asRecord(source.spec) ?? {};
    const status = asRecord(source.status) ?? {};
    const name = nameOf(source);
    const ns = namespaceOf(source);
    const replicas = asNumber(spec.replicas) ?? DEFAULT_REPLICAS;
    // The operator reports the Secret it created; before that, its fixed name.
    const secret =
      asString(asRecord(asRecord(status.defaultUser)?.secretReference)?.name) ??
      `${name}-default-user`;
    const service =
      asString(
        asRecord(asRecord(status.defaultUser)?.serviceReference)?.name,
      ) ?? name;
    return toInstance({
      operator: 'rabbitmq-cluster-operator',
      engine: 'rabbitmq',
      kind,
      source,
      spec: {
        version: versionFromImage(spec.image),
        topology: replicas > 1 ? 'cluster' : 'standalone',
        replicas,
        storage: specStorage(spec),
        resources: resourcesOf(spec.resources),
        deletionProtection: deletionProtectionOf(source),
        paused: pausedOf(rabbitmqPause, source),
      },
      facts: rabbitmqFacts(source),
      endpoints: [
        serviceEndpoint('amqp', service, ns, AMQP_PORT),
        serviceEndpoint('management', service, ns, MANAGEMENT_PORT),
      ],
      credentialsSecretRef: { name: secret },
      observedGeneration: asNumber(status.observedGeneration),
      upstreamConditions: [
        findCondition(status, 'AllReplicasReady'),
        findCondition(status, 'ReconcileSuccess'),
      ],
    });
  },
}, rabbitmqMembers);
