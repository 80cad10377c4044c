import type { StoredObject } from '../../store/types';
import { redisDemo } from './demo';
import { revisionHash } from '../dependentObjects';
import { count, imageTag } from '../specHelpers';
import type {
  CustomKind,
  DesiredService,
  DesiredState,
  DesiredStatefulSet,
  EmulatedOperator,
  Observation,
} from '../types';

const GROUP = 'redis.redis.opstreelabs.in';
const kind = (k: string, plural: string): CustomKind => ({
  group: GROUP,
  version: 'v1beta2',
  plural,
  kind: k,
});

/** The four redis-operator kinds (redis.redis.opstreelabs.in/v1beta2). */
export const REDIS_KIND = kind('Redis', 'redis');
export const REDIS_CLUSTER_KIND = kind('RedisCluster', 'redisclusters');
export const REDIS_REPLICATION_KIND = kind(
  'RedisReplication',
  'redisreplications',
);
export const REDIS_SENTINEL_KIND = kind('RedisSentinel', 'redissentinels');

const FINALIZERS: Record<string, string> = {
  Redis: 'redisFinalizer',
  RedisCluster: 'redisClusterFinalizer',
  RedisReplication: 'redisReplicationFinalizer',
  RedisSentinel: 'redisSentinelFinalizer',
};

const spec = (cr: StoredObject): Record<string, any> =>
  (cr.spec as Record<string, any>) ?? {};

/** The Services redis-operator creates for one StatefulSet: `<n>`, `<n>-headless`, `<n>-additional`. */
function servicesFor(
  base: string,
  port: number,
  selector: Record<string, string>,
): DesiredService[] {
  const ports = [
    { name: port === 26379 ? 'sentinel-client' : 'redis-client', port },
  ];
  return [
    { name: base, ports, selector },
    { name: `${base}-headless`, ports, selector, headless: true },
    { name: `${base}-additional`, ports, selector },
  ];
}

function statefulSet(
  cr: StoredObject,
  name: string,
  replicas: number,
  role: string,
  extra: unknown,
): DesiredStatefulSet {
  const s = spec(cr);
  const image: string =
    s.kubernetesConfig?.image ?? 'quay.io/opstree/redis:v7.0.15';
  return {
    name,
    replicas,
    revision: revisionHash({
      image,
      resources: s.kubernetesConfig?.resources,
      storage: s.storage,
      extra,
    }),
    image,
    serviceName: `${name}-headless`,
    // k8sutils/labels.go getRedisLabels: a cluster's leader and follower sets are setup type `cluster`
    labels: { app: name, redis_setup_type: role === 'leader' || role === 'follower' ? 'cluster' : role, role },
    // what the operator's healer labels each data pod after asking it (INFO replication)
    ...(role === 'sentinel'
      ? {}
      : { podLabels: (_pod: string, i: number) => ({ 'redis-role': redisRole(role, i) }) }),
    container: name,
    // The claim template is named after the StatefulSet (k8sutils/statefulset.go).
    ...(s.storage?.volumeClaimTemplate
      ? {
          claim: {
            name: (pod: string) => `${name}-${pod}`,
            size: s.storage.volumeClaimTemplate.spec?.resources?.requests?.storage,
            storageClassName: s.storage.volumeClaimTemplate.spec?.storageClassName,
          },
        }
      : {}),
  };
}

/** A data pod's role: leaders and the first replication pod are masters (the emulation fails none over). */
function redisRole(setRole: string, index: number): 'master' | 'slave' {
  if (setRole === 'follower') return 'slave';
  return setRole === 'replication' && index > 0 ? 'slave' : 'master';
}

