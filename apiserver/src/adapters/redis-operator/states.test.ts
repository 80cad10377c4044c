import { describe, it, expect } from '@jest/globals';
import { emptyLookup, lookupOf } from '../__testUtils__/schemaDerivedFixtures';
import type { KubeObject, SourceKind } from '../types';
import { redisOperatorAdapter } from './adapter';

/*
 * States derived from the v1beta2 CRD schemas (RedisCluster's status: state, reason,
 * readyLeaderReplicas, readyFollowerReplicas; Redis, RedisReplication and RedisSentinel read
 * through the StatefulSet the operator creates, RedisReplication adding status.masterNode).
 * None of these objects is a real capture.
 */

const kindOf = (name: string): SourceKind =>
  redisOperatorAdapter.kinds.find(k => k.kind === name)!;

const object = (
  kind: string,
  spec: Record<string, unknown>,
  status?: Record<string, unknown>,
  metadata: Record<string, unknown> = {},
): KubeObject => ({
  apiVersion: 'redis.redis.opstreelabs.in/v1beta2',
  kind,
  metadata: { name: 'cache', namespace: 'team-a', generation: 1, ...metadata },
  spec,
  ...(status && { status }),
});

const statefulSet = (name: string, replicas: number, ready: number) => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name, namespace: 'team-a', generation: 1 },
  spec: { replicas },
  status: {
    observedGeneration: 1,
    replicas,
    readyReplicas: ready,
    currentRevision: 'r1',
    updateRevision: 'r1',
  },
});

const project = (source: KubeObject, related: KubeObject[] = []) =>
  redisOperatorAdapter.project(
    source,
    kindOf(source.kind!),
    related.length ? lookupOf(related) : emptyLookup,
  );

describe('RedisCluster states (derived from its status schema)', () => {
  const cluster = (status?: Record<string, unknown>, spec = {}) =>
    object('RedisCluster', { clusterSize: 3, ...spec }, status);

  it.each<[string, Record<string, unknown>, string, string, string]>([
    [
      'Initializing',
      { state: 'Initializing', reason: 'RedisCluster is initializing leaders' },
      'Provisioning',
      'Initializing',
      'RedisCluster is initializing leaders',
    ],
    [
      'Bootstrap',
      { state: 'Bootstrap', reason: 'RedisCluster is bootstrapping' },
      'Provisioning',
      'Bootstrapping',
      'RedisCluster is bootstrapping',
    ],
    [
      'Failed',
      { state: 'Failed', reason: 'slots not covered' },
      'Failed',
      'OperatorError',
      'slots not covered',
    ],
    [
      'a state this adapter does not know, with the operator reason',
      { state: 'Resharding', reason: 'moving slots' },
      'Unknown',
      'UnrecognizedState',
      'moving slots',
    ],
    [
      'a state this adapter does not know, without a reason',
      { state: 'Resharding' },
      'Unknown',
      'UnrecognizedState',
      'state Resharding',
    ],
  ])('%s', (_name, status, phase, reason, message) => {
    const { status: got } = project(cluster(status));
    expect({
      phase: got?.phase,
      reason: got?.reason,
      message: got?.message,
    }).toEqual({ phase, reason, message });
  });

  it('is Pending while the operator has written no status', () => {
    expect(project(cluster()).status?.phase).toBe('Pending');
  });

  it('counts ready leaders alone when followers are not reported', () => {
    const { status } = project(
      cluster({ state: 'Initializing', readyLeaderReplicas: 2 }),
    );
    expect(status?.replicas).toEqual({ desired: 6, ready: 2 });
  });

  it('counts ready followers alone when leaders are not reported', () => {
    const { status } = project(
      cluster({ state: 'Initializing', readyFollowerReplicas: 1 }),
    );
    expect(status?.replicas).toEqual({ desired: 6, ready: 1 });
  });

  it('reports no ready count when neither is reported (?/6, not 0/6)', () => {
    expect(
      project(cluster({ state: 'Initializing' })).status?.replicas,
    ).toEqual({ desired: 6 });
  });

  it('takes leader and follower counts from their own fields over clusterSize', () => {
    const { status } = project(
      cluster(
        { state: 'Ready', readyLeaderReplicas: 3, readyFollowerReplicas: 6 },
        { redisLeader: { replicas: 3 }, redisFollower: { replicas: 6 } },
      ),
    );
    expect(status).toMatchObject({
      phase: 'Ready',
      replicas: { desired: 9, ready: 9 },
    });
  });

  it('desires no count it cannot know (no clusterSize, no leader/follower replicas)', () => {
    const source = object('RedisCluster', {}, { state: 'Ready' });
    expect(project(source).status?.replicas).toBeUndefined();
    const leadersOnly = object(
      'RedisCluster',
      { redisLeader: { replicas: 3 } },
      { state: 'Ready', readyLeaderReplicas: 3 },
    );
    expect(project(leadersOnly).status?.replicas).toEqual({ ready: 3 });
  });

  it('is Deleting once the object has a deletionTimestamp', () => {
    const source = object(
      'RedisCluster',
      { clusterSize: 3 },
      { state: 'Ready', readyLeaderReplicas: 3, readyFollowerReplicas: 3 },
      { deletionTimestamp: '2026-01-01T00:00:00Z' },
    );
    expect(project(source).status?.phase).toBe('Deleting');
  });

  it('reads the version from clusterVersion when the image tag names none', () => {
    const source = object('RedisCluster', {
      clusterSize: 3,
      clusterVersion: 'v7',
      kubernetesConfig: { image: 'quay.io/opstree/redis:latest' },
    });
    expect(project(source).spec.version).toBe('7');
    const tagged = object('RedisCluster', {
      clusterSize: 3,
      clusterVersion: 'v7',
      kubernetesConfig: { image: 'quay.io/opstree/redis:v7.2.4' },
    });
    expect(project(tagged).spec.version).toBe('7.2.4');
  });

  it('serves on the port the object names', () => {
    const source = object('RedisCluster', { clusterSize: 3, port: 6380 });
    expect(project(source).status?.endpoints).toEqual([
      { name: 'primary', host: 'cache-leader.team-a.svc', port: 6380 },
    ]);
  });
});

