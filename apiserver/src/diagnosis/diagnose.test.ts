import { describe, it, expect } from '@jest/globals';
import path from 'node:path';
import {
  OPERATORS_DIR,
  readSample,
  readYamlDocuments,
} from '../adapters/__testUtils__/operatorFiles';
import { emptyLookup } from '../adapters/__testUtils__/schemaDerivedFixtures';
import { adapters } from '../adapters/registry';
import type { KubeObject, OperatorAdapter } from '../adapters/types';
import { diagnose } from './diagnose';

const adapterOf = (id: string) => adapters.find(a => a.id === id)!;

const upstreamStatus = (operator: string, file: string) =>
  (
    readYamlDocuments(
      path.join(OPERATORS_DIR, operator, 'status', file),
    )[0] as { status: unknown }
  ).status;

function diagnosisOf(
  adapter: OperatorAdapter,
  source: KubeObject,
  pods: KubeObject[] = [],
  claims: KubeObject[] = [],
) {
  const kind = adapter.kinds.find(k => k.kind === source.kind)!;
  return diagnose(
    adapter,
    source,
    adapter.project(source, kind, emptyLookup),
    pods,
    claims,
  );
}

const pod = (name: string, status: Record<string, unknown>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'team-a', uid: `uid-${name}` },
  status,
});

