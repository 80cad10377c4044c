import type { StatusExpectations } from '../../__testUtils__/statusExpectation';

/** How each of ../shared/operators/eck/status/* must be served. */
export const statusExpectations: StatusExpectations = {
  'eck/status/elasticsearch-applyingchanges-downscale.pr-5328.status.yaml': {
    // A master downscale of a running cluster: a change, not a first creation.
    phase: 'Updating',
    reason: 'ApplyingChanges',
    message:
      'StatefulSet elasticsearch-gcs-sample-es-master has some pending Pods operations, deletions: [elasticsearch-gcs-sample-es-master-2]',
    wrap: {
      apiVersion: 'elasticsearch.k8s.elastic.co/v1',
      kind: 'Elasticsearch',
      // Header: ES 8.0.0; 8 nodes available. nodeSets and version are required by the schema.
      spec: { version: '8.0.0', nodeSets: [{ name: 'default', count: 8 }] },
    },
  },
  'eck/status/elasticsearch-applyingchanges.argocd-fixture.yaml': {
    // Nothing shows the cluster existed before (no status.version, no downscale/upgrade).
    phase: 'Provisioning',
    reason: 'ApplyingChanges',
  },
  'eck/status/elasticsearch-ready-green.upstream-testdata.yaml': {
    phase: 'Ready',
    reason: 'AllReplicasReady',
  },
  'eck/status/elasticsearch-red.argocd-fixture.yaml': {
    phase: 'Failed',
    reason: 'HealthRed',
  },

  // rabbitmq-cluster-operator,
};
