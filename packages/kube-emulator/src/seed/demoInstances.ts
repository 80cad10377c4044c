import type { CustomKind, HealthMode } from '../operators/types';
import { MARIADB_KIND } from '../operators/mariadb-operator/mariadbOperator';
import { INNODBCLUSTER_KIND } from '../operators/mysql-operator/mysqlOperator';
import {
  REDIS_CLUSTER_KIND,
  REDIS_KIND,
  REDIS_REPLICATION_KIND,
  REDIS_SENTINEL_KIND,
} from '../operators/redis-operator/redisOperator';
import { ELASTICSEARCH_KIND } from '../operators/eck/eckOperator';
import { RABBITMQCLUSTER_KIND } from '../operators/rabbitmq-cluster-operator/rabbitmqOperator';
import { CNPG_CLUSTER_KIND } from '../operators/cloudnative-pg/cloudnativePgOperator';

/** The phase a demo instance is meant to show once the emulated operators have run. */
export type DemoPhase =
  'Ready' | 'Provisioning' | 'Degraded' | 'Failed' | 'Pending';

/** One operator object of the demo. */
export interface DemoInstance {
  kind: CustomKind;
  namespace: string;
  name: string;
  /** Catalog component (`backstage.io/kubernetes-id`). */
  component: string;
  spec: Record<string, unknown>;
  phase: DemoPhase;
  /** How the control API holds it there (`ready` = converge normally). */
  mode: HealthMode;
  message?: string;
}

/** Demo teams (namespaces) and what each owns. */
export const DEMO_TEAMS = ['team-a', 'team-b', 'team-c'] as const;

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
const pgImage = (version: string) =>
  `ghcr.io/cloudnative-pg/postgresql:${version}-system-trixie`;
const esNodeSet = (name: string, count: number, size: string) => ({
  name,
  count,
  config: { 'node.store.allow_mmap': false },
  volumeClaimTemplates: [
    {
      metadata: { name: 'elasticsearch-data' },
      spec: {
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: size } },
      },
    },
  ],
});

/**
 * The demo's operator objects: every engine and every Redis kind, spread over three teams and
 * five components, in each lifecycle phase.
 */
export const DEMO_INSTANCES: readonly DemoInstance[] = [
  {
    kind: MARIADB_KIND,
    namespace: 'team-a',
    name: 'orders-db',
    component: 'orders',
    phase: 'Ready',
    mode: 'ready',
    spec: {
      image: 'mariadb:11.4.2',
      replicas: 3,
      galera: { enabled: true },
      rootPasswordSecretKeyRef: {
        name: 'orders-db-root',
        key: 'password',
        generate: true,
      },
      storage: { size: '10Gi', storageClassName: 'standard' },
      resources: {
        requests: { cpu: '500m', memory: '1Gi' },
        limits: { memory: '2Gi' },
      },
    },
  },
  {
    kind: REDIS_KIND,
    namespace: 'team-a',
    name: 'orders-cache',
    component: 'orders',
    phase: 'Ready',
    mode: 'ready',
    spec: { kubernetesConfig: redisConfig(), storage: redisStorage('1Gi') },
  },
  {
    kind: INNODBCLUSTER_KIND,
    namespace: 'team-a',
    name: 'payments-db',
    component: 'payments',
    phase: 'Ready',
    mode: 'ready',
    spec: {
      secretName: 'payments-db-root',
      version: '9.1.0',
      instances: 3,
      router: { instances: 1 },
      tlsUseSelfSigned: true,
      datadirVolumeClaimTemplate: {
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: '20Gi' } },
      },
    },
  },
  {
    kind: MARIADB_KIND,
    namespace: 'team-a',
    name: 'payments-ledger',
    component: 'payments',
    phase: 'Degraded',
    mode: 'degraded',
    spec: {
      image: 'mariadb:11.4.2',
      replicas: 3,
      galera: { enabled: true },
      storage: { size: '5Gi' },
    },
  },
  {
    kind: ELASTICSEARCH_KIND,
    namespace: 'team-b',
    name: 'search',
    component: 'search',
    phase: 'Ready',
    mode: 'ready',
    spec: { version: '9.4.3', nodeSets: [esNodeSet('default', 3, '10Gi')] },
  },
  {
    kind: ELASTICSEARCH_KIND,
    namespace: 'team-b',
    name: 'search-logs',
    component: 'search',
    phase: 'Provisioning',
    mode: 'provisioning',
    spec: {
      version: '9.4.3',
      nodeSets: [esNodeSet('masters', 3, '2Gi'), esNodeSet('data', 2, '50Gi')],
    },
  },
  {
    kind: REDIS_REPLICATION_KIND,
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
    kind: REDIS_SENTINEL_KIND,
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
    kind: REDIS_CLUSTER_KIND,
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
  {
    kind: RABBITMQCLUSTER_KIND,
    namespace: 'team-c',
    name: 'notifications-mq',
    component: 'notifications',
    phase: 'Ready',
    mode: 'ready',
    spec: {
      image: 'rabbitmq:4.2.6-management',
      replicas: 3,
      persistence: { storage: '10Gi' },
      resources: {
        requests: { cpu: '500m', memory: '1Gi' },
        limits: { cpu: '1', memory: '1Gi' },
      },
    },
  },
  {
    kind: MARIADB_KIND,
    namespace: 'team-c',
    name: 'notifications-archive',
    component: 'notifications',
    phase: 'Failed',
    mode: 'failed',
    message: 'Error creating StatefulSet: exceeded quota: compute-resources',
    spec: { image: 'mariadb:10.11.9', replicas: 1, storage: { size: '50Gi' } },
  },
  // One PostgreSQL (CloudNativePG Cluster) per team: a primary with standbys, or a lone primary.
  {
    kind: CNPG_CLUSTER_KIND,
    namespace: 'team-a',
    name: 'payments-pg',
    component: 'payments',
    phase: 'Ready',
    mode: 'ready',
    spec: {
      instances: 3,
      imageName: pgImage('18.4'),
      storage: { size: '10Gi' },
      resources: {
        requests: { cpu: '250m', memory: '512Mi' },
        limits: { memory: '1Gi' },
      },
    },
  },
  {
    kind: CNPG_CLUSTER_KIND,
    namespace: 'team-b',
    name: 'checkout-pg',
    component: 'checkout',
    phase: 'Ready',
    mode: 'ready',
    spec: {
      instances: 1,
      imageName: pgImage('17.10'),
      storage: { size: '5Gi' },
    },
  },
  {
    kind: CNPG_CLUSTER_KIND,
    namespace: 'team-c',
    name: 'notifications-pg',
    component: 'notifications',
    phase: 'Ready',
    mode: 'ready',
    spec: {
      instances: 2,
      imageName: pgImage('18.3'),
      storage: { size: '5Gi' },
    },
  },
  {
    kind: RABBITMQCLUSTER_KIND,
    namespace: 'team-c',
    name: 'notifications-events',
    component: 'notifications',
    phase: 'Pending',
    mode: 'stalled',
    spec: { replicas: 1 },
  },
];
