import {
  type DatabaseTopology,
  LABEL_MANAGED_BY,
  MANAGED_BY_VALUE,
} from '@internal/plugin-databases-common';
import { endpointsWithUris } from '../../writes/connectionEndpoints';
import type { EngineRules } from '../../writes/EngineRules';
import { forbidden } from '../../writes/FieldCause';
import { replicaRulesOf } from '../../writes/replicaRule';
import { withVersion } from '../../writes/imageRef';
import { claimSpec } from '../../writes/claimSpec';
import { connectionDetails } from '../../writes/connectionDetails';
import { operatorObject } from '../../writes/operatorObject';
import { resourceRequirements } from '../../writes/resources';
import { setResources } from '../../writes/setResources';
import { opaqueSecret, secretValue } from '../../writes/secretValue';
import { rulesWriteSide } from '../../writes/rulesWriteSide';
import { updateSide } from '../../writes/updateFrame';
import { majorOf } from '../../writes/version';
import { asRecord, asString, nameOf, namespaceOf } from '../shared/read';
import type { AdapterWriteSide, SourceKind } from '../types';

const REDIS_PORT = 6379;
/** The operator's images; tags are `v<redis version>`. */
const REDIS_IMAGE = 'quay.io/opstree/redis';
const SENTINEL_IMAGE = 'quay.io/opstree/redis-sentinel';
/** Sentinels beside a `sentinel` instance: three keep a majority (quorum 2) when one fails. */
const SENTINELS = 3;
const PASSWORD_KEY = 'password';
/** Redis >= 6 names the user of requirepass `default`. */
const REDIS_USER = 'default';

const REPLICAS: Record<string, number> = {
  standalone: 1,
  replication: 3,
  sentinel: 3,
  cluster: 3,
};

/** OT-CONTAINER-KIT redis-operator's rules (docs/engines.md). */
export const redisRules: EngineRules = {
  engine: 'redis',
  operator: 'redis-operator',
  topologies: ['standalone', 'replication', 'sentinel', 'cluster'],
  // Redis >= 6; images quay.io/opstree/redis:v<version>.
  versions: ['7.0.15', '6.2.14'],
  runnableVersions: {
    min: '6',
    source: 'redis-operator supports Redis 6 and later',
  },
  replicas: replicaRulesOf({
    standalone: {
      min: 1,
      max: 1,
      message: 'standalone runs exactly 1 replica',
    },
    replication: {
      min: 2,
      message: 'replication needs at least 2 replicas (a master and a replica)',
    },
    sentinel: {
      min: 2,
      message: 'sentinel needs at least 2 replicas (a master and a replica)',
    },
    // Redis Cluster needs three masters to agree on failover; replicas counts shards (masters).
    cluster: { min: 3, message: 'a Redis Cluster needs at least 3 shards' },
  }),
  storageGrowth: true, // the operator expands the claims of its StatefulSets
  scaleDown: true,
};

/** The password Secret this API creates; the operator generates none. */
const passwordSecretName = (name: string) => `${name}-password`;

const redisImage = (version: string | undefined) =>
  `${REDIS_IMAGE}:v${version}`;

function storageSpec(size: string | undefined, storageClassName?: string) {
  return {
    volumeClaimTemplate: { spec: claimSpec({ size, storageClassName }) },
  };
}