describe('diagnose', () => {
  const mariadb = adapterOf('mariadb-operator');
  const sample = () => {
    const o = readSample('mariadb-operator', 'mariadb.yaml', 'MariaDB');
    return { ...o, metadata: { ...o.metadata, namespace: 'team-a' } };
  };

  it('finds nothing on a Ready instance whose members are well', () => {
    const ready = {
      ...sample(),
      status: upstreamStatus(
        'mariadb-operator',
        'mariadb-ready.argocd-fixture.yaml',
      ),
    };
    const d = diagnosisOf(mariadb, ready, [
      pod('mariadb-0', { phase: 'Running' }),
    ]);
    expect(d).toMatchObject({
      kind: 'DatabaseInstanceDiagnosis',
      apiVersion: 'dbaas.platform.dev/v1alpha1',
      phase: 'Ready',
      findings: [],
    });
    expect(d.metadata).toMatchObject({
      name: ready.metadata.name,
      namespace: 'team-a',
    });
  });

  it('reports Galera recovery per member from the documented status, naming the bootstrap member (mariadb-galera-recovering.docs)', () => {
    const recovering = {
      ...sample(),
      status: upstreamStatus(
        'mariadb-operator',
        'mariadb-galera-recovering.docs.status.yaml',
      ),
    };
    const [finding] = diagnosisOf(mariadb, recovering).findings;
    expect(finding).toMatchObject({
      reason: 'GaleraRecoveryInProgress',
      severity: 'Warning',
    });
    expect(finding.message).toContain(
      'mariadb-galera-0: seqno 3 (grastate.dat -1), safe_to_bootstrap 0',
    );
    expect(finding.message).toContain(
      'The operator bootstraps the cluster from mariadb-galera-2 (since 2023-07-13T19:25:28Z)',
    );
    expect(finding.hint).toContain('forceClusterBootstrapInPod');
    expect(finding.objects.map(o => `${o.kind}/${o.name}`)).toEqual([
      `MariaDB/${recovering.metadata.name}`,
      'Pod/mariadb-galera-0',
      'Pod/mariadb-galera-1',
      'Pod/mariadb-galera-2',
    ]);
  });

  it('names the member with the highest seqno when none bootstraps yet (derived from the CRD schema of galeraRecovery)', () => {
    const o = {
      ...sample(),
      status: {
        conditions: [
          {
            type: 'GaleraReady',
            status: 'False',
            reason: 'GaleraNotReady',
            message: 'Galera not ready',
          },
        ],
        galeraRecovery: {
          state: {
            'db-0': {
              safeToBootstrap: false,
              seqno: 10,
              uuid: 'u',
              version: '2.1',
            },
            'db-1': {
              safeToBootstrap: false,
              seqno: 12,
              uuid: 'u',
              version: '2.1',
            },
          },
        },
      },
    };
    const [finding] = diagnosisOf(mariadb, o).findings;
    expect(finding.message).toContain(
      'No member is bootstrapping yet; the one with the highest seqno is db-1',
    );
    expect(finding.hint).toContain('"forceClusterBootstrapInPod":"db-1"');
  });

  it('when nothing more specific explains a phase, its reason is the finding, about the operator object', () => {
    const failed = {
      ...sample(),
      status: upstreamStatus(
        'mariadb-operator',
        'mariadb-failed-error.argocd-fixture.yaml',
      ),
    };
    const d = diagnosisOf(mariadb, failed);
    expect(d.phase).toBe('Failed');
    expect(d.findings).toEqual([
      expect.objectContaining({
        reason: d.reason,
        severity: 'Error',
        objects: [
          {
            apiVersion: failed.apiVersion,
            kind: 'MariaDB',
            name: failed.metadata.name,
            namespace: 'team-a',
          },
        ],
      }),
    ]);
    expect(d.findings[0].hint).toContain(
      `kubectl describe mariadb -n team-a ${failed.metadata.name}`,
    );
  });

  it('an object no operator acted on yet points at the operator', () => {
    const [finding] = diagnosisOf(mariadb, sample()).findings;
    expect(finding).toMatchObject({
      reason: 'AwaitingOperator',
      severity: 'Warning',
    });
    expect(finding.hint).toMatch(/operator is installed and running/);
  });

  it('a member finding replaces the generic one', () => {
    const provisioning = {
      ...sample(),
      status: {
        conditions: [
          {
            type: 'Ready',
            status: 'False',
            reason: 'Initializing',
            message: 'Initializing',
          },
        ],
      },
    };
    const d = diagnosisOf(
      mariadb,
      provisioning,
      [],
      [
        {
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          metadata: { name: 'storage-mariadb-0', namespace: 'team-a' },
          spec: {},
          status: { phase: 'Pending' },
        },
      ],
    );
    expect(d.findings.map(f => f.reason)).toEqual([
      'PersistentVolumeClaimPending',
    ]);
  });

  it.each([
    ['NO_QUORUM', 'NoQuorum', 'forceQuorumUsingPartitionOf'],
    ['OFFLINE', 'ClusterOffline', 'rebootClusterFromCompleteOutage'],
    ['SPLIT_BRAIN_UNCERTAIN', 'SplitBrain', 'rejoinInstance'],
  ])(
    'an InnoDB Cluster in %s (diagnose.py ClusterDiagStatus) says what to run',
    (diag, reason, hint) => {
      const mysql = adapterOf('mysql-operator');
      const o = readSample(
        'mysql-operator',
        'sample-cluster.yaml',
        'InnoDBCluster',
      );
      const [finding] = diagnosisOf(mysql, {
        ...o,
        status: { cluster: { status: diag, onlineInstances: 1 } },
      }).findings;
      expect(finding).toMatchObject({ reason, severity: 'Error' });
      expect(finding.hint).toContain(hint);
    },
  );

  it.each([
    ['yellow', 'ReplicaShardsUnassigned', 'Warning'],
    ['red', 'PrimaryShardsUnassigned', 'Error'],
  ])(
    'an Elasticsearch cluster %s says which shards cannot be allocated and how to ask why',
    (health, reason, severity) => {
      const eck = adapterOf('eck');
      const o = readSample('eck', 'elasticsearch.yaml', 'Elasticsearch');
      const [finding] = diagnosisOf(eck, {
        ...o,
        status: { phase: 'Ready', health, version: '9.4.3' },
      }).findings;
      expect(finding).toMatchObject({ reason, severity });
      expect(finding.hint).toContain('_cluster/allocation/explain');
    },
  );

  it('a CloudNativePG cluster waiting for user action says how to promote (cluster_types.go phase sentence)', () => {
    const cnpg = adapterOf('cloudnative-pg');
    const o = readSample('cloudnative-pg', 'cluster-example.yaml', 'Cluster');
    const [finding] = diagnosisOf(cnpg, {
      ...o,
      status: {
        phase: 'Waiting for user action',
        phaseReason: 'User must issue a supervised switchover',
      },
    }).findings;
    expect(finding).toMatchObject({
      reason: 'WaitingForUserAction',
      severity: 'Error',
    });
    expect(finding.message).toContain(
      'User must issue a supervised switchover',
    );
    expect(finding.hint).toContain('kubectl cnpg promote');
  });
});

describe('memberSelectors', () => {
  it.each(adapters.map(a => [a.id, a] as const))(
    '%s declares the labels of its pods for every kind',
    (_id, adapter) => {
      for (const kind of adapter.kinds) {
        const selectors = adapter.memberSelectors?.(
          {
            apiVersion: `${kind.group}/${kind.version}`,
            kind: kind.kind,
            metadata: { name: 'db', namespace: 'ns' },
            spec: {},
          },
          kind,
        );
        expect(selectors?.length).toBeGreaterThan(0);
        for (const s of selectors!)
          expect(Object.values(s).some(v => v.includes('db'))).toBe(true);
      }
    },
  );
});
