import { describe, it, expect } from '@jest/globals';
import path from 'node:path';
import type { DatabasePhase } from '@internal/plugin-databases-common';
import { findAdapterForObject } from '../registry';
import { assertFitsCrd, readSample } from '../__testUtils__/operatorFiles';
import {
  emptyLookup,
  lookupOf,
  readSchemaDerivedFixtures,
} from '../__testUtils__/schemaDerivedFixtures';
import type { KubeObject, SourceKind } from '../types';
import { redisOperatorAdapter } from './adapter';

const kindOf = (name: string): SourceKind =>
  redisOperatorAdapter.kinds.find(k => k.kind === name)!;
const fixtures = readSchemaDerivedFixtures(
  path.join(__dirname, '__fixtures__'),
);

/** One row per fixture file; a fixture without a row fails. */
const EXPECTED: Record<
  string,
  {
    phase: DatabasePhase;
    reason: string;
    replicas?: { desired?: number; ready?: number };
  }
> = {
  'redis-standalone-no-statefulset.schema-derived.json': {
    phase: 'Pending',
    reason: 'AwaitingOperator',
  },
  'redis-standalone-starting.schema-derived.json': {
    phase: 'Provisioning',
    reason: 'ReplicasNotReady',
    replicas: { desired: 1, ready: 0 },
  },
  'redis-standalone-ready.schema-derived.json': {
    phase: 'Ready',
    reason: 'AllReplicasReady',
    replicas: { desired: 1, ready: 1 },
  },
  'redis-standalone-rolling-update.schema-derived.json': {
    phase: 'Updating',
    reason: 'RollingUpdate',
  },
  'redis-standalone-deleting.schema-derived.json': {
    phase: 'Deleting',
    reason: 'DeletionInProgress',
  },
  'redissentinel-ready.schema-derived.json': {
    phase: 'Ready',
    reason: 'AllReplicasReady',
    replicas: { desired: 3, ready: 3 },
  },
  'redissentinel-partly-ready.schema-derived.json': {
    phase: 'Provisioning',
    reason: 'ReplicasNotReady',
    replicas: { desired: 3, ready: 2 },
  },
};

describe('redisOperatorAdapter on schema-derived fixtures (kinds without status)', () => {
  it('has a row for every fixture and a fixture for every row', () => {
    expect(fixtures.map(f => f.file).sort()).toEqual(
      Object.keys(EXPECTED).sort(),
    );
  });

  it.each(fixtures.map(f => [f.file, f] as const))('%s', (file, fixture) => {
    expect(fixture.provenance).toMatch(/NOT a real capture/);
    const found = findAdapterForObject(
      fixture.object.apiVersion,
      fixture.object.kind,
    )!;
    expect(found.adapter.id).toBe(redisOperatorAdapter.id);
    assertFitsCrd('redis-operator', found.kind, fixture.object);
    // The StatefulSet the cache is told to watch is the one the fixture provides (its pods besides).
    expect(
      redisOperatorAdapter
        .relatedRefs(fixture.object, found.kind)
        .filter(r => r.type.plural === 'statefulsets')
        .map(r => r.name),
    ).toEqual(
      [
        fixture.related[0]?.metadata?.name ??
          `${fixture.object.metadata?.name}`,
      ].filter(Boolean),
    );
    const instance = redisOperatorAdapter.project(
      fixture.object,
      found.kind,
      lookupOf(fixture.related),
    );
    expect(instance.status).toMatchObject(EXPECTED[file]);
  });

  it('says Unknown, not Ready, when a RedisReplication has a master but its StatefulSet is missing', () => {
    const replication: KubeObject = {
      ...readSample(
        'redis-operator',
        'redis-replication.yaml',
        'RedisReplication',
      ),
      status: { masterNode: 'redis-replication-0' },
    };
    const instance = redisOperatorAdapter.project(
      replication,
      kindOf('RedisReplication'),
      emptyLookup,
    );
    expect(instance.status).toMatchObject({
      phase: 'Unknown',
      reason: 'StatefulSetNotFound',
    });
  });
});

