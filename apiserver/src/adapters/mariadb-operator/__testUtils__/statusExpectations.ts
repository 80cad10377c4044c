import type { StatusExpectations } from '../../__testUtils__/statusExpectation';

const MARIADB = 'k8s.mariadb.com/v1alpha1';

/** How each of ../shared/operators/mariadb-operator/status/* must be served. */
export const statusExpectations: StatusExpectations = {
  'mariadb-operator/status/mariadb-failed-error.argocd-fixture.yaml': {
    phase: 'Failed',
    reason: 'OperatorError',
    message: 'Error creating ConfigMap',
  },
  'mariadb-operator/status/mariadb-galera-not-ready.issue-768.status.yaml': {
    // Ready=False StatefulSetNotReady with no sign the cluster was ever formed; the operator's
    // reason is kept as it is.
    phase: 'Provisioning',
    reason: 'StatefulSetNotReady',
    message: 'Not ready',
    wrap: {
      apiVersion: MARIADB,
      kind: 'MariaDB',
      spec: { replicas: 3, galera: { enabled: true } },
    },
  },
  'mariadb-operator/status/mariadb-galera-recovering.docs.status.yaml': {
    phase: 'Degraded',
    reason: 'GaleraRecovering',
    message: 'Galera not ready',
    wrap: {
      apiVersion: MARIADB,
      kind: 'MariaDB',
      spec: { replicas: 3, galera: { enabled: true } },
    },
  },
  'mariadb-operator/status/mariadb-provisioning-restoring-backup.argocd-fixture.yaml':
    {
      // Ready=False RestoreNotComplete: a restore under way, in the shared word for it
      phase: 'Provisioning',
      reason: 'Restoring',
      message: 'Restoring backup',
    },
  'mariadb-operator/status/mariadb-ready.argocd-fixture.yaml': {
    phase: 'Ready',
    reason: 'AllReplicasReady',
    message: 'Running',
  },
  'mariadb-operator/status/mariadb-replication-multicluster-ready.docs.status.yaml':
    {
      phase: 'Ready',
      reason: 'AllReplicasReady',
      message: 'Running',
      wrap: {
        apiVersion: MARIADB,
        kind: 'MariaDB',
        spec: { replicas: 3, replication: { enabled: true } },
      },
    },
  'mariadb-operator/status/mariadb-replication-ready.docs.status-replication.yaml':
    {
      // No Ready condition printed: the replication map (1 primary, 2 replicas running) decides.
      phase: 'Ready',
      reason: 'AllReplicasReady',
      wrap: {
        apiVersion: MARIADB,
        kind: 'MariaDB',
        spec: { replicas: 3, replication: { enabled: true } },
      },
    },
  'mariadb-operator/status/maxscale-ready.docs.status.yaml': {
    notASource:
      'MaxScale is a proxy in front of a MariaDB, not a database instance of its own',
    apiVersion: MARIADB,
    kind: 'MaxScale',
  },

  // cloudnative-pg,
};
