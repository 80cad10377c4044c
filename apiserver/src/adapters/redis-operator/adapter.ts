import type {
  DatabaseTopology,
  Endpoint,
} from '@internal/plugin-databases-common';
import type { PhaseFacts } from '../../status/facts';
import { toInstance } from '../../status/toInstance';
import { adapterBasics } from '../shared/adapterBasics';
import { claimStorageOf } from '../shared/storageOf';
import type {
  KubeObject,
  OperatorAdapter,
  RelatedLookup,
  RelatedRef,
  SourceKind,
} from '../types';
import {
  asNumber,
  asRecord,
  asString,
  errorReason,
  hasAnyStatus,
  nameOf,
  namespaceOf,
  resourcesOf,
  serviceEndpoint,
  versionFromImage,
  versionFromTag,
  deletionProtectionOf,
} from '../shared/read';
import { observeStatefulSet, STATEFUL_SETS } from '../shared/statefulSetFacts';
import { redisWriteSide } from './write';
import { withMembers } from '../shared/members';
import { redisMembers } from './members';

const GROUP = 'redis.redis.opstreelabs.in';
const VERSION = 'v1beta2';

const REDIS: SourceKind = {
  group: GROUP,
  version: VERSION,
  plural: 'redis',
  kind: 'Redis',
  topologies: ['standalone'],
};
/** With `spec.sentinel` (size > 0) the operator runs Sentinels beside it: topology sentinel. */
const REDIS_REPLICATION: SourceKind = {
  group: GROUP,
  version: VERSION,
  plural: 'redisreplications',
  kind: 'RedisReplication',
  topologies: ['replication', 'sentinel'],
};
const REDIS_SENTINEL: SourceKind = {
  group: GROUP,
  version: VERSION,
  plural: 'redissentinels',
  kind: 'RedisSentinel',
  topologies: ['sentinel'],
};
const REDIS_CLUSTER: SourceKind = {
  group: GROUP,
  version: VERSION,
  plural: 'redisclusters',
  kind: 'RedisCluster',
  topologies: ['cluster'],
};

const REDIS_PORT = 6379;
const SENTINEL_PORT = 26379;

/** RedisReplication.EnableSentinel(): an embedded Sentinel with at least one member. */
export const hasEmbeddedSentinel = (spec: Record<string, any>) =>
  (asNumber(asRecord(spec.sentinel)?.size) ?? 0) > 0;

/** Per kind: topology, the StatefulSet the operator creates (internal/k8sutils), desired pods. */
const TOPOLOGY: Record<string, DatabaseTopology> = {
  Redis: 'standalone',
  RedisReplication: 'replication',
  RedisSentinel: 'sentinel',
  RedisCluster: 'cluster',
};

function topologyOf(kind: string, spec: Record<string, any>): DatabaseTopology {
  if (kind === 'RedisReplication' && hasEmbeddedSentinel(spec))
    return 'sentinel';
  return TOPOLOGY[kind] ?? 'standalone';
}

/** StatefulSet whose readiness stands in for the status Redis and RedisSentinel lack. */
function statefulSetName(source: KubeObject, kind: string): string | undefined {
  const name = nameOf(source);
  switch (kind) {
    case 'Redis':
    case 'RedisReplication':
      return name;
    case 'RedisSentinel':
      return `${name}-sentinel`;
    default:
      // RedisCluster reports ready leaders/followers itself.
      return undefined;
  }
}

/** Spec replicas as the user sets them: 1 for standalone, `clusterSize` otherwise (shards for a cluster). */
function specReplicas(spec: Record<string, any>, kind: string): number {
  if (kind === 'Redis') return 1;
  // RedisSentinel defaults clusterSize to 3 in its CRD; the others require it.
  return asNumber(spec.clusterSize) ?? (kind === 'RedisSentinel' ? 3 : 1);
}

function clusterFacts(
  source: KubeObject,
  spec: Record<string, any>,
): PhaseFacts {
  const status = asRecord(source.status) ?? {};
  const shards = asNumber(spec.clusterSize);
  const leaders = asNumber(asRecord(spec.redisLeader)?.replicas) ?? shards;
  const followers = asNumber(asRecord(spec.redisFollower)?.replicas) ?? shards;
  const readyLeaders = asNumber(status.readyLeaderReplicas);
  const readyFollowers = asNumber(status.readyFollowerReplicas);
  const facts: PhaseFacts = {
    deleting: source.metadata?.deletionTimestamp !== undefined,
    hasStatus: hasAnyStatus(source),
    onceReady: false,
  };
  // Desired pods = leaders + followers (clusterSize counts shards).
  const desired =
    leaders !== undefined && followers !== undefined
      ? leaders + followers
      : undefined;
  const ready =
    readyLeaders !== undefined || readyFollowers !== undefined
      ? (readyLeaders ?? 0) + (readyFollowers ?? 0)
      : undefined;
  if (desired !== undefined || ready !== undefined)
    facts.replicas = { desired, ready };
  const state = asString(status.state);
  const message = asString(status.reason);
  switch (state) {
    case 'Ready':
      facts.operatorReady = true;
      facts.readyMessage = message;
      break;
    case 'Initializing':
      facts.progress = { reason: 'Initializing', message };
      break;
    case 'Bootstrap':
      facts.progress = { reason: 'Bootstrapping', message };
      break;
    case 'Failed':
      facts.error = { reason: errorReason(state), message };
      break;
    default:
      if (state)
        facts.indeterminate = {
          reason: 'UnrecognizedState',
          message: message ?? `state ${state}`,
        };
  }
  return facts;
}

