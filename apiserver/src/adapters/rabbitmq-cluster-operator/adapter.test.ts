import { describe, it, expect } from '@jest/globals';
import type { KubeObject } from '../types';
import { readSample } from '../__testUtils__/operatorFiles';
import { emptyLookup } from '../__testUtils__/schemaDerivedFixtures';
import { rabbitmqClusterOperatorAdapter } from './adapter';

const kind = rabbitmqClusterOperatorAdapter.kinds[0];
const project = (object: KubeObject) =>
  rabbitmqClusterOperatorAdapter.project(object, kind, emptyLookup);
const sample = (file: string): KubeObject => {
  const o = readSample('rabbitmq-cluster-operator', file, 'RabbitmqCluster');
  return { ...o, metadata: { ...o.metadata, namespace: 'mq', generation: 1 } };
};

describe('rabbitmqClusterOperatorAdapter on upstream samples', () => {
  it.each([
    ['hello-world.yaml', 'standalone', 1, { size: '10Gi' }],
    [
      'production-ready.yaml',
      'cluster',
      3,
      { size: '500Gi', storageClassName: 'ssd' },
    ],
  ])('%s → %s of %d', (file, topology, replicas, storage) => {
    const object = sample(file);
    const name = object.metadata!.name;
    const instance = project(object);
    expect(instance.spec).toMatchObject({
      engine: 'rabbitmq',
      topology,
      replicas,
      storage,
    });
    expect(instance.status?.endpoints).toEqual([
      { name: 'amqp', host: `${name}.mq.svc`, port: 5672 },
      { name: 'management', host: `${name}.mq.svc`, port: 15672 },
    ]);
    expect(instance.status?.credentialsSecretRef).toEqual({
      name: `${name}-default-user`,
    });
    expect(instance.status?.phase).toBe('Pending');
  });

  it('reads resources back from resource-limits.yaml', () => {
    const object = sample('resource-limits.yaml');
    expect(project(object).spec.resources).toEqual(object.spec.resources);
  });
});

describe('rabbitmqClusterOperatorAdapter states', () => {
  const cond = (
    type: string,
    status: string,
    reason: string,
    message?: string,
  ) => ({
    type,
    status,
    reason,
    message,
    lastTransitionTime: '2026-01-01T00:00:00Z',
  });
  const healthy = [
    cond('AllReplicasReady', 'True', 'AllPodsAreReady'),
    cond('ClusterAvailable', 'True', 'AtLeastOneEndpointAvailable'),
    cond('NoWarnings', 'True', 'NoWarnings'),
    cond('ReconcileSuccess', 'True', 'Success', 'Finish reconciling'),
  ];
  const withStatus = (
    status: Record<string, unknown>,
    generation = 1,
  ): KubeObject => {
    const o = sample('production-ready.yaml');
    return { ...o, metadata: { ...o.metadata, generation }, status };
  };

  it.each<[string, KubeObject, string, string, string | undefined]>([
    [
      // derived from the operator's controllers/reconcile_paused.go: the label stops reconciling,
      // the status (all True here) is frozen and says nothing about now
      'reconciliation paused by its label, whatever the frozen status says',
      (() => {
        const o = withStatus({ conditions: [...healthy.slice(0, 2), cond('NoWarnings', 'False', '', 'reconciliation paused'), healthy[3]], observedGeneration: 1 });
        return { ...o, metadata: { ...o.metadata, labels: { ...o.metadata?.labels, 'rabbitmq.com/pauseReconciliation': 'true' } } };
      })(),
      'Paused',
      'ReconciliationPaused',
      'the label rabbitmq.com/pauseReconciliation=true stops the operator from reconciling this cluster',
    ],
    [
      'all conditions true',
      withStatus({ conditions: healthy, observedGeneration: 1 }),
      'Ready',
      'AllReplicasReady',
      undefined,
    ],
    [
      'scale-down refused',
      withStatus({
        conditions: [
          ...healthy.slice(0, 3),
          cond(
            'ReconcileSuccess',
            'False',
            'UnsupportedOperation',
            'Cluster Scale down not supported',
          ),
        ],
      }),
      'Failed',
      'UnsupportedOperation',
      'Cluster Scale down not supported',
    ],
    [
      'generic reconcile error',
      withStatus({
        conditions: [
          ...healthy.slice(0, 3),
          cond('ReconcileSuccess', 'False', 'Error', 'failed to create'),
        ],
      }),
      'Failed',
      'OperatorError',
      'failed to create',
    ],
    [
      'spec change not observed yet',
      withStatus({ conditions: healthy, observedGeneration: 1 }, 2),
      'Updating',
      'GenerationNotObserved',
      undefined,
    ],
    [
      'quorum critical',
      withStatus({
        conditions: healthy,
        quorumStatus: 'quorum-critical: pod-0',
      }),
      'Degraded',
      'QuorumCritical',
      'quorum-critical: pod-0',
    ],
    [
      'a warning only',
      withStatus({
        conditions: [
          ...healthy.slice(0, 2),
          cond('NoWarnings', 'False', 'MemoryRequestAndLimitDifferent'),
          healthy[3],
        ],
      }),
      'Ready',
      'AllReplicasReady',
      undefined,
    ],
  ])('%s', (_name, object, phase, reason, message) => {
    const instance = project(object);
    expect(instance.status).toMatchObject({
      phase,
      reason,
      ...(message !== undefined && { message }),
    });
  });

  it('prefers the Secret and Service the operator reports', () => {
    const instance = project(
      withStatus({
        conditions: healthy,
        defaultUser: {
          secretReference: { name: 'custom-user', namespace: 'mq', keys: {} },
          serviceReference: { name: 'custom-svc', namespace: 'mq' },
        },
      }),
    );
    expect(instance.status?.credentialsSecretRef).toEqual({
      name: 'custom-user',
    });
    expect(instance.status?.endpoints?.[0].host).toBe('custom-svc.mq.svc');
    expect(instance.status?.conditions?.[0]).toMatchObject({
      type: 'Ready',
      status: 'True',
      lastTransitionTime: '2026-01-01T00:00:00Z',
    });
  });
});
