import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { harness, NS } from '../__testutils__/harness';
import {
  UPSTREAM_OPERATORS_DIR,
  upstreamStatusSamples,
} from '../__testutils__/upstream';
import {
  REDIS_CLUSTER_KIND,
  REDIS_KIND,
  REDIS_REPLICATION_KIND,
  REDIS_SENTINEL_KIND,
} from './redisOperator';

const samples = upstreamStatusSamples('redis-operator');
const clusterSamples = samples
  .filter(s => s.file.startsWith('rediscluster-'))
  .map(s => s.status);
const replicationSample = YAMLObject('redisreplication-ready.e2e.yaml');
const readme = fs.readFileSync(
  path.join(UPSTREAM_OPERATORS_DIR, 'redis-operator/README.md'),
  'utf8',
);

function YAMLObject(file: string): { name: string; status: any } {
  const text = fs.readFileSync(
    path.join(UPSTREAM_OPERATORS_DIR, 'redis-operator/status', file),
    'utf8',
  );
  const name = /^\s{2}name:\s*(\S+)/m.exec(text)![1];
  return { name, status: samples.find(s => s.file === file)!.status };
}

const kubernetesConfig = {
  image: 'quay.io/opstree/redis:v7.0.15',
  imagePullPolicy: 'IfNotPresent',
};
const storage = {
  volumeClaimTemplate: {
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '1Gi' } },
    },
  },
};

