import { readManifest, type Manifest } from './upstream';

/** One engine as the conformance suite exercises it through its operator's own objects. */
export interface EngineCase {
  engine: string;
  /** Folder under the shared operators directory. */
  operatorDir: string;
  /** `plural.group` for kubectl. */
  resource: string;
  kind: string;
  /** Upstream sample the suite creates (relative to the operators directory). */
  sampleFile: string;
  /** Every kind a DatabaseInstance of this engine may be projected from. */
  kinds: string[];
  /**
   * The status the operator writes once the sample is ready: an upstream status object, with
   * counts and versions made to agree with the sample's spec (the upstream objects were of
   * other sizes), or, where upstream has no status object, the shape its docs give.
   */
  readyStatus(sample: Manifest): Record<string, unknown>;
  /**
   * Where the operator documents its pause, read off its object, and the value that pauses;
   * none where the operator has no way to pause (spec.paused: true is refused).
   */
  pause?: { read(operatorObject: any): unknown; value: unknown };
}

const annotation = (key: string) => (o: any) => o.metadata?.annotations?.[key];

const statusOf = (file: string): Record<string, any> => {
  const status = readManifest(file).status;
  if (!status || typeof status !== 'object')
    throw new Error(`${file} has no status`);
  return status;
};

const nodeCount = (sample: Manifest): number =>
  (sample.spec.nodeSets as Array<{ count?: number }>).reduce(
    (n, s) => n + (s.count ?? 1),
    0,
  );

/** Every engine, each with an upstream sample and the status that makes it Ready. */
export const ENGINE_CASES: EngineCase[] = [
  {
    engine: 'mariadb',
    operatorDir: 'mariadb-operator',
    resource: 'mariadbs.k8s.mariadb.com',
    kind: 'MariaDB',
    kinds: ['MariaDB'],
    sampleFile: 'mariadb-operator/samples/mariadb_minimal.yaml',
    readyStatus: () =>
      statusOf('mariadb-operator/status/mariadb-ready.argocd-fixture.yaml'),
    pause: { read: o => o.spec?.suspend, value: true },
  },
  {
    engine: 'mysql',
    operatorDir: 'mysql-operator',
    resource: 'innodbclusters.mysql.oracle.com',
    kind: 'InnoDBCluster',
    kinds: ['InnoDBCluster'],
    sampleFile: 'mysql-operator/samples/sample-cluster.yaml',
    // No upstream status object exists (mysql-operator/status/README.md); README.md documents
    // Ready as cluster.status ONLINE with every instance online.
    readyStatus: sample => ({
      cluster: {
        status: 'ONLINE',
        onlineInstances: sample.spec.instances ?? 1,
      },
    }),
  },
  {
    engine: 'redis',
    operatorDir: 'redis-operator',
    resource: 'redisclusters.redis.redis.opstreelabs.in',
    kind: 'RedisCluster',
    kinds: ['Redis', 'RedisReplication', 'RedisSentinel', 'RedisCluster'],
    sampleFile: 'redis-operator/samples/redis-cluster.yaml',
    readyStatus: sample => ({
      ...statusOf('redis-operator/status/rediscluster-ready.e2e.yaml'),
      readyLeaderReplicas: sample.spec.clusterSize,
      readyFollowerReplicas: sample.spec.clusterSize,
    }),
  },
  {
    engine: 'elasticsearch',
    operatorDir: 'eck',
    resource: 'elasticsearches.elasticsearch.k8s.elastic.co',
    kind: 'Elasticsearch',
    kinds: ['Elasticsearch'],
    sampleFile: 'eck/samples/elasticsearch.yaml',
    readyStatus: sample => ({
      ...statusOf(
        'eck/status/elasticsearch-ready-green.upstream-testdata.yaml',
      ),
      availableNodes: nodeCount(sample),
      version: sample.spec.version,
    }),
    pause: {
      read: annotation('eck.k8s.elastic.co/pause-orchestration'),
      value: 'true',
    },
  },
  {
    engine: 'rabbitmq',
    operatorDir: 'rabbitmq-cluster-operator',
    resource: 'rabbitmqclusters.rabbitmq.com',
    kind: 'RabbitmqCluster',
    kinds: ['RabbitmqCluster'],
    sampleFile: 'rabbitmq-cluster-operator/samples/hello-world.yaml',
    readyStatus: () =>
      statusOf(
        'rabbitmq-cluster-operator/status/rabbitmqcluster-ready.argocd-fixture.yaml',
      ),
    pause: {
      read: o => o.metadata?.labels?.['rabbitmq.com/pauseReconciliation'],
      value: 'true',
    },
  },
  {
    engine: 'postgresql',
    operatorDir: 'cloudnative-pg',
    resource: 'clusters.postgresql.cnpg.io',
    kind: 'Cluster',
    kinds: ['Cluster'],
    // cluster-example: 3 instances, the operator's default image, 1Gi.
    sampleFile: 'cloudnative-pg/samples/cluster-example.yaml',
    // The captured healthy Cluster of the same name and size: 3/3 ready, primary as targeted.
    readyStatus: () =>
      statusOf('cloudnative-pg/status/cluster-healthy.argocd-fixture.yaml'),
    pause: { read: annotation('cnpg.io/hibernation'), value: 'on' },
  },
];