/** The write side for the four redis-operator kinds, one per topology. */
export function redisWriteSide(
  kinds: Record<
    Exclude<DatabaseTopology, 'galera' | 'innodbcluster'>,
    SourceKind
  >,
): AdapterWriteSide {
  const kindFor = (topology: DatabaseTopology) =>
    kinds[topology as keyof typeof kinds] ?? kinds.standalone;
  return {
    ...rulesWriteSide(redisRules, 'standalone'),
    defaults: topology => ({
      version: '7.0.15',
      replicas: REPLICAS[topology] ?? 1,
      storage: { size: '1Gi' },
      resources: {
        requests: { cpu: '100m', memory: '128Mi' },
        limits: { memory: '256Mi' },
      },
    }),
    // RedisCluster's Service `<name>-follower-additional` (+20) must fit 63, as must the
    // revision label `<name>-follower-<10>` of its StatefulSet's pods (+20 as well).
    maxNameLength: 43,
    kindFor,
    toOperatorObject(instance, options) {
      const { spec } = instance;
      const name = instance.metadata.name ?? '';
      const kind = kindFor(spec.topology ?? 'standalone');
      const resources = resourceRequirements(spec.resources);
      const body: Record<string, unknown> = {
        kubernetesConfig: {
          image: redisImage(spec.version),
          imagePullPolicy: 'IfNotPresent',
          ...(resources && { resources }),
          redisSecret: { name: passwordSecretName(name), key: PASSWORD_KEY },
        },
        storage: storageSpec(
          spec.storage?.size,
          spec.storage?.storageClassName,
        ),
      };
      if (spec.topology !== 'standalone') body.clusterSize = spec.replicas;
      if (spec.topology === 'cluster') {
        body.clusterVersion = `v${majorOf(spec.version ?? '') ?? 7}`;
        body.persistenceEnabled = true;
      }
      if (spec.topology === 'sentinel')
        // Embedded Sentinel (RedisReplication.spec.sentinel): one object, so one instance,
        // and the operator keeps Sentinel pointed at the replication it belongs to.
        body.sentinel = {
          size: SENTINELS,
          image: `${SENTINEL_IMAGE}:v${spec.version}`,
          imagePullPolicy: 'IfNotPresent',
        };
      return operatorObject(kind, instance, options, body);
    },
    ...updateSide({
      rules: redisRules,
      refuse: (current, next, previous) =>
        // A RedisSentinel (adopted; we create none) keeps no data: its CRD has no storage, and
        // a size written there would be pruned, so the resize would silently never happen.
        current.kind === 'RedisSentinel' &&
        next.storage?.size &&
        next.storage.size !== previous.storage?.size
          ? [
              forbidden(
                'spec.storage.size',
                'a RedisSentinel has no volumes to size: its Sentinels keep no data',
              ),
            ]
          : [],
      write(spec, change, object) {
        const config = (spec.kubernetesConfig =
          asRecord(spec.kubernetesConfig) ?? {});
        if (change.version) {
          const tag = `v${change.version}`;
          config.image =
            typeof config.image === 'string'
              ? withVersion(config.image, change.version, tag)
              : redisImage(change.version);
          const sentinel = asRecord(spec.sentinel);
          if (sentinel && typeof sentinel.image === 'string')
            sentinel.image = withVersion(sentinel.image, change.version, tag);
          if (object.kind === 'RedisCluster')
            spec.clusterVersion = `v${majorOf(change.version) ?? 7}`;
        }
        // Redis (standalone) has no size field: it is always one pod.
        if (object.kind !== 'Redis' && change.replicas !== undefined)
          spec.clusterSize = change.replicas;
        if (change.storageSize) {
          const template = asRecord(
            asRecord(spec.storage)?.volumeClaimTemplate,
          );
          const claim = asRecord(template?.spec);
          if (claim) {
            const claimResources = (claim.resources =
              asRecord(claim.resources) ?? {});
            claimResources.requests = {
              ...asRecord(claimResources.requests),
              storage: change.storageSize,
            };
          } else
            spec.storage = {
              ...asRecord(spec.storage),
              ...storageSpec(change.storageSize, change.storageClassName),
            };
        }
        setResources(config, change.resources);
      },
    }),
    secretsToCreate(instance, generatePassword) {
      return [
        opaqueSecret(
          passwordSecretName(instance.metadata.name ?? ''),
          instance.metadata.namespace,
          { [LABEL_MANAGED_BY]: MANAGED_BY_VALUE },
          { [PASSWORD_KEY]: generatePassword() },
        ),
      ];
    },
    connectionSecretName: source =>
      asString(
        asRecord(asRecord(asRecord(source.spec)?.kubernetesConfig)?.redisSecret)
          ?.name,
      ),
    connection(instance, source, secret) {
      const ref = asRecord(
        asRecord(asRecord(source.spec)?.kubernetesConfig)?.redisSecret,
      );
      const secretName = asString(ref?.name);
      // No redisSecret: Redis runs without a password, and clients send no credentials.
      const password = secretName
        ? secretValue(secret, asString(ref?.key) ?? PASSWORD_KEY)
        : undefined;
      const username = password !== undefined ? REDIS_USER : undefined;
      const { primary, endpoints } = endpointsWithUris(
        instance,
        {
          name: 'primary',
          host: `${nameOf(source)}.${namespaceOf(source)}.svc`,
          port: REDIS_PORT,
        },
        e =>
          e.name === 'sentinel'
            ? // Sentinel itself runs without auth here; it hands out the master's address.
              { scheme: 'redis' }
            : { scheme: 'redis', username, password },
      );
      return connectionDetails(primary, endpoints, {
        username,
        password,
        secretName,
      });
    },
  };
}