describe('StatefulSet-read kinds (derived from the StatefulSets the operator creates)', () => {
  it('a RedisReplication with ready pods but no master elected yet is waiting for the election', () => {
    const source = object('RedisReplication', { clusterSize: 3 }, {});
    const { status } = project(source, [statefulSet('cache', 3, 3)]);
    expect(status).toMatchObject({
      phase: 'Provisioning',
      reason: 'AwaitingMasterElection',
    });
  });

  it('a RedisReplication with no pod ready is not waiting for an election yet', () => {
    const source = object('RedisReplication', { clusterSize: 3 }, {});
    const { status } = project(source, [statefulSet('cache', 3, 0)]);
    expect(status).toMatchObject({
      phase: 'Provisioning',
      reason: 'ReplicasNotReady',
    });
  });

  it('a RedisReplication that had a master and lost pods is Degraded, not Provisioning', () => {
    const source = object(
      'RedisReplication',
      { clusterSize: 3 },
      { masterNode: 'cache-0' },
    );
    const { status } = project(source, [statefulSet('cache', 3, 2)]);
    expect(status).toMatchObject({
      phase: 'Degraded',
      reason: 'ReplicasNotReady',
      replicas: { desired: 3, ready: 2 },
    });
  });

  it('a Redis (standalone) without a master field that lost its pod is Provisioning', () => {
    // Redis has no status at all: nothing survives to say it ran before.
    const { status } = project(object('Redis', {}), [
      statefulSet('cache', 1, 0),
    ]);
    expect(status).toMatchObject({
      phase: 'Provisioning',
      replicas: { desired: 1, ready: 0 },
    });
  });

  it('a standalone Redis is one replica whatever clusterSize says', () => {
    const source = object('Redis', { clusterSize: 3 });
    const instance = project(source, [statefulSet('cache', 1, 1)]);
    expect(instance.spec.replicas).toBe(1);
    expect(instance.status?.replicas).toEqual({ desired: 1, ready: 1 });
  });

  it('a RedisSentinel defaults to 3 Sentinels (its CRD default) and falls back on the StatefulSet', () => {
    const source = object('RedisSentinel', {});
    const instance = project(source, [statefulSet('cache-sentinel', 5, 5)]);
    expect(instance.spec.replicas).toBe(3);
    expect(instance.spec.storage).toBeUndefined();
    expect(instance.status?.replicas).toEqual({ desired: 5, ready: 5 });
  });

  it('a RedisReplication without clusterSize counts 1 replica in its spec', () => {
    const source = object('RedisReplication', {});
    expect(project(source).spec.replicas).toBe(1);
  });

  it('names the StatefulSet it is missing', () => {
    const source = object(
      'RedisReplication',
      { clusterSize: 3 },
      { masterNode: 'cache-0' },
    );
    expect(project(source).status?.message).toBe('StatefulSet cache not found');
  });

  it('names the StatefulSet that is rolling out', () => {
    const sts = statefulSet('cache', 3, 3);
    sts.status.updateRevision = 'r2';
    const source = object(
      'RedisReplication',
      { clusterSize: 3 },
      { masterNode: 'cache-0' },
    );
    expect(project(source, [sts]).status).toMatchObject({
      phase: 'Updating',
      reason: 'RollingUpdate',
      message: 'StatefulSet cache is rolling out',
    });
  });

  it('is Deleting once a StatefulSet-read object has a deletionTimestamp', () => {
    const source = object('Redis', {}, undefined, {
      deletionTimestamp: '2026-01-01T00:00:00Z',
    });
    expect(project(source, [statefulSet('cache', 1, 1)]).status?.phase).toBe(
      'Deleting',
    );
  });

  it('a RedisReplication with an embedded Sentinel is topology sentinel, with its Service', () => {
    const source = object('RedisReplication', {
      clusterSize: 3,
      sentinel: { size: 3 },
    });
    const instance = project(source);
    expect(instance.spec.topology).toBe('sentinel');
    expect(instance.status?.endpoints).toContainEqual({
      name: 'sentinel',
      host: 'cache-s-hl.team-a.svc',
      port: 26379,
    });
    const none = project(
      object('RedisReplication', { clusterSize: 3, sentinel: { size: 0 } }),
    );
    expect(none.spec.topology).toBe('replication');
  });

  it('is the redis-operator', () => {
    expect(project(object('Redis', {})).status?.source).toMatchObject({
      operator: 'redis-operator',
    });
  });
});
