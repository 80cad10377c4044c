import type { StoredObject } from '../../store/types';
import { rabbitmqDemo } from './demo';
import { nextConditions, withCondition } from '../conditions';

const PAUSE_LABEL = 'rabbitmq.com/pauseReconciliation';
import { randomPassword, revisionHash } from '../dependentObjects';
import { count, imageTag } from '../specHelpers';
import type {
  CustomKind,
  DesiredContext,
  DesiredState,
  EmulatedOperator,
  Observation,
} from '../types';

/** RabbitmqCluster (rabbitmq.com/v1beta1). */
export const RABBITMQCLUSTER_KIND: CustomKind = {
  group: 'rabbitmq.com',
  version: 'v1beta1',
  plural: 'rabbitmqclusters',
  kind: 'RabbitmqCluster',
};

/** The image the operator deploys when spec.image is empty (cmd/main.go at v2.22.3). */
export const RABBITMQ_DEFAULT_IMAGE = 'rabbitmq:4.2.6-management';

const spec = (cr: StoredObject): Record<string, any> =>
  (cr.spec as Record<string, any>) ?? {};

function desired(cr: StoredObject, ctx: DesiredContext): DesiredState {
  const s = spec(cr);
  const name = cr.metadata.name;
  const ns = cr.metadata.namespace;
  const image: string = s.image || RABBITMQ_DEFAULT_IMAGE;
  const stsName = `${name}-server`;
  const wanted = count(s.replicas, 1);
  const current = ctx.current(stsName);
  // The operator refuses to scale down and keeps the StatefulSet as it is.
  const refused = current !== undefined && wanted < current.replicas;
  const labels = {
    'app.kubernetes.io/name': name,
    'app.kubernetes.io/component': 'rabbitmq',
    'app.kubernetes.io/part-of': 'rabbitmq',
  };
  const host = `${name}.${ns}.svc`;
  return {
    version: imageTag(image)?.replace(/-management$/, ''),
    ...(refused
      ? {
          reconcileError: {
            reason: 'UnsupportedOperation',
            message: `Cluster Scale down not supported; tried to scale cluster from ${current!.replicas} nodes to ${wanted} nodes`,
          },
        }
      : {}),
    statefulSets: [
      {
        name: stsName,
        replicas: refused ? current!.replicas : wanted,
        revision: revisionHash({
          image,
          resources: s.resources,
          persistence: s.persistence,
        }),
        image,
        serviceName: `${name}-nodes`,
        labels,
        container: 'rabbitmq',
        claim: {
          name: pod => `persistence-${pod}`,
          size: s.persistence?.storage,
          storageClassName: s.persistence?.storageClassName,
        },
      },
    ],
    services: [
      {
        name,
        selector: labels,
        ports: [
          { name: 'amqp', port: 5672 },
          { name: 'management', port: 15672 },
          { name: 'prometheus', port: 15692 },
        ],
      },
      {
        name: `${name}-nodes`,
        selector: labels,
        headless: true,
        ports: [
          { name: 'epmd', port: 4369 },
          { name: 'cluster-rpc', port: 25672 },
        ],
      },
    ],
    secrets: [
      {
        name: `${name}-default-user`,
        labels,
        data: () => {
          const username = `default_user_${randomPassword().slice(0, 20)}`;
          const password = randomPassword();
          return {
            username,
            password,
            host,
            port: '5672',
            provider: 'rabbitmq',
            type: 'rabbitmq',
            connection_string: `amqp://${username}:${password}@${host}:5672/`,
            'default_user.conf': `default_user = ${username}\ndefault_pass = ${password}\n`,
          };
        },
      },
      {
        name: `${name}-erlang-cookie`,
        labels,
        data: () => ({ '.erlang.cookie': randomPassword() }),
      },
    ],
  };
}

function status(
  cr: StoredObject,
  _kind: CustomKind,
  obs: Observation,
): Record<string, unknown> | undefined {
  const previous = (cr.status as Record<string, any>) ?? {};
  if (obs.stage === 'deleting')
    return cr.status as Record<string, unknown> | undefined;
  // paused by its label: the status stays frozen but for a warning (controllers/reconcile_paused.go)
  if (obs.paused)
    return {
      ...previous,
      conditions: withCondition(
        previous.conditions,
        {
          type: 'NoWarnings',
          status: 'False',
          reason: 'reconciliation paused',
          message: `label '${PAUSE_LABEL}' is set to true`,
        },
        obs.now,
      ),
    };
  const s = spec(cr);
  const name = cr.metadata.name;
  const ns = cr.metadata.namespace ?? '';
  const ready = obs.readyReplicas;
  const desiredPods = obs.desiredReplicas;
  const failure =
    obs.stage === 'failed'
      ? {
          reason: 'Error',
          message: obs.message ?? 'failed to reconcile StatefulSet',
        }
      : obs.reconcileError;
  const memoryDiffers =
    s.resources?.requests?.memory !== undefined &&
    s.resources?.limits?.memory !== undefined &&
    String(s.resources.requests.memory) !== String(s.resources.limits.memory);
  const conditions = nextConditions(
    previous.conditions,
    [
      ready >= desiredPods && desiredPods > 0
        ? {
            type: 'AllReplicasReady',
            status: 'True',
            reason: 'AllPodsAreReady',
          }
        : {
            type: 'AllReplicasReady',
            status: 'False',
            reason: 'NotAllPodsReady',
            message: `${ready}/${desiredPods} Pods ready`,
          },
      ready > 0
        ? {
            type: 'ClusterAvailable',
            status: 'True',
            reason: 'AtLeastOneEndpointAvailable',
          }
        : {
            type: 'ClusterAvailable',
            status: 'False',
            reason: 'NoEndpointsAvailable',
            message: 'The service has no endpoints available',
          },
      memoryDiffers
        ? {
            type: 'NoWarnings',
            status: 'False',
            reason: 'MemoryRequestAndLimitDifferent',
            message:
              'RabbitMQ container memory resource request and limit must be equal',
          }
        : { type: 'NoWarnings', status: 'True', reason: 'NoWarnings' },
      failure
        ? {
            type: 'ReconcileSuccess',
            status: 'False',
            reason: failure.reason,
            message: failure.message,
          }
        : {
            type: 'ReconcileSuccess',
            status: 'True',
            reason: 'Success',
            message: 'Finish reconciling',
          },
    ],
    obs.now,
  );
  // observedGeneration moves only when a reconcile succeeds.
  const observedGeneration = failure
    ? previous.observedGeneration
    : obs.generation;
  return {
    conditions,
    defaultUser: {
      secretReference: {
        name: `${name}-default-user`,
        namespace: ns,
        keys: { username: 'username', password: 'password' },
      },
      serviceReference: { name, namespace: ns },
    },
    binding: { name: `${name}-default-user` },
    ...(observedGeneration !== undefined ? { observedGeneration } : {}),
  };
}

/**
 * Emulated RabbitMQ cluster-operator: StatefulSet `<n>-server`, Services `<n>` and `<n>-nodes`,
 * Secrets `<n>-default-user` and `<n>-erlang-cookie`.
 */
export const rabbitmqOperator: EmulatedOperator = {
  demo: rabbitmqDemo,
  id: 'rabbitmq-cluster-operator',
  kinds: [RABBITMQCLUSTER_KIND],
  finalizer: () => 'deletion.finalizers.rabbitmqclusters.rabbitmq.com',
  desired: (cr, _kind, ctx) => desired(cr, ctx),
  paused: cr => cr.metadata.labels?.[PAUSE_LABEL] === 'true',
  status,
};
