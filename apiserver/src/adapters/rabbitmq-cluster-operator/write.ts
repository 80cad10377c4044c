import { endpointsWithUris } from '../../writes/connectionEndpoints';
import type { EngineRules } from '../../writes/EngineRules';
import { replicaRulesOf } from '../../writes/replicaRule';
import { connectionDetails } from '../../writes/connectionDetails';
import { imageAtVersion } from '../../writes/imageRef';
import { operatorObject } from '../../writes/operatorObject';
import { resourceRequirements } from '../../writes/resources';
import { setResources } from '../../writes/setResources';
import { storageRequest } from '../../writes/storageRequest';
import { secretValue } from '../../writes/secretValue';
import { rulesWriteSide } from '../../writes/rulesWriteSide';
import { markerPause } from '../../writes/pauseSwitch';
import { updateSide } from '../../writes/updateFrame';
import { asRecord, asString, nameOf, namespaceOf } from '../shared/read';
import type { AdapterWriteSide, KubeObject, SourceKind } from '../types';

const AMQP_PORT = 5672;
/** The operator's default image line (`rabbitmq:<version>-management`). */
const IMAGE = 'rabbitmq';
const IMAGE_SUFFIX = '-management';

/** RabbitMQ cluster-operator's rules (docs/engines.md). */
export const rabbitmqRules: EngineRules = {
  engine: 'rabbitmq',
  operator: 'rabbitmq-cluster-operator',
  topologies: ['standalone', 'cluster'],
  // 4.2.6 is the operator's default image (v2.22.3); 3.13 is the last 3.x line.
  versions: ['4.2.6', '3.13.7'],
  runnableVersions: {
    min: '3.13',
    source:
      'rabbitmq-cluster-operator runs the RabbitMQ versions still supported upstream: 3.13 and 4.x',
  },
  replicas: replicaRulesOf({
    standalone: {
      min: 1,
      max: 1,
      message: 'standalone runs exactly 1 replica',
    },
    // The CRD's advice: an odd size keeps exactly one quorum when the network partitions.
    cluster: {
      min: 3,
      odd: true,
      message: 'a RabbitMQ cluster needs an odd number of nodes, at least 3',
    },
  }),
  storageGrowth: true, // the operator expands persistence claims
  // ReconcileSuccess=False, UnsupportedOperation: "Cluster Scale down not supported".
  scaleDown: false,
  topologyForReplicas: n => (n > 1 ? 'cluster' : 'standalone'),
};

/** The Secret the operator creates for the default user, as the status reports it. */
function defaultUserSecret(source: KubeObject): string {
  return (
    asString(
      asRecord(asRecord(asRecord(source.status)?.defaultUser)?.secretReference)
        ?.name,
    ) ?? `${nameOf(source)}-default-user`
  );
}

/** The operator's pause-reconciliation label (controllers/reconcile_paused.go). */
export const rabbitmqPause = markerPause(
  'labels',
  'rabbitmq.com/pauseReconciliation',
  'true',
);

/** The write side for RabbitmqCluster objects (standalone = 1 replica, cluster = more). */
export function rabbitmqWriteSide(kind: SourceKind): AdapterWriteSide {
  return {
    ...rulesWriteSide(rabbitmqRules, 'standalone'),
    defaults: topology => ({
      version: '4.2.6',
      replicas: topology === 'cluster' ? 3 : 1,
      storage: { size: '10Gi' },
      // RabbitMQ sizes its memory high watermark from the memory limit, so one is always set.
      resources: {
        requests: { cpu: '500m', memory: '1Gi' },
        limits: { cpu: '1', memory: '1Gi' },
      },
    }),
    // StatefulSet `<name>-server` (+7) and its pods' revision label (+11) must fit 63.
    maxNameLength: 45,
    kindFor: () => kind,
    toOperatorObject(instance, options) {
      const { spec } = instance;
      const resources = resourceRequirements(spec.resources);
      return operatorObject(kind, instance, options, {
        replicas: spec.replicas,
        image: `${IMAGE}:${spec.version}${IMAGE_SUFFIX}`,
        persistence: storageRequest(spec.storage, 'storage'),
        ...(resources && { resources }),
      });
    },
    ...updateSide({
      rules: rabbitmqRules,
      pause: rabbitmqPause,
      write(spec, change) {
        if (change.version)
          spec.image = imageAtVersion(
            spec.image,
            change.version,
            IMAGE,
            IMAGE_SUFFIX,
          );
        if (change.replicas !== undefined) spec.replicas = change.replicas;
        if (change.storageSize)
          spec.persistence = {
            ...asRecord(spec.persistence),
            storage: change.storageSize,
          };
        setResources(spec, change.resources);
      },
    }),
    // The operator generates the default user's Secret.
    secretsToCreate: () => [],
    connectionSecretName: defaultUserSecret,
    connection(instance, source, secret) {
      const username = secretValue(secret, 'username');
      const password = secretValue(secret, 'password');
      const { primary, endpoints } = endpointsWithUris(
        instance,
        {
          name: 'amqp',
          host: `${nameOf(source)}.${namespaceOf(source)}.svc`,
          port: AMQP_PORT,
        },
        e =>
          e.name === 'management'
            ? { scheme: 'http', username, password }
            : // `%2F` names the default vhost `/` explicitly.
              { scheme: 'amqp', username, password, path: '/%2F' },
        'amqp',
      );
      return connectionDetails(primary, endpoints, {
        username,
        password,
        secretName: defaultUserSecret(source),
      });
    },
  };
}
