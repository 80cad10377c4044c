import type { StatusExpectations } from '../../__testUtils__/statusExpectation';
import { STATEFUL_SETS } from '../../__testUtils__/statusExpectation';

/** How each of ../shared/operators/redis-operator/status/* must be served. */
export const statusExpectations: StatusExpectations = {
  'redis-operator/status/rediscluster-bootstrap.e2e.yaml': {
    phase: 'Provisioning',
    reason: 'Bootstrapping',
    message: 'RedisCluster is bootstrapping',
  },
  'redis-operator/status/rediscluster-initializing-leaders.e2e.yaml': {
    phase: 'Provisioning',
    reason: 'Initializing',
    message: 'RedisCluster is initializing leaders',
  },
  'redis-operator/status/rediscluster-ready.e2e.yaml': {
    phase: 'Ready',
    reason: 'AllReplicasReady',
    message: 'RedisCluster is ready',
  },
  'redis-operator/status/redisreplication-ready.e2e.yaml': {
    // RedisReplication's only status is masterNode; pod readiness comes from its StatefulSet,
    // here a fully rolled-out apps/v1 StatefulSet `<name>` of 3 (the upstream e2e's clusterSize).
    phase: 'Ready',
    reason: 'AllReplicasReady',
    related: [
      {
        ref: { type: STATEFUL_SETS, name: 'redis-replication-acl-pvc' },
        object: {
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          metadata: { name: 'redis-replication-acl-pvc', generation: 1 },
          spec: { replicas: 3 },
          status: {
            observedGeneration: 1,
            replicas: 3,
            readyReplicas: 3,
            currentRevision: 'r1',
            updateRevision: 'r1',
          },
        },
      },
    ],
  },
};
