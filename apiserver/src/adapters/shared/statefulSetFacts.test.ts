import { describe, it, expect } from '@jest/globals';
import { observeStatefulSet, slimStatefulSet, STATEFUL_SETS } from './statefulSetFacts';

const sts = (spec: object, status: object, generation?: number) => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'orders', ...(generation !== undefined && { generation }) },
  spec,
  status,
});

describe('observeStatefulSet', () => {
  it('sees nothing where there is no StatefulSet', () => {
    expect(observeStatefulSet(undefined)).toBeUndefined();
    expect(observeStatefulSet(null)).toBeUndefined();
    expect(observeStatefulSet('orders')).toBeUndefined();
  });

  it('reads desired and ready replicas', () => {
    expect(
      observeStatefulSet(sts({ replicas: 3 }, { readyReplicas: 2 })),
    ).toEqual({ desired: 3, ready: 2, rollingOut: false });
  });

  it('takes apps/v1 defaults: one desired replica, none ready until reported', () => {
    expect(observeStatefulSet(sts({}, {}))).toEqual({
      desired: 1,
      ready: 0,
      rollingOut: false,
    });
    expect(observeStatefulSet({ metadata: { name: 'x' } })).toEqual({
      desired: 1,
      ready: 0,
      rollingOut: false,
    });
  });

  it.each<[string, object, number | undefined, boolean]>([
    ['controller behind the spec', { observedGeneration: 3 }, 4, true],
    ['controller caught up', { observedGeneration: 4 }, 4, false],
    [
      'controller ahead (a stale read of the object)',
      { observedGeneration: 5 },
      4,
      false,
    ],
    ['no generation reported', { observedGeneration: 3 }, undefined, false],
    ['no observedGeneration reported', {}, 4, false],
    [
      'pods on an old revision',
      { currentRevision: 'orders-1', updateRevision: 'orders-2' },
      undefined,
      true,
    ],
    [
      'every pod on the new revision',
      { currentRevision: 'orders-2', updateRevision: 'orders-2' },
      undefined,
      false,
    ],
    [
      'only the update revision known',
      { updateRevision: 'orders-2' },
      undefined,
      false,
    ],
    [
      'only the current revision known',
      { currentRevision: 'orders-1' },
      undefined,
      false,
    ],
  ])('rollout: %s', (_case, status, generation, rollingOut) => {
    expect(
      observeStatefulSet(
        sts({ replicas: 3 }, { readyReplicas: 3, ...status }, generation),
      )?.rollingOut,
    ).toBe(rollingOut);
  });
});

/** A StatefulSet as the OT redis-operator writes one (k8sutils/statefulset.go), status from apps/v1. */
const redisSet = (status: object, generation: number, replicas?: number) => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: {
    name: 'cache',
    namespace: 'team-a',
    uid: '0d4c9d3e-3a51-4c1d-9f3e-1b5a4d6f7a10',
    resourceVersion: '4711',
    generation,
    labels: { app: 'cache', redis_setup_type: 'standalone', role: 'standalone' },
    annotations: { 'redis.opstreelabs.in': 'true', 'redis.opstreelabs.instance': 'cache' },
    ownerReferences: [{ apiVersion: 'redis.redis.opstreelabs.in/v1beta2', kind: 'Redis', name: 'cache', uid: 'u', controller: true }],
  },
  spec: {
    ...(replicas !== undefined && { replicas }),
    selector: { matchLabels: { app: 'cache' } },
    serviceName: 'cache-headless',
    updateStrategy: { type: 'RollingUpdate' },
    podManagementPolicy: 'OrderedReady',
    template: {
      metadata: { labels: { app: 'cache' } },
      spec: { containers: [{ name: 'cache', image: 'quay.io/opstree/redis:v7.0.15', imagePullPolicy: 'IfNotPresent' }] },
    },
  },
  status,
});

describe('STATEFUL_SETS', () => {
  it('watches only the StatefulSets the redis-operator labels, never every StatefulSet of the cluster', () => {
    expect(STATEFUL_SETS.labelSelector).toBe('redis_setup_type');
  });

  it.each([
    ['ready', redisSet({ replicas: 3, readyReplicas: 3, currentRevision: 'cache-1', updateRevision: 'cache-1', observedGeneration: 2 }, 2, 3)],
    ['rolling out (revisions differ)', redisSet({ replicas: 3, readyReplicas: 3, currentRevision: 'cache-1', updateRevision: 'cache-2', observedGeneration: 2 }, 2, 3)],
    ['controller behind the spec', redisSet({ replicas: 3, readyReplicas: 2, observedGeneration: 1 }, 2, 3)],
    ['no spec.replicas (defaults to 1)', redisSet({ readyReplicas: 1 }, 1)],
    ['no status yet', redisSet({}, 1, 3)],
  ])('the slim copy reads the same as the StatefulSet: %s', (_case, set) => {
    const slim = slimStatefulSet(set);
    expect(observeStatefulSet(slim)).toEqual(observeStatefulSet(set));
    expect(slim.metadata).toEqual({ name: 'cache', namespace: 'team-a', resourceVersion: '4711', generation: set.metadata.generation });
    expect(JSON.stringify(slim)).not.toContain('template');
  });

  it('keeps a deletion in progress', () => {
    const set = redisSet({ replicas: 1 }, 1, 1);
    const deleting = { ...set, metadata: { ...set.metadata, deletionTimestamp: '2026-12-06T07:00:00Z' } };
    expect(slimStatefulSet(deleting).metadata?.deletionTimestamp).toBe('2026-12-06T07:00:00Z');
  });
});