describe('redisOperator', () => {
  it('never writes a status for Redis, only moves its StatefulSet to ready', () => {
    const h = harness();
    const cr = h.create(REDIS_KIND, 'cache', { kubernetesConfig, storage });
    h.emulator.tick();
    expect(h.sts('cache')?.status).toMatchObject({
      replicas: 0,
      readyReplicas: 0,
    });
    h.emulator.settle();
    expect(h.get(REDIS_KIND, 'cache').status).toBeUndefined();
    expect(h.sts('cache')?.status).toMatchObject({
      replicas: 1,
      readyReplicas: 1,
      updatedReplicas: 1,
    });
    expect(h.owned(cr).sort()).toEqual([
      'services/cache',
      'services/cache-additional',
      'services/cache-headless',
      'statefulsets/cache',
    ]);
    expect(h.get(REDIS_KIND, 'cache').metadata.finalizers).toEqual([
      'redisFinalizer',
    ]);
  });

  it.each([
    ['degraded', 0],
    ['failed', 0],
    ['provisioning', 0],
  ] as const)('shows %s Redis only through its StatefulSet', (mode, ready) => {
    const h = harness();
    h.create(REDIS_KIND, 'cache', { kubernetesConfig });
    h.emulator.settle();
    h.emulator.setHealth({ kind: 'Redis', namespace: NS, name: 'cache' }, mode);
    h.emulator.tick();
    expect(h.sts('cache')?.status).toMatchObject({
      replicas: 1,
      readyReplicas: ready,
    });
    expect(h.get(REDIS_KIND, 'cache').status).toBeUndefined();
  });

  it('runs a RedisSentinel as StatefulSet <n>-sentinel with its Services, without status', () => {
    const h = harness();
    const cr = h.create(REDIS_SENTINEL_KIND, 'sentinel', {
      clusterSize: 3,
      kubernetesConfig,
      redisSentinelConfig: { redisReplicationName: 'repl' },
    });
    h.emulator.settle();
    expect(h.owned(cr).sort()).toEqual([
      'services/sentinel-sentinel',
      'services/sentinel-sentinel-additional',
      'services/sentinel-sentinel-headless',
      'statefulsets/sentinel-sentinel',
    ]);
    expect(h.sts('sentinel-sentinel')?.status).toMatchObject({
      replicas: 3,
      readyReplicas: 3,
    });
    expect(h.get(REDIS_SENTINEL_KIND, 'sentinel').status).toBeUndefined();
  });

  it('elects the first pod of a RedisReplication as master, as the upstream e2e asserts', () => {
    const h = harness();
    const name = replicationSample.name;
    const cr = h.create(REDIS_REPLICATION_KIND, name, {
      clusterSize: 3,
      kubernetesConfig,
      storage,
    });
    h.emulator.tick();
    expect(h.get(REDIS_REPLICATION_KIND, name).status).toBeUndefined();
    h.emulator.settle();
    expect(h.get(REDIS_REPLICATION_KIND, name).status).toEqual(
      replicationSample.status,
    );
    expect(h.owned(cr)).toEqual(
      expect.arrayContaining([
        `services/${name}-master`,
        `services/${name}-replica`,
        `statefulsets/${name}`,
      ]),
    );
    h.emulator.setHealth(
      { kind: 'RedisReplication', namespace: NS, name },
      'degraded',
    );
    h.emulator.tick();
    expect(h.sts(name)?.status).toMatchObject({
      replicas: 3,
      readyReplicas: 2,
    });
    expect(h.upstreamStatusErrors(REDIS_REPLICATION_KIND)).toEqual([]);
  });

  it('takes a RedisCluster through the upstream states to Ready', () => {
    const h = harness();
    const cr = h.create(REDIS_CLUSTER_KIND, 'cluster', {
      clusterSize: 3,
      clusterVersion: 'v7',
      persistenceEnabled: true,
      kubernetesConfig,
      storage,
    });
    h.emulator.settle();
    const trace = h
      .statuses(REDIS_CLUSTER_KIND, 'cluster')
      .map(s => `${s.state}: ${s.reason}`);
    // Every state/reason pair the upstream e2e assertions show occurs, and the cluster ends Ready.
    for (const s of clusterSamples)
      expect(trace).toContain(`${s.state}: ${s.reason}`);
    const ready = clusterSamples.find(s => s.state === 'Ready');
    expect(h.get(REDIS_CLUSTER_KIND, 'cluster').status).toEqual(ready);
    expect(
      trace.indexOf(trace.find(t => t.startsWith('Bootstrap'))!),
    ).toBeLessThan(trace.length - 1);
    expect(h.owned(cr)).toEqual(
      expect.arrayContaining([
        'statefulsets/cluster-leader',
        'statefulsets/cluster-follower',
        'services/cluster-leader',
        'services/cluster-follower',
      ]),
    );
    expect(h.upstreamStatusErrors(REDIS_CLUSTER_KIND)).toEqual([]);
    // k8sutils/labels.go: the setup type and the set's role, on the StatefulSet and its pods
    const sets = { group: 'apps', version: 'v1', plural: 'statefulsets' };
    expect(h.store.get(sets, NS, 'cluster-leader')?.metadata.labels).toEqual({ app: 'cluster-leader', redis_setup_type: 'cluster', role: 'leader' });
    expect(h.store.get(sets, NS, 'cluster-follower')?.metadata.labels).toEqual({ app: 'cluster-follower', redis_setup_type: 'cluster', role: 'follower' });
  });

  it('re-initializes leaders on a scale-out and comes back Ready with the new counts', () => {
    const h = harness();
    h.create(REDIS_CLUSTER_KIND, 'cluster', {
      clusterSize: 3,
      kubernetesConfig,
    });
    h.emulator.settle();
    h.patchSpec(REDIS_CLUSTER_KIND, 'cluster', s => (s.clusterSize = 6));
    h.emulator.tick();
    expect(h.get(REDIS_CLUSTER_KIND, 'cluster').status).toMatchObject({
      state: 'Initializing',
      reason: 'RedisCluster is initializing leaders',
    });
    h.emulator.settle();
    expect(h.get(REDIS_CLUSTER_KIND, 'cluster').status).toMatchObject({
      state: 'Ready',
      readyLeaderReplicas: 6,
      readyFollowerReplicas: 6,
    });
  });

  it.each([
    [
      'degraded',
      { state: 'Ready', readyLeaderReplicas: 3, readyFollowerReplicas: 2 },
    ],
    [
      'failed',
      { state: 'Failed', readyLeaderReplicas: 0, readyFollowerReplicas: 0 },
    ],
  ] as const)('reports a %s RedisCluster', (mode, expected) => {
    const h = harness();
    h.create(REDIS_CLUSTER_KIND, 'cluster', {
      clusterSize: 3,
      kubernetesConfig,
    });
    h.emulator.settle();
    h.emulator.setHealth(
      { kind: 'RedisCluster', namespace: NS, name: 'cluster' },
      mode,
    );
    h.emulator.tick();
    const status = h.get(REDIS_CLUSTER_KIND, 'cluster').status as any;
    expect(status).toMatchObject(expected);
    // The README documents the reason the operator gives with each state.
    expect(readme).toContain(`"${status.reason}"`);
    expect(h.upstreamStatusErrors(REDIS_CLUSTER_KIND)).toEqual([]);
  });

  it('removes its finalizer and dependents after a deleted Redis was seen for a round', () => {
    const h = harness();
    const cr = h.create(REDIS_KIND, 'cache', { kubernetesConfig });
    h.emulator.settle();
    h.store.delete(REDIS_KIND, NS, 'cache');
    h.emulator.tick();
    expect(h.get(REDIS_KIND, 'cache').metadata.deletionTimestamp).toBeDefined();
    h.emulator.tick();
    expect(h.store.get(REDIS_KIND, NS, 'cache')).toBeUndefined();
    expect(h.owned(cr)).toEqual([]);
  });
});
