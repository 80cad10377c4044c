import { describe, it, expect } from '@jest/globals';
import {
  type DatabaseInstance,
  type DatabaseInstanceSpec,
  LABEL_MANAGED_BY,
  MANAGED_BY_VALUE,
} from '@internal/plugin-databases-common';
import { describeCause } from '../../writes/FieldCause';
import { emptyLookup } from '../__testUtils__/schemaDerivedFixtures';
import { updateThrough } from '../__testUtils__/updateThrough';
import type { KubeObject } from '../types';
import { redisOperatorAdapter } from './adapter';

const write = redisOperatorAdapter.write!;

const instance = (spec: Partial<DatabaseInstanceSpec>): DatabaseInstance => ({
  apiVersion: 'dbaas.platform.dev/v1alpha1',
  kind: 'DatabaseInstance',
  metadata: { name: 'cache', namespace: 'team-a' },
  spec: {
    engine: 'redis',
    version: '7.0.15',
    storage: { size: '1Gi' },
    ...spec,
  } as DatabaseInstanceSpec,
});

const object = (kind: string, spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'redis.redis.opstreelabs.in/v1beta2',
  kind,
  metadata: { name: 'cache', namespace: 'team-a', generation: 1 },
  spec,
});

const update = (
  current: KubeObject,
  change: Partial<DatabaseInstanceSpec>,
  without: Array<keyof DatabaseInstanceSpec> = [],
) => updateThrough(redisOperatorAdapter, current, change, without);
const specAfter = (result: ReturnType<typeof update>) => {
  expect((result.causes ?? []).map(describeCause)).toEqual([]);
  return result.object!.spec!;
};

describe('redis-operator new objects', () => {
  it('a cluster: clusterSize shards, clusterVersion from the major, persistence on', () => {
    const created = write.toOperatorObject(
      instance({ topology: 'cluster', replicas: 3, version: '6.2.14' }),
    );
    expect(created.kind).toBe('RedisCluster');
    expect(created.spec).toMatchObject({
      clusterSize: 3,
      clusterVersion: 'v6',
      persistenceEnabled: true,
      kubernetesConfig: {
        image: 'quay.io/opstree/redis:v6.2.14',
        imagePullPolicy: 'IfNotPresent',
        redisSecret: { name: 'cache-password', key: 'password' },
      },
    });
  });

  it('a sentinel: a RedisReplication with three embedded Sentinels of the same version', () => {
    const created = write.toOperatorObject(
      instance({ topology: 'sentinel', replicas: 3 }),
    );
    expect(created.kind).toBe('RedisReplication');
    expect(created.spec?.sentinel).toEqual({
      size: 3,
      image: 'quay.io/opstree/redis-sentinel:v7.0.15',
      imagePullPolicy: 'IfNotPresent',
    });
  });

  it('a standalone: no clusterSize, and a topology it does not name is standalone', () => {
    const standalone = write.toOperatorObject(
      instance({ topology: 'standalone' }),
    );
    expect(standalone.kind).toBe('Redis');
    expect(standalone.spec).not.toHaveProperty('clusterSize');
    expect(standalone.spec?.storage).toEqual({
      volumeClaimTemplate: {
        spec: expect.objectContaining({
          resources: { requests: { storage: '1Gi' } },
        }),
      },
    });
    expect(write.toOperatorObject(instance({})).kind).toBe('Redis');
  });

  it('creates the password Secret the object references, labelled as ours', () => {
    const [secret] = write.secretsToCreate(instance({}), () => 'pw');
    expect(secret).toMatchObject({
      metadata: {
        name: 'cache-password',
        namespace: 'team-a',
        labels: { [LABEL_MANAGED_BY]: MANAGED_BY_VALUE },
      },
    });
    expect(secret.stringData).toEqual({ password: 'pw' });
  });
});