describe('redisOperatorAdapter on upstream samples', () => {
  it.each([
    [
      'redis-standalone.yaml',
      'Redis',
      'standalone',
      1,
      [{ name: 'primary', host: 'redis-standalone.ns.svc', port: 6379 }],
      ['redis-standalone'],
    ],
    [
      'redis-replication.yaml',
      'RedisReplication',
      'replication',
      3,
      [
        {
          name: 'primary',
          host: 'redis-replication-master.ns.svc',
          port: 6379,
        },
        {
          name: 'readonly',
          host: 'redis-replication-replica.ns.svc',
          port: 6379,
        },
      ],
      ['redis-replication'],
    ],
    [
      'redis-sentinel.yaml',
      'RedisSentinel',
      'sentinel',
      3,
      [
        {
          name: 'sentinel',
          host: 'redis-sentinel-sentinel.ns.svc',
          port: 26379,
        },
      ],
      ['redis-sentinel-sentinel'],
    ],
    [
      'redis-cluster.yaml',
      'RedisCluster',
      'cluster',
      3,
      [{ name: 'primary', host: 'redis-cluster-leader.ns.svc', port: 6379 }],
      [],
    ],
  ])(
    '%s → %s/%s',
    (file, kindName, topology, replicas, endpoints, statefulSets) => {
      const sample = readSample('redis-operator', file, kindName);
      const source = {
        ...sample,
        metadata: { ...sample.metadata, namespace: 'ns' },
      };
      const instance = redisOperatorAdapter.project(
        source,
        kindOf(kindName),
        emptyLookup,
      );
      expect(instance.spec).toMatchObject({
        engine: 'redis',
        topology,
        replicas,
      });
      expect(instance.status?.endpoints).toEqual(endpoints);
      expect(
        redisOperatorAdapter
          .relatedRefs(source, kindOf(kindName))
          .filter(r => r.type.plural === 'statefulsets')
          .map(r => r.name),
      ).toEqual(statefulSets);
      // Image tag "latest" names no version.
      expect(instance.spec.version).toBe(
        kindName === 'RedisCluster' ? '7' : undefined,
      );
      // No user Secret referenced: the operator generates none, so there is no credentials ref.
      expect(instance.status?.credentialsSecretRef).toBeUndefined();
      expect(instance.status?.phase).toBe('Pending');
    },
  );

  it.each([
    ['password_protected-standalone.yaml', 'Redis'],
    ['password_protected-clusterd.yaml', 'RedisCluster'],
  ])('%s references the user Secret as credentials', (file, kindName) => {
    const sample = readSample('redis-operator', file, kindName);
    const instance = redisOperatorAdapter.project(
      sample,
      kindOf(kindName),
      emptyLookup,
    );
    expect(instance.status?.credentialsSecretRef).toEqual({
      name: sample.spec.kubernetesConfig.redisSecret.name,
    });
    expect(instance.spec.storage).toEqual({ size: '1Gi' });
  });

  it('counts leaders and followers of a RedisCluster against its shards', () => {
    const sample = readSample(
      'redis-operator',
      'redis-cluster.yaml',
      'RedisCluster',
    );
    const instance = redisOperatorAdapter.project(
      {
        ...sample,
        status: {
          state: 'Ready',
          reason: 'RedisCluster is ready',
          readyLeaderReplicas: 3,
          readyFollowerReplicas: 2,
        },
      },
      kindOf('RedisCluster'),
      emptyLookup,
    );
    // clusterSize 3 → 3 leaders + 3 followers; state stays Ready with a follower gone (upstream #1359).
    expect(instance.status).toMatchObject({
      phase: 'Degraded',
      reason: 'ReplicasNotReady',
      replicas: { desired: 6, ready: 5 },
    });
  });
});
