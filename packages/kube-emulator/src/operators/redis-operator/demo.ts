import type { OperatorDemo } from '../types';

const redisConfig = (image = 'quay.io/opstree/redis:v7.0.15') => ({
  image,
  imagePullPolicy: 'IfNotPresent',
  resources: {
    requests: { cpu: '100m', memory: '128Mi' },
    limits: { cpu: '200m', memory: '256Mi' },
  },
});

const redisStorage = (size: string) => ({
  volumeClaimTemplate: {
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: size } },
    },
  },
});

/** The demo's objects of this operator, and how its dialect says each reached its demo phase. */
export const redisDemo: OperatorDemo = {
  instances: [
    {
      kind: 'Redis',
      namespace: 'team-a',
      name: 'orders-cache',
      component: 'orders',
      phase: 'Ready',
      mode: 'ready',
      spec: { kubernetesConfig: redisConfig(), storage: redisStorage('1Gi') },
    },
    {
      kind: 'RedisReplication',
      namespace: 'team-b',
      name: 'checkout-sessions',
      component: 'checkout',
      phase: 'Ready',
      mode: 'ready',
      spec: {
        clusterSize: 3,
        kubernetesConfig: redisConfig(),
        storage: redisStorage('2Gi'),
      },
    },
    {
      kind: 'RedisSentinel',
      namespace: 'team-b',
      name: 'checkout-sentinel',
      component: 'checkout',
      phase: 'Ready',
      mode: 'ready',
      spec: {
        clusterSize: 3,
        kubernetesConfig: redisConfig('quay.io/opstree/redis-sentinel:v7.0.15'),
        redisSentinelConfig: {
          redisReplicationName: 'checkout-sessions',
          masterGroupName: 'myMaster',
        },
      },
    },
    {
      kind: 'RedisCluster',
      namespace: 'team-b',
      name: 'checkout-cache',
      component: 'checkout',
      phase: 'Ready',
      mode: 'ready',
      spec: {
        clusterSize: 3,
        clusterVersion: 'v7',
        persistenceEnabled: true,
        kubernetesConfig: redisConfig(),
        storage: redisStorage('1Gi'),
      },
    },
  ],
  // Redis, RedisReplication and RedisSentinel write no status: their StatefulSets tell.
  observedPhase: (obj, { allReady }) =>
    (obj.kind !== 'RedisCluster' || (obj.status as any)?.state === 'Ready') &&
    allReady
      ? 'Ready'
      : 'other',
};
