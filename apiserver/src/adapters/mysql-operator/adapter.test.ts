import { describe, it, expect } from '@jest/globals';
import path from 'node:path';
import type { DatabasePhase } from '@internal/plugin-databases-common';
import { assertFitsCrd, readSample } from '../__testUtils__/operatorFiles';
import {
  emptyLookup,
  readSchemaDerivedFixtures,
} from '../__testUtils__/schemaDerivedFixtures';
import { mysqlOperatorAdapter } from './adapter';

const kind = mysqlOperatorAdapter.kinds[0];
const fixtures = readSchemaDerivedFixtures(
  path.join(__dirname, '__fixtures__'),
);

/** One row per fixture file; a fixture without a row fails. */
const EXPECTED: Record<
  string,
  { phase: DatabasePhase; reason: string; message?: string }
> = {
  'innodbcluster-no-status.schema-derived.json': {
    phase: 'Pending',
    reason: 'AwaitingOperator',
  },
  'innodbcluster-kopf-only.schema-derived.json': {
    phase: 'Provisioning',
    reason: 'AwaitingClusterStatus',
  },
  'innodbcluster-pending.schema-derived.json': {
    phase: 'Provisioning',
    reason: 'Pending',
    message: 'Cluster status PENDING',
  },
  'innodbcluster-initializing.schema-derived.json': {
    phase: 'Provisioning',
    reason: 'Initializing',
  },
  'innodbcluster-online.schema-derived.json': {
    phase: 'Ready',
    reason: 'AllReplicasReady',
  },
  'innodbcluster-online-missing-member.schema-derived.json': {
    phase: 'Degraded',
    reason: 'ReplicasNotReady',
    message: '2/3 replicas ready',
  },
  'innodbcluster-online-partial.schema-derived.json': {
    phase: 'Degraded',
    reason: 'OnlinePartial',
    message: 'Cluster status ONLINE_PARTIAL',
  },
  'innodbcluster-offline.schema-derived.json': {
    phase: 'Failed',
    reason: 'Offline',
  },
  'innodbcluster-no-quorum.schema-derived.json': {
    phase: 'Failed',
    reason: 'NoQuorum',
    message: 'Cluster status NO_QUORUM',
  },
  'innodbcluster-invalid.schema-derived.json': {
    phase: 'Failed',
    reason: 'Invalid',
  },
  'innodbcluster-unknown.schema-derived.json': {
    phase: 'Unknown',
    reason: 'Unknown',
  },
  'innodbcluster-finalizing.schema-derived.json': {
    phase: 'Deleting',
    reason: 'DeletionInProgress',
  },
};

describe('mysqlOperatorAdapter on schema-derived fixtures', () => {
  it('has a row for every fixture and a fixture for every row', () => {
    expect(fixtures.map(f => f.file).sort()).toEqual(
      Object.keys(EXPECTED).sort(),
    );
  });

  it.each(fixtures.map(f => [f.file, f] as const))('%s', (file, fixture) => {
    expect(fixture.provenance).toMatch(/NOT a real capture/);
    assertFitsCrd('mysql-operator', kind, fixture.object);
    const instance = mysqlOperatorAdapter.project(
      fixture.object,
      kind,
      emptyLookup,
    );
    expect(instance.status).toMatchObject(EXPECTED[file]);
  });

  it('reads replicas, version and endpoints from an ONLINE cluster', () => {
    const online = fixtures.find(
      f => f.file === 'innodbcluster-online.schema-derived.json',
    )!.object;
    const instance = mysqlOperatorAdapter.project(online, kind, emptyLookup);
    expect(instance.metadata).toEqual({
      name: 'orders',
      namespace: 'team-a',
      uid: 'uid-orders',
      creationTimestamp: '2026-01-10T10:00:00Z',
      generation: 1,
    });
    expect(instance.status).toMatchObject({
      replicas: { desired: 3, ready: 3 },
      version: online.status.version,
      source: {
        apiVersion: 'mysql.oracle.com/v2',
        kind: 'InnoDBCluster',
        name: 'orders',
        operator: 'mysql-operator',
      },
      credentialsSecretRef: { name: online.spec.secretName },
    });
    expect(instance.status?.operatorStatus).toBe(online.status);
  });
});

describe('mysqlOperatorAdapter on upstream samples', () => {
  it('projects sample-cluster.yaml: router endpoints, user secret, 3 instances', () => {
    const sample = readSample(
      'mysql-operator',
      'sample-cluster.yaml',
      'InnoDBCluster',
    );
    const instance = mysqlOperatorAdapter.project(
      { ...sample, metadata: { ...sample.metadata, namespace: 'db' } },
      kind,
      emptyLookup,
    );
    expect(instance.spec).toEqual({
      engine: 'mysql',
      topology: 'innodbcluster',
      replicas: 3,
    });
    expect(instance.status?.endpoints).toEqual([
      { name: 'primary', host: 'mycluster.db.svc', port: 6446 },
      { name: 'readonly', host: 'mycluster.db.svc', port: 6447 },
    ]);
    expect(instance.status?.credentialsSecretRef).toEqual({ name: 'mypwds' });
    expect(instance.status?.phase).toBe('Pending');
  });

  it.each([
    ['sample-cluster-pvc.yaml', { storage: { size: '300Gi' } }],
    [
      'sample-cluster-podspec-resources.yaml',
      {
        resources: {
          requests: { cpu: '1800m', memory: '2048Mi' },
          limits: { cpu: '3600m', memory: '8192Mi' },
        },
      },
    ],
  ])('reads storage and resources back from %s', (file, expected) => {
    const sample = readSample('mysql-operator', file, 'InnoDBCluster');
    expect(
      mysqlOperatorAdapter.project(sample, kind, emptyLookup).spec,
    ).toMatchObject(expected);
  });
});