describe('redis-operator updates', () => {
  it('moves the image tag, the embedded Sentinel image and keeps the registry', () => {
    const current = object('RedisReplication', {
      clusterSize: 3,
      kubernetesConfig: { image: 'mirror.example/redis:v6.2.14' },
      sentinel: { size: 3, image: 'mirror.example/redis-sentinel:v6.2.14' },
    });
    const spec = specAfter(update(current, { version: '7.0.15' }));
    expect(spec.kubernetesConfig.image).toBe('mirror.example/redis:v7.0.15');
    expect(spec.sentinel.image).toBe('mirror.example/redis-sentinel:v7.0.15');
    expect(spec).not.toHaveProperty('clusterVersion');
  });

  it('writes the operator image when the object names none, and leaves a Sentinel without image alone', () => {
    const current = object('RedisReplication', {
      clusterSize: 3,
      kubernetesConfig: {},
      sentinel: { size: 3 },
    });
    const spec = specAfter(update(current, { version: '7.0.15' }));
    expect(spec.kubernetesConfig.image).toBe('quay.io/opstree/redis:v7.0.15');
    expect(spec.sentinel).toEqual({ size: 3 });
  });

  it('keeps the image when the version does not change', () => {
    const current = object('RedisReplication', {
      clusterSize: 3,
      kubernetesConfig: { image: 'mirror.example/redis:v6.2.14' },
    });
    const spec = specAfter(update(current, { replicas: 5 }));
    expect(spec.kubernetesConfig.image).toBe('mirror.example/redis:v6.2.14');
    expect(spec.clusterSize).toBe(5);
  });

  it('moves a RedisCluster clusterVersion with the major', () => {
    const current = object('RedisCluster', {
      clusterSize: 3,
      clusterVersion: 'v6',
      kubernetesConfig: { image: 'quay.io/opstree/redis:v6.2.14' },
    });
    expect(
      specAfter(update(current, { version: '7.0.15' })).clusterVersion,
    ).toBe('v7');
  });

  it('keeps clusterSize when the change names no replicas', () => {
    const current = object('RedisReplication', { clusterSize: 3 });
    expect(specAfter(update(current, {}, ['replicas'])).clusterSize).toBe(3);
  });

  it('resizes the claim template in place, keeping its other fields', () => {
    const current = object('RedisReplication', {
      clusterSize: 3,
      storage: {
        keepAfterDelete: true,
        volumeClaimTemplate: {
          spec: {
            accessModes: ['ReadWriteOnce'],
            resources: { requests: { storage: '1Gi' }, limits: { x: '1' } },
          },
        },
      },
    });
    expect(
      specAfter(update(current, { storage: { size: '5Gi' } })).storage,
    ).toEqual({
      keepAfterDelete: true,
      volumeClaimTemplate: {
        spec: {
          accessModes: ['ReadWriteOnce'],
          resources: { requests: { storage: '5Gi' }, limits: { x: '1' } },
        },
      },
    });
  });

  it('adds a claim template beside the other storage fields when there is none', () => {
    const current = object('RedisReplication', {
      clusterSize: 3,
      storage: { keepAfterDelete: true },
    });
    const storage = specAfter(
      update(current, { storage: { size: '5Gi' } }),
    ).storage;
    expect(storage.keepAfterDelete).toBe(true);
    expect(storage.volumeClaimTemplate.spec.resources).toEqual({
      requests: { storage: '5Gi' },
    });
  });

  it('refuses to size a RedisSentinel, which has no volumes, and takes its other changes', () => {
    const sentinel = object('RedisSentinel', { clusterSize: 3 });
    expect(
      (update(sentinel, { storage: { size: '5Gi' } }).causes ?? []).map(
        describeCause,
      ),
    ).toEqual([
      'spec.storage.size: Forbidden: a RedisSentinel has no volumes to size: its Sentinels keep no data',
    ]);
    expect(specAfter(update(sentinel, { replicas: 5 })).clusterSize).toBe(5);
  });
});

describe('redis-operator connection', () => {
  const secret = (data: Record<string, string>): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'mine', namespace: 'team-a' },
    data: Object.fromEntries(
      Object.entries(data).map(([k, v]) => [
        k,
        Buffer.from(v).toString('base64'),
      ]),
    ),
  });
  const connect = (source: KubeObject, s?: KubeObject) => {
    const kind = redisOperatorAdapter.kinds.find(k => k.kind === source.kind)!;
    const projected = redisOperatorAdapter.project(source, kind, emptyLookup);
    return write.connection(projected, source, s);
  };

  it('reads the password under the key the object names', () => {
    const source = object('Redis', {
      kubernetesConfig: { redisSecret: { name: 'mine', key: 'requirepass' } },
    });
    expect(write.connectionSecretName(source)).toBe('mine');
    expect(
      connect(source, secret({ requirepass: 'pw', password: 'no' })),
    ).toMatchObject({
      username: 'default',
      password: 'pw',
      secretRef: { name: 'mine' },
      uri: 'redis://default:pw@cache.team-a.svc:6379',
    });
  });

  it('reads the password key when the reference names no key', () => {
    const source = object('Redis', {
      kubernetesConfig: { redisSecret: { name: 'mine' } },
    });
    expect(connect(source, secret({ password: 'pw' })).password).toBe('pw');
  });

  it('sends no credentials without a redisSecret, nor to Sentinel', () => {
    const open = object('Redis', {});
    expect(write.connectionSecretName(open)).toBeUndefined();
    expect(connect(open)).toMatchObject({
      uri: 'redis://cache.team-a.svc:6379',
    });
    expect(connect(open).username).toBeUndefined();
    const sentinel = connect(
      object('RedisReplication', {
        clusterSize: 3,
        sentinel: { size: 3 },
        kubernetesConfig: { redisSecret: { name: 'mine' } },
      }),
      secret({ password: 'pw' }),
    );
    expect(sentinel.endpoints.find(e => e.name === 'sentinel')?.uri).toBe(
      'redis://cache-s-hl.team-a.svc:26379',
    );
    expect(sentinel.endpoints.find(e => e.name === 'primary')?.uri).toBe(
      'redis://default:pw@cache-master.team-a.svc:6379',
    );
  });
});