function desired(cr: StoredObject, k: CustomKind): DesiredState {
  const s = spec(cr);
  const name = cr.metadata.name;
  const version = imageTag(s.kubernetesConfig?.image);
  switch (k.kind) {
    case 'RedisCluster': {
      const size = count(s.clusterSize, 3);
      const leader = statefulSet(
        cr,
        `${name}-leader`,
        count(s.redisLeader?.replicas, size),
        'leader',
        s.redisLeader?.resources,
      );
      const follower = statefulSet(
        cr,
        `${name}-follower`,
        count(s.redisFollower?.replicas, size),
        'follower',
        s.redisFollower?.resources,
      );
      const port = count(s.port, 6379);
      return {
        version: s.clusterVersion ?? version,
        statefulSets: [leader, follower],
        services: [
          ...servicesFor(leader.name, port, leader.labels),
          ...servicesFor(follower.name, port, follower.labels),
          {
            name: `${name}-master`,
            ports: [{ name: 'redis-client', port }],
            selector: { 'redis-role': 'master', app: leader.name },
          },
        ],
        secrets: [],
      };
    }
    case 'RedisReplication': {
      const sts = statefulSet(
        cr,
        name,
        count(s.clusterSize, 3),
        'replication',
        undefined,
      );
      return {
        version,
        statefulSets: [sts],
        services: [
          ...servicesFor(name, 6379, sts.labels),
          {
            name: `${name}-master`,
            ports: [{ name: 'redis-client', port: 6379 }],
            selector: { ...sts.labels, 'redis-role': 'master' },
          },
          {
            name: `${name}-replica`,
            ports: [{ name: 'redis-client', port: 6379 }],
            selector: { ...sts.labels, 'redis-role': 'slave' },
          },
        ],
        secrets: [],
      };
    }
    case 'RedisSentinel': {
      const sts = statefulSet(
        cr,
        `${name}-sentinel`,
        count(s.clusterSize, 3),
        'sentinel',
        s.redisSentinelConfig,
      );
      return {
        version,
        statefulSets: [sts],
        services: servicesFor(sts.name, 26379, sts.labels),
        secrets: [],
      };
    }
    default: {
      const sts = statefulSet(cr, name, 1, 'standalone', undefined);
      return {
        version,
        statefulSets: [sts],
        services: servicesFor(name, 6379, sts.labels),
        secrets: [],
      };
    }
  }
}

/** RedisCluster state and reason strings as the v0.26 e2e assertions show them. */
function clusterStatus(
  cr: StoredObject,
  obs: Observation,
): Record<string, unknown> {
  const [leader, follower] = obs.sets;
  const readyLeaderReplicas = leader?.ready ?? 0;
  const readyFollowerReplicas = follower?.ready ?? 0;
  const previous = (cr.status as Record<string, any>) ?? {};
  let state: string;
  let reason: string;
  if (obs.stage === 'deleting') return previous;
  if (obs.stage === 'failed') {
    state = 'Failed';
    reason = obs.message ?? 'RedisCluster has unhealthy nodes';
  } else if (obs.stage === 'ready' && previous.state === 'Initializing') {
    // All pods are up: the operator joins them into the cluster (one round) before reporting Ready.
    state = 'Bootstrap';
    reason = 'RedisCluster is bootstrapping';
  } else if (obs.stage === 'ready' || obs.stage === 'degraded') {
    // v0.26 keeps Ready while a follower is down; the ready counts show the gap.
    state = 'Ready';
    reason = 'RedisCluster is ready';
  } else if (!leader || leader.ready < leader.replicas) {
    state = 'Initializing';
    reason = 'RedisCluster is initializing leaders';
  } else if (!follower || follower.ready < follower.replicas) {
    state = 'Initializing';
    reason = 'RedisCluster is initializing followers';
  } else {
    state = 'Bootstrap';
    reason = 'RedisCluster is bootstrapping';
  }
  return { state, reason, readyLeaderReplicas, readyFollowerReplicas };
}

function status(
  cr: StoredObject,
  k: CustomKind,
  obs: Observation,
): Record<string, unknown> | undefined {
  if (k.kind === 'RedisCluster') return clusterStatus(cr, obs);
  if (k.kind === 'RedisReplication') {
    const previous = (cr.status as Record<string, any>) ?? {};
    // The first pod is elected master once it is up; the field is not cleared afterwards.
    if (previous.masterNode || obs.readyReplicas > 0)
      return {
        ...previous,
        masterNode: previous.masterNode ?? `${cr.metadata.name}-0`,
      };
    return cr.status as Record<string, unknown> | undefined;
  }
  // Redis and RedisSentinel have no status upstream: only their StatefulSet tells.
  return undefined;
}

/** Emulated OT-CONTAINER-KIT redis-operator for Redis, RedisCluster, RedisReplication and RedisSentinel. */
export const redisOperator: EmulatedOperator = {
  demo: redisDemo,
  id: 'redis-operator',
  kinds: [
    REDIS_KIND,
    REDIS_CLUSTER_KIND,
    REDIS_REPLICATION_KIND,
    REDIS_SENTINEL_KIND,
  ],
  finalizer: k => FINALIZERS[k.kind],
  desired: (cr, k) => desired(cr, k),
  status,
};