/** Facts for kinds read through their StatefulSet (Redis, RedisSentinel; RedisReplication adds masterNode). */
function statefulSetBasedFacts(
  source: KubeObject,
  kind: string,
  related: RelatedLookup,
): PhaseFacts {
  const status = asRecord(source.status) ?? {};
  const stsName = statefulSetName(source, kind)!;
  const sts = observeStatefulSet(
    related.get({
      type: STATEFUL_SETS,
      namespace: namespaceOf(source),
      name: stsName,
    }),
  );
  const master =
    kind === 'RedisReplication' ? asString(status.masterNode) : undefined;
  const facts: PhaseFacts = {
    deleting: source.metadata?.deletionTimestamp !== undefined,
    // The operator writes no status for these kinds: its StatefulSet existing is its sign of life.
    hasStatus: sts !== undefined || hasAnyStatus(source),
    // An elected master means the pods ran and replication was set up once.
    onceReady: master !== undefined,
  };
  if (!sts) {
    facts.indeterminate = {
      reason: 'StatefulSetNotFound',
      message: `StatefulSet ${stsName} not found`,
    };
    return facts;
  }
  // clusterSize is required by the CRD, but partial objects exist; the StatefulSet knows too.
  const clusterSize = asNumber(asRecord(source.spec)?.clusterSize);
  facts.replicas = {
    desired: kind === 'Redis' ? 1 : (clusterSize ?? sts.desired),
    ready: sts.ready,
  };
  if (sts.rollingOut)
    facts.progress = {
      reason: 'RollingUpdate',
      message: `StatefulSet ${stsName} is rolling out`,
      change: true,
    };
  else if (kind === 'RedisReplication' && !master && sts.ready > 0)
    facts.progress = { reason: 'AwaitingMasterElection' };
  return facts;
}

function endpoints(
  source: KubeObject,
  kind: string,
  spec: Record<string, any>,
): Endpoint[] {
  const name = nameOf(source);
  const ns = namespaceOf(source);
  switch (kind) {
    case 'RedisReplication':
      return [
        serviceEndpoint('primary', `${name}-master`, ns, REDIS_PORT),
        serviceEndpoint('readonly', `${name}-replica`, ns, REDIS_PORT),
        // The embedded Sentinel's headless Service (RedisReplication.SentinelHLService()).
        ...(hasEmbeddedSentinel(spec)
          ? [serviceEndpoint('sentinel', `${name}-s-hl`, ns, SENTINEL_PORT)]
          : []),
      ];
    case 'RedisSentinel':
      return [
        serviceEndpoint('sentinel', `${name}-sentinel`, ns, SENTINEL_PORT),
      ];
    case 'RedisCluster':
      // Cluster-aware clients discover every node from any leader.
      return [
        serviceEndpoint(
          'primary',
          `${name}-leader`,
          ns,
          asNumber(spec.port) ?? REDIS_PORT,
        ),
      ];
    default:
      return [serviceEndpoint('primary', name, ns, REDIS_PORT)];
  }
}

const specStorage = (spec: Record<string, any>) =>
  claimStorageOf(asRecord(asRecord(spec.storage)?.volumeClaimTemplate)?.spec);

/**
 * OT-CONTAINER-KIT redis-operator: Redis, RedisReplication, RedisSentinel, RedisCluster.
 * OperatorHub capability level 2 (Seamless Upgrades).
 */
export const redisOperatorAdapter: OperatorAdapter = withMembers({
  // The operator supports Redis >= 6; RedisCluster's clusterVersion knows v6 and v7.
  ...adapterBasics(
    redisWriteSide({
      standalone: REDIS,
      replication: REDIS_REPLICATION,
      sentinel: REDIS_REPLICATION,
      cluster: REDIS_CLUSTER,
    }),
    [REDIS, REDIS_REPLICATION, REDIS_SENTINEL, REDIS_CLUSTER],
  ),
  relatedTypes: [STATEFUL_SETS],
  capabilityLevel: 2,
  // Pods and claims carry `app: <StatefulSet name>` (k8sutils/labels); a cluster has two sets.
  memberSelectors(source, kind) {
    const name = nameOf(source);
    if (kind.kind === 'RedisCluster')
      return [{ app: `${name}-leader` }, { app: `${name}-follower` }];
    return [{ app: statefulSetName(source, kind.kind) ?? name }];
  },
  relatedRefs(source, kind): RelatedRef[] {
    const name = statefulSetName(source, kind.kind);
    return name
      ? [{ type: STATEFUL_SETS, namespace: namespaceOf(source), name }]
      : [];
  },
  project(source, kind, related) {
    const spec = asRecord(source.spec) ?? {};
    const kubernetesConfig = asRecord(spec.kubernetesConfig) ?? {};
    const secret = asString(asRecord(kubernetesConfig.redisSecret)?.name);
    const version =
      versionFromImage(kubernetesConfig.image) ??
      (kind.kind === 'RedisCluster'
        ? versionFromTag(spec.clusterVersion)
        : undefined);
    return toInstance({
      operator: 'redis-operator',
      engine: 'redis',
      kind,
      source,
      spec: {
        version,
        topology: topologyOf(kind.kind, spec),
        replicas: specReplicas(spec, kind.kind),
        storage: kind.kind === 'RedisSentinel' ? undefined : specStorage(spec),
        resources: resourcesOf(kubernetesConfig.resources),
        deletionProtection: deletionProtectionOf(source),
      },
      facts:
        kind.kind === 'RedisCluster'
          ? clusterFacts(source, spec)
          : statefulSetBasedFacts(source, kind.kind, related),
      endpoints: endpoints(source, kind.kind, spec),
      // The operator generates no Secret; a password exists only when the user references one.
      credentialsSecretRef: secret ? { name: secret } : undefined,
    });
  },
}, redisMembers);
