import { pausedOf } from '../../writes/pauseSwitch';
import type { HealthColour, PhaseFacts, Signal } from '../../status/facts';
import { toInstance } from '../../status/toInstance';
import { adapterBasics } from '../shared/adapterBasics';
import { claimStorageOf } from '../shared/storageOf';
import type { KubeObject, OperatorAdapter, SourceKind } from '../types';
import { eckPause, eckWriteSide } from './write';
import {
  asArray,
  asNumber,
  asRecord,
  asString,
  findCondition,
  hasAnyStatus,
  nameOf,
  namespaceOf,
  pascalCase,
  resourcesOf,
  serviceEndpoint,
  deletionProtectionOf,
} from '../shared/read';
import { eckFindings } from './findings';
import { withMembers } from '../shared/members';
import { eckMembers } from './members';

/**
 * Elasticsearch is always a cluster of nodes (one node is a cluster of one), so its only
 * topology is `cluster`; node roles and tiers stay in the operator object.
 */
const ELASTICSEARCH: SourceKind = {
  group: 'elasticsearch.k8s.elastic.co',
  version: 'v1',
  plural: 'elasticsearches',
  kind: 'Elasticsearch',
  topologies: ['cluster'],
};

const HTTP_PORT = 9200;
const PAUSE_ORCHESTRATION = 'eck.k8s.elastic.co/pause-orchestration';
const UNMANAGED = 'eck.k8s.elastic.co/managed';
/** ECK's default data volume when a nodeSet declares no claim. */
const DEFAULT_STORAGE = '1Gi';

const COLOURS: readonly HealthColour[] = ['green', 'yellow', 'red', 'unknown'];

const nodeSetsOf = (spec: Record<string, any>) =>
  asArray(spec.nodeSets).map(n => asRecord(n) ?? {});

/** Any node listed in one of the in-progress operations of the given kinds. */
function operationUnderWay(
  status: Record<string, any>,
  kinds: string[],
): boolean {
  const ops = asRecord(status.inProgressOperations) ?? {};
  return kinds.some(k => asArray(asRecord(ops[k])?.nodes).length > 0);
}

/** Facts from an Elasticsearch status: phase, health colour, availableNodes, conditions. */
export function eckFacts(source: KubeObject): PhaseFacts {
  const spec = asRecord(source.spec) ?? {};
  const status = asRecord(source.status) ?? {};
  const phase = asString(status.phase);
  const healthRaw = asString(status.health);
  const health = COLOURS.find(c => c === healthRaw);
  const desired = nodeSetsOf(spec).reduce(
    (sum, n) => sum + (asNumber(n.count) ?? 0),
    0,
  );
  const available = asNumber(status.availableNodes);
  const reconciliation = findCondition(status, 'ReconciliationComplete');
  const reachable = findCondition(status, 'ElasticsearchIsReachable');
  // A downscale or an upgrade only happens to a cluster that existed. status.version (the
  // lowest running version) is no such sign: ECK writes it as soon as the first nodes of a new
  // cluster run. That a cluster was Ready once is the apiserver's record (ready-spec).
  const onceReady = operationUnderWay(status, ['downscale', 'upgrade']);
  const facts: PhaseFacts = {
    deleting: source.metadata?.deletionTimestamp !== undefined,
    hasStatus: hasAnyStatus(source),
    onceReady,
    health,
    generation: asNumber(source.metadata?.generation),
    observedGeneration: asNumber(status.observedGeneration),
  };
  if (desired > 0 || available !== undefined)
    facts.replicas = {
      desired: desired > 0 ? desired : undefined,
      ready: available,
    };
  if (reachable?.status === 'False')
    facts.notServing = {
      reason: 'ElasticsearchUnreachable',
      message: reachable.message,
    };
  switch (phase) {
    case 'Ready':
    case 'Operational': // name used before ECK 1.0
      facts.operatorReady = true;
      break;
    case 'ApplyingChanges':
    case 'MigratingData':
    case 'Pending': // name used before ECK 1.0
      facts.progress = {
        reason: pascalCase(phase),
        message:
          reconciliation?.status === 'False'
            ? reconciliation.message
            : undefined,
        change:
          operationUnderWay(status, ['downscale', 'upgrade']) ||
          phase === 'MigratingData',
      };
      break;
    case 'Invalid':
      facts.error = { reason: 'InvalidSpec', message: reconciliation?.message };
      break;
    case 'Stalled':
      // Node shutdown is stuck: the cluster still serves but the change cannot complete.
      facts.unhealthy = { reason: 'Stalled', message: reconciliation?.message };
      break;
    case undefined:
      break;
    default:
      facts.indeterminate = {
        reason: 'UnrecognizedPhase',
        message: `phase ${phase}`,
      };
  }
  const paused = pausedSignal(source, status);
  if (paused) facts.paused = paused;
  return facts;
}

