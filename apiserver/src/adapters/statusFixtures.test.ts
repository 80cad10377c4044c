import { describe, it, expect } from '@jest/globals';
import path from 'node:path';
import type { DatabasePhase } from '@internal/plugin-databases-common';
import { findAdapterForObject } from './registry';
import {
  assertFitsCrd,
  listStatusFiles,
  OPERATORS_DIR,
  readYamlDocuments,
} from './__testUtils__/operatorFiles';
import type { KubeObject, RelatedLookup, RelatedRef } from './types';

/**
 * Every upstream status sample in ../shared/operators/<operator>/status must have a row here,
 * so a new fixture cannot slip in unjudged. Rows are keyed by `<operator>/status/<file>`.
 */
interface Expectation {
  phase: DatabasePhase;
  reason: string;
  /** Expected message, when the operator's own words must come through verbatim. */
  message?: string;
  /**
   * Status-only files (`*.status*.yaml`) hold just `status:`. They are wrapped in a minimal
   * object of the kind named here, whose spec uses only fields of the upstream CRD schema
   * (checked against it below) and values the file's own header states.
   */
  wrap?: { apiVersion: string; kind: string; spec: Record<string, unknown> };
  /** Related objects the cache would hold (apps/v1 StatefulSets for Redis). */
  related?: Array<{ ref: Omit<RelatedRef, 'namespace'>; object: KubeObject }>;
}

/** A file describing an object that is not a DatabaseInstance source: it must stay unclaimed. */
interface NotASource {
  notASource: string;
  /** The kind the (status-only) file describes. */
  apiVersion: string;
  kind: string;
}

/**
 * A file of an operator whose adapter has not landed yet. It must stay unclaimed: the day an
 * adapter claims its kind, the row fails and has to become a real expectation.
 */
interface AwaitingAdapter {
  awaitingAdapter: string;
  apiVersion: string;
  kind: string;
}

const MARIADB = 'k8s.mariadb.com/v1alpha1';
const CNPG = 'postgresql.cnpg.io/v1';
const awaitingPostgres = (kind: 'Backup'): AwaitingAdapter => ({
  awaitingAdapter: 'CloudNativePG Backup: judged by the backups API (issue 22)',
  apiVersion: CNPG,
  kind,
});
const STATEFUL_SETS = {
  group: 'apps',
  version: 'v1',
  plural: 'statefulsets',
  kind: 'StatefulSet',
};

