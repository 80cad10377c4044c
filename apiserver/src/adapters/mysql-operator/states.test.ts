import { describe, it, expect } from '@jest/globals';
import type { DatabaseInstanceSpec } from '@internal/plugin-databases-common';
import { emptyLookup } from '../__testUtils__/schemaDerivedFixtures';
import { updateThrough } from '../__testUtils__/updateThrough';
import type { KubeObject } from '../types';
import { mysqlFacts, mysqlOperatorAdapter } from './adapter';

/*
 * InnoDBCluster objects built from the mysql.oracle.com/v2 schema (status is schemaless; the
 * cluster diagnosis values are diagnose.py's ClusterDiagStatus). Derived, not captured.
 */

const write = mysqlOperatorAdapter.write!;
const kind = mysqlOperatorAdapter.kinds[0];
const cluster = (
  spec: Record<string, unknown>,
  status?: Record<string, unknown>,
  metadata: Record<string, unknown> = {},
): KubeObject => ({
  apiVersion: 'mysql.oracle.com/v2',
  kind: 'InnoDBCluster',
  metadata: { name: 'shop', namespace: 'team-a', generation: 1, ...metadata },
  spec,
  ...(status && { status }),
});
const project = (o: KubeObject) =>
  mysqlOperatorAdapter.project(o, kind, emptyLookup);

describe('mysqlFacts', () => {
  it('is deleting with a deletionTimestamp, or while the operator reports FINALIZING', () => {
    expect(
      mysqlFacts(
        cluster(
          { instances: 3 },
          { cluster: { status: 'ONLINE' } },
          { deletionTimestamp: '2026-01-01T00:00:00Z' },
        ),
      ).deleting,
    ).toBe(true);
    expect(
      mysqlFacts(
        cluster({ instances: 3 }, { cluster: { status: 'FINALIZING' } }),
      ).deleting,
    ).toBe(true);
    expect(
      mysqlFacts(cluster({ instances: 3 }, { cluster: { status: 'ONLINE' } }))
        .deleting,
    ).toBe(false);
    expect(
      project(
        cluster(
          { instances: 3 },
          { cluster: { status: 'FINALIZING', onlineInstances: 3 } },
        ),
      ).status?.phase,
    ).toBe('Deleting');
  });

  it('counts online members, and none when the diagnosis gives no count', () => {
    expect(
      mysqlFacts(
        cluster(
          { instances: 3 },
          { cluster: { status: 'ONLINE', onlineInstances: 3 } },
        ),
      ).replicas,
    ).toEqual({ desired: 3, ready: 3 });
    expect(
      mysqlFacts(
        cluster({ instances: 3 }, { cluster: { status: 'INITIALIZING' } }),
      ).replicas,
    ).toEqual({ desired: 3 });
    expect(
      mysqlFacts(cluster({}, { cluster: { status: 'ONLINE' } })).replicas,
    ).toEqual({ desired: 1 });
  });

  it('ONLINE and ONLINE_PARTIAL are evidence the cluster ran; INITIALIZING is not', () => {
    expect(
      mysqlFacts(cluster({ instances: 3 }, { cluster: { status: 'ONLINE' } }))
        .onceReady,
    ).toBe(true);
    expect(
      mysqlFacts(
        cluster({ instances: 3 }, { cluster: { status: 'ONLINE_PARTIAL' } }),
      ).onceReady,
    ).toBe(true);
    expect(
      mysqlFacts(
        cluster({ instances: 3 }, { cluster: { status: 'INITIALIZING' } }),
      ).onceReady,
    ).toBe(false);
  });

  it('UNKNOWN (or a newer value) gives no verdict and drops the count that came with it', () => {
    const facts = mysqlFacts(
      cluster(
        { instances: 3 },
        { cluster: { status: 'UNKNOWN', onlineInstances: 2 } },
      ),
    );
    expect(facts.indeterminate).toEqual({
      reason: 'Unknown',
      message: 'Cluster status UNKNOWN',
    });
    expect(facts.replicas).toEqual({ desired: 3 });
  });

  it('reads the resources of the mysql container of the podSpec, not of a sidecar', () => {
    const o = cluster({
      instances: 3,
      podSpec: {
        containers: [
          { name: 'sidecar', resources: { requests: { cpu: '9' } } },
          { name: 'mysql', resources: { requests: { cpu: '2' } } },
        ],
      },
    });
    expect(project(o).spec.resources).toEqual({ requests: { cpu: '2' } });
  });
});

describe('mysql-operator writes', () => {
  const update = (
    current: KubeObject,
    change: Partial<DatabaseInstanceSpec>,
    without: Array<keyof DatabaseInstanceSpec> = [],
  ) => updateThrough(mysqlOperatorAdapter, current, change, without);

  it('creates one Router and self-signed TLS', () => {
    const o = write.toOperatorObject({
      apiVersion: 'dbaas.platform.dev/v1alpha1',
      kind: 'DatabaseInstance',
      metadata: { name: 'shop', namespace: 'team-a' },
      spec: {
        engine: 'mysql',
        topology: 'innodbcluster',
        version: '8.4.3',
        replicas: 3,
        storage: { size: '1Gi' },
      },
    });
    expect(o.spec).toMatchObject({
      secretName: 'shop-root',
      instances: 3,
      router: { instances: 1 },
      tlsUseSelfSigned: true,
    });
    expect(o.spec).not.toHaveProperty('podSpec');
  });

  it('keeps instances when the change names none, and adds no podSpec without resources', () => {
    const current = cluster({
      instances: 3,
      version: '8.4.3',
      secretName: 's',
    });
    const result = update(current, { version: '8.4.4' }, [
      'replicas',
      'resources',
    ]);
    expect(result.object?.spec).toEqual({
      instances: 3,
      version: '8.4.4',
      secretName: 's',
    });
  });

  it('writes resources into the mysql container beside the sidecars', () => {
    const sidecar = { name: 'sidecar', image: 'x' };
    const current = cluster({
      instances: 3,
      version: '8.4.3',
      podSpec: { containers: [sidecar] },
    });
    const result = update(current, { resources: { requests: { cpu: '2' } } });
    expect(result.object?.spec.podSpec.containers).toEqual([
      sidecar,
      { name: 'mysql', resources: { requests: { cpu: '2' } } },
    ]);
    const existing = cluster({
      instances: 3,
      version: '8.4.3',
      podSpec: { containers: [{ name: 'mysql', env: [] }] },
    });
    expect(
      update(existing, { resources: { limits: { memory: '4Gi' } } }).object
        ?.spec.podSpec.containers,
    ).toEqual([
      { name: 'mysql', env: [], resources: { limits: { memory: '4Gi' } } },
    ]);
  });

  it('creates the root Secret the cluster names, labelled as ours, and reads it back', () => {
    const [secret] = write.secretsToCreate(
      {
        apiVersion: 'dbaas.platform.dev/v1alpha1',
        kind: 'DatabaseInstance',
        metadata: { name: 'shop', namespace: 'team-a' },
        spec: { engine: 'mysql' },
      },
      () => 'pw',
    );
    expect(secret).toMatchObject({
      metadata: {
        name: 'shop-root',
        labels: { 'app.kubernetes.io/managed-by': expect.any(String) },
      },
    });
    expect(write.connectionSecretName(cluster({ secretName: 'mine' }))).toBe(
      'mine',
    );
    expect(write.connectionSecretName(cluster({}))).toBeUndefined();
  });
});