/**
 * The two pauses ECK honours: pause-orchestration (3.5; its OrchestrationPaused condition says
 * whether spec changes are pending) and the older `managed: "false"`, which stops everything.
 */
function pausedSignal(
  source: KubeObject,
  status: Record<string, unknown>,
): Signal | undefined {
  const annotations = source.metadata?.annotations ?? {};
  if (annotations[PAUSE_ORCHESTRATION] === 'true') {
    const condition = findCondition(status, 'OrchestrationPaused');
    return {
      reason: 'OrchestrationPaused',
      message:
        condition?.status === 'True'
          ? condition.message
          : `${PAUSE_ORCHESTRATION}: "true" holds spec changes back until it is removed`,
    };
  }
  if (annotations[UNMANAGED] === 'false')
    return {
      reason: 'Unmanaged',
      message: `${UNMANAGED} is "false": ECK does not reconcile this cluster, so its status may be stale`,
    };
  return undefined;
}

function specStorage(spec: Record<string, any>) {
  // The instance size is the data claim of the first nodeSet (tiers may differ; they stay upstream).
  for (const nodeSet of nodeSetsOf(spec)) {
    const claims = asArray(nodeSet.volumeClaimTemplates).map(
      c => asRecord(c) ?? {},
    );
    const data = claims.find(
      c => asRecord(c.metadata)?.name === 'elasticsearch-data',
    );
    if (data) return { size: DEFAULT_STORAGE, ...claimStorageOf(data.spec) };
  }
  return nodeSetsOf(spec).length > 0 ? { size: DEFAULT_STORAGE } : undefined;
}

function resourcesOfNodeSets(spec: Record<string, any>) {
  for (const nodeSet of nodeSetsOf(spec)) {
    const shorthand = resourcesOf(nodeSet.resources);
    if (shorthand) return shorthand;
    const containers = asArray(
      asRecord(asRecord(nodeSet.podTemplate)?.spec)?.containers,
    ).map(c => asRecord(c) ?? {});
    const es = resourcesOf(
      containers.find(c => c.name === 'elasticsearch')?.resources,
    );
    if (es) return es;
  }
  return undefined;
}

/** Elastic Cloud on Kubernetes: Elasticsearch. OperatorHub capability level 4 (Deep Insights). */
export const eckAdapter: OperatorAdapter = withMembers({
  // ECK 3.5 samples use 9.4.3; 8.x from 8.18 can still be upgraded to 9.
  ...adapterBasics(eckWriteSide(ELASTICSEARCH), [ELASTICSEARCH]),
  capabilityLevel: 4,
  // Every pod and data claim of the cluster (label.ClusterNameLabelName).
  memberSelectors: source => [
    { 'elasticsearch.k8s.elastic.co/cluster-name': nameOf(source) },
  ],
  findings: eckFindings,
  project(source, kind) {
    const spec = asRecord(source.spec) ?? {};
    const status = asRecord(source.status) ?? {};
    const name = nameOf(source);
    const desired = nodeSetsOf(spec).reduce(
      (sum, n) => sum + (asNumber(n.count) ?? 0),
      0,
    );
    return toInstance({
      operator: 'eck',
      engine: 'elasticsearch',
      kind,
      source,
      spec: {
        version: asString(spec.version),
        topology: 'cluster',
        replicas: desired,
        storage: specStorage(spec),
        resources: resourcesOfNodeSets(spec),
        deletionProtection: deletionProtectionOf(source),
        paused: pausedOf(eckPause, source),
      },
      facts: eckFacts(source),
      version: asString(status.version),
      endpoints: [
        serviceEndpoint(
          'http',
          `${name}-es-http`,
          namespaceOf(source),
          HTTP_PORT,
        ),
      ],
      credentialsSecretRef: { name: `${name}-es-elastic-user` },
      observedGeneration: asNumber(status.observedGeneration),
      upstreamConditions: [findCondition(status, 'ReconciliationComplete')],
    });
  },
}, eckMembers);