const EXPECTED: Record<string, Expectation | NotASource | AwaitingAdapter> = {
  // mariadb-operator
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
      phase: 'Provisioning',
      reason: 'RestoreNotComplete',
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

  // cloudnative-pg
  'cloudnative-pg/status/backup-completed.e2e.yaml': awaitingPostgres('Backup'),
  'cloudnative-pg/status/backup-running.e2e.yaml': awaitingPostgres('Backup'),
  'cloudnative-pg/status/backup-started-scheduled-plugin.e2e.yaml':
    awaitingPostgres('Backup'),
  'cloudnative-pg/status/cluster-healthy-phase-but-ready-false.issue-4209.status.yaml':
    {
      // Phase healthy, Ready=False: one of them is stale (Ready is a function of the phase).
      phase: 'Unknown',
      reason: 'PhaseAndReadyDisagree',
      // Header: a newly created cluster; the instance count is not in the paste (CRD default 1).
      wrap: { apiVersion: CNPG, kind: 'Cluster', spec: { instances: 1 } },
    },
  'cloudnative-pg/status/cluster-healthy-reconciliation-disabled.argocd-fixture.yaml':
    {
      // The status is frozen: healthy then, nothing known now.
      phase: 'Paused',
      reason: 'ReconciliationDisabled',
    },
  'cloudnative-pg/status/cluster-healthy.argocd-fixture.yaml': {
    phase: 'Ready',
    reason: 'AllReplicasReady',
    message: 'Cluster in healthy state',
  },
  'cloudnative-pg/status/cluster-healthy.e2e.yaml': {
    // Partial object: no spec, so instances is the CRD default 1; 2 are ready.
    phase: 'Ready',
    reason: 'AllReplicasReady',
    message: 'Cluster in healthy state',
  },
  'cloudnative-pg/status/cluster-hibernated.argocd-fixture.yaml': {
    // Phase healthy and Ready=True with no pods: only the hibernation condition tells.
    phase: 'Paused',
    reason: 'Hibernated',
    message: 'Cluster has been hibernated',
  },
  'cloudnative-pg/status/cluster-not-ready-archiving-and-backup-failing.docs.status.yaml':
    {
      // Serving (no phase says otherwise) but WAL archiving fails: recovery is at risk.
      phase: 'Degraded',
      reason: 'ContinuousArchivingFailing',
      message: 'unexpected failure invoking barman-cloud-wal-archive: exit status 2',
      wrap: { apiVersion: CNPG, kind: 'Cluster', spec: { instances: 3 } },
    },
  'cloudnative-pg/status/cluster-provisioning-setting-up-primary.argocd-fixture.yaml':
    {
      phase: 'Provisioning',
      reason: 'SettingUpPrimary',
      message: 'Creating primary instance cluster-example-1',
    },
  'cloudnative-pg/status/cluster-switchover-in-progress.argocd-action-fixture.yaml':
    {
      phase: 'Updating',
      reason: 'SwitchoverInProgress',
      message: 'Switching over to cluster-example-2',
    },

  // eck
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

  // rabbitmq-cluster-operator
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

  // redis-operator
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

const NAMESPACE = 'fixtures';

const READY_STATUS: Record<DatabasePhase, string> = {
  Pending: 'False',
  Provisioning: 'False',
  Ready: 'True',
  Updating: 'False',
  Degraded: 'False',
  Failed: 'False',
  Paused: 'False',
  Deleting: 'False',
  Unknown: 'Unknown',
};

function lookupFrom(expectation: Expectation): RelatedLookup {
  return {
    get: ref =>
      expectation.related?.find(
        r =>
          r.ref.name === ref.name &&
          r.ref.type.kind === ref.type.kind &&
          r.ref.type.group === ref.type.group &&
          ref.namespace === NAMESPACE,
      )?.object,
  };
}

/** The objects a status file describes, wrapping status-only fragments as the table says. */
function objectsOf(file: string, expectation: Expectation): KubeObject[] {
  return readYamlDocuments(path.join(OPERATORS_DIR, file)).map(doc => {
    const object = doc as KubeObject;
    if (object.kind)
      return {
        ...object,
        metadata: { namespace: NAMESPACE, ...object.metadata },
      };
    if (!expectation.wrap)
      throw new Error(`${file} is status-only: give it a wrap in EXPECTED`);
    const name = path.basename(file).split('.')[0];
    return {
      apiVersion: expectation.wrap.apiVersion,
      kind: expectation.wrap.kind,
      metadata: { name, namespace: NAMESPACE },
      spec: expectation.wrap.spec,
      status: object.status,
    };
  });
}

describe('upstream status samples', () => {
  const files = listStatusFiles();

  it('finds the shared status samples', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it('has an expectation for every status sample and no stale rows', () => {
    expect(files.filter(f => !(f in EXPECTED))).toEqual([]);
    expect(Object.keys(EXPECTED).filter(k => !files.includes(k))).toEqual([]);
  });

  const notSources = files.filter(
    f => EXPECTED[f] && 'notASource' in EXPECTED[f],
  );
  const awaiting = files.filter(
    f => EXPECTED[f] && 'awaitingAdapter' in EXPECTED[f],
  );
  const sources = files.filter(
    f =>
      EXPECTED[f] &&
      !('notASource' in EXPECTED[f]) &&
      !('awaitingAdapter' in EXPECTED[f]),
  );

  it.each([...notSources, ...awaiting])('%s is claimed by no adapter', file => {
    const row = EXPECTED[file] as NotASource | AwaitingAdapter;
    const docs = readYamlDocuments(
      path.join(OPERATORS_DIR, file),
    ) as KubeObject[];
    expect(docs.length).toBeGreaterThan(0);
    for (const doc of docs) {
      expect(
        findAdapterForObject(
          doc.apiVersion ?? row.apiVersion,
          doc.kind ?? row.kind,
        ),
      ).toBeUndefined();
    }
  });

  it.each(sources)('%s', file => {
    const expectation = EXPECTED[file] as Expectation;
    const objects = objectsOf(file, expectation);
    expect(objects.length).toBeGreaterThan(0);
    for (const object of objects) {
      const found = findAdapterForObject(object.apiVersion, object.kind);
      if (!found)
        throw new Error(`no adapter for ${object.apiVersion} ${object.kind}`);
      if (expectation.wrap) {
        // The wrap is ours and must fit the CRD; the status is upstream's, verbatim, and a
        // docs snippet may elide fields the schema requires (lastTransitionTime).
        const { status: _upstream, ...wrapped } = object;
        assertFitsCrd(file.split('/')[0], found.kind, wrapped);
      }

      const instance = found.adapter.project(
        object,
        found.kind,
        lookupFrom(expectation),
      );

      const { phase, reason, message } = expectation;
      expect(instance.status).toMatchObject({
        phase,
        reason,
        ...(message !== undefined && { message }),
      });
      // The upstream status is attached untouched.
      expect(instance.status?.operatorStatus).toEqual(object.status);
      expect(
        instance.status?.conditions?.find(c => c.type === 'Ready')?.status,
      ).toBe(READY_STATUS[phase]);
    }
  });
});
