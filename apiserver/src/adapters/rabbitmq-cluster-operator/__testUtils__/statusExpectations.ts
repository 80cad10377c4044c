import type { StatusExpectations } from '../../__testUtils__/statusExpectation';

/** How each of ../shared/operators/rabbitmq-cluster-operator/status/* must be served. */
export const statusExpectations: StatusExpectations = {
  'rabbitmq-cluster-operator/status/rabbitmqcluster-provisioning-no-endpoints.argocd-fixture.yaml':
    {
      phase: 'Provisioning',
      reason: 'ReplicasNotReady',
      message: '0/3 Pods ready',
    },
  'rabbitmq-cluster-operator/status/rabbitmqcluster-provisioning-pods-not-ready.argocd-fixture.yaml':
    {
      phase: 'Provisioning',
      reason: 'ReplicasNotReady',
      message: '1/3 Pods ready',
    },
  'rabbitmq-cluster-operator/status/rabbitmqcluster-quorum-status-ok.docs.yaml':
    { phase: 'Ready', reason: 'AllReplicasReady' },
  'rabbitmq-cluster-operator/status/rabbitmqcluster-ready.argocd-fixture.yaml':
    { phase: 'Ready', reason: 'AllReplicasReady' },

  // redis-operator,
};
