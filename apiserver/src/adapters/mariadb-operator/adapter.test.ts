import { describe, it, expect } from '@jest/globals';
import type { KubeObject } from '../types';
import { readSample } from '../__testUtils__/operatorFiles';
import { emptyLookup } from '../__testUtils__/schemaDerivedFixtures';
import { mariadbOperatorAdapter } from './adapter';

const kind = mariadbOperatorAdapter.kinds[0];
const sample = (file: string): KubeObject => {
  const object = readSample('mariadb-operator', file, 'MariaDB');
  return {
    ...object,
    metadata: {
      ...object.metadata,
      namespace: 'team-a',
      uid: 'u-1',
      labels: { app: 'x' },
    },
  };
};
const project = (object: KubeObject) =>
  mariadbOperatorAdapter.project(object, kind, emptyLookup);

describe('mariadbOperatorAdapter on upstream samples', () => {
  it.each([
    [
      'mariadb.yaml',
      'standalone',
      1,
      [{ name: 'primary', host: 'mariadb.team-a.svc', port: 3306 }],
      'mariadb',
    ],
    [
      'mariadb_galera.yaml',
      'galera',
      3,
      [
        {
          name: 'primary',
          host: 'mariadb-galera-primary.team-a.svc',
          port: 3306,
        },
        {
          name: 'readonly',
          host: 'mariadb-galera-secondary.team-a.svc',
          port: 3306,
        },
      ],
      'mariadb',
    ],
    [
      'mariadb_replication.yaml',
      'replication',
      3,
      [
        {
          name: 'primary',
          host: 'mariadb-repl-primary.team-a.svc',
          port: 3306,
        },
        {
          name: 'readonly',
          host: 'mariadb-repl-secondary.team-a.svc',
          port: 3306,
        },
      ],
      'mariadb',
    ],
  ])('%s → %s', (file, topology, replicas, endpoints, secret) => {
    const object = sample(file);
    const instance = project(object);
    expect(instance.spec).toMatchObject({
      engine: 'mariadb',
      topology,
      replicas,
      storage: { size: '1Gi' },
    });
    expect(instance.status?.endpoints).toEqual(endpoints);
    expect(instance.status?.credentialsSecretRef).toEqual({ name: secret });
    expect(instance.status?.source).toEqual({
      apiVersion: 'k8s.mariadb.com/v1alpha1',
      kind: 'MariaDB',
      name: object.metadata!.name,
      operator: 'mariadb-operator',
    });
    expect(instance.metadata).toEqual({
      name: object.metadata!.name,
      namespace: 'team-a',
      uid: 'u-1',
      labels: { app: 'x' },
    });
    // No status yet: never Ready.
    expect(instance.status?.phase).toBe('Pending');
  });

  it('reads resources back from mariadb.yaml', () => {
    expect(project(sample('mariadb.yaml')).spec.resources).toEqual({
      requests: { cpu: '300m', memory: '128Mi' },
      limits: { memory: '2Gi' },
    });
  });

  it('uses the generated <name>-root Secret when none is referenced, none with an empty root password', () => {
    const minimal = sample('mariadb_minimal.yaml');
    expect(project(minimal).status?.credentialsSecretRef).toBeUndefined();
    const { rootEmptyPassword: _, ...spec } = minimal.spec;
    expect(project({ ...minimal, spec }).status?.credentialsSecretRef).toEqual({
      name: 'mariadb-min-root',
    });
  });
});

describe('mariadbOperatorAdapter states', () => {
  const galera = () => sample('mariadb_galera.yaml');
  const withStatus = (
    object: KubeObject,
    status: unknown,
    extra: Partial<KubeObject> = {},
  ) => ({ ...object, ...extra, status });

  it.each<[string, KubeObject, string, string]>([
    [
      'ready with a pod missing (status.replicas counts ready pods)',
      withStatus(galera(), {
        replicas: 2,
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'StatefulSetReady',
            message: 'Running',
          },
        ],
      }),
      'Degraded',
      'ReplicasNotReady',
    ],
    [
      'galera configured once, now not ready and no pod ready',
      withStatus(galera(), {
        replicas: 0,
        conditions: [
          {
            type: 'Ready',
            status: 'False',
            reason: 'StatefulSetNotReady',
            message: 'Not ready',
          },
          {
            type: 'GaleraConfigured',
            status: 'True',
            reason: 'GaleraConfigured',
          },
        ],
      }),
      'Failed',
      'NoReplicasReady',
    ],
    [
      'storage resize',
      withStatus(galera(), {
        conditions: [
          {
            type: 'Ready',
            status: 'False',
            reason: 'ResizingStorage',
            message: 'Resizing storage',
          },
        ],
      }),
      'Updating',
      'ResizingStorage',
    ],
    [
      'scale-out error',
      withStatus(galera(), {
        conditions: [
          {
            type: 'Ready',
            status: 'False',
            reason: 'ScaleOutError',
            message: 'Error scaling out',
          },
        ],
      }),
      'Failed',
      'ScaleOutError',
    ],
    [
      'galera still forming',
      withStatus(galera(), {
        conditions: [
          {
            type: 'GaleraReady',
            status: 'False',
            reason: 'GaleraNotReady',
            message: 'Galera not ready',
          },
        ],
      }),
      'Provisioning',
      'GaleraInitializing',
    ],
    [
      'deleting',
      withStatus(
        galera(),
        { conditions: [{ type: 'Ready', status: 'True', message: 'Running' }] },
        {
          metadata: {
            name: 'mariadb-galera',
            deletionTimestamp: '2026-01-01T00:00:00Z',
          },
        },
      ),
      'Deleting',
      'DeletionInProgress',
    ],
    [
      // derived: the CRD's condition reason is free text, so an operator release can add reasons
      'Ready=False for a reason this adapter does not know, every member up, formed once: Degraded with the reason as it is',
      withStatus(galera(), {
        replicas: 3,
        conditions: [
          { type: 'Ready', status: 'False', reason: 'SomethingNew', message: 'a new kind of trouble' },
          { type: 'GaleraConfigured', status: 'True', reason: 'GaleraConfigured' },
        ],
      }),
      'Degraded',
      'SomethingNew',
    ],
  ])('%s', (_name, object, phase, reason) => {
    expect(project(object).status).toMatchObject({ phase, reason });
  });

  it('reads the version from the image tag and keeps the operator transition time', () => {
    const object = withStatus(
      {
        ...galera(),
        spec: {
          ...galera().spec,
          image: 'docker-registry1.mariadb.com/library/mariadb:11.4.2',
        },
      },
      {
        replicas: 3,
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'StatefulSetReady',
            message: 'Running',
            lastTransitionTime: '2026-01-01T00:00:00Z',
          },
        ],
      },
    );
    const instance = project(object);
    expect(instance.spec.version).toBe('11.4.2');
    expect(instance.status).toMatchObject({
      phase: 'Ready',
      reason: 'AllReplicasReady',
      message: 'Running',
      version: '11.4.2',
      replicas: { desired: 3, ready: 3 },
    });
    expect(instance.status?.conditions?.[0]).toEqual({
      type: 'Ready',
      status: 'True',
      reason: 'AllReplicasReady',
      message: 'Running',
      lastTransitionTime: '2026-01-01T00:00:00Z',
    });
  });

  it('reads the old image object and claim template of pre-v0.0.2x objects', () => {
    const old: KubeObject = {
      apiVersion: 'k8s.mariadb.com/v1alpha1',
      kind: 'MariaDB',
      metadata: { name: 'legacy' },
      spec: {
        image: { repository: 'mariadb', tag: '10.7.4' },
        volumeClaimTemplate: {
          resources: { requests: { storage: '100Mi' } },
          storageClassName: 'standard',
        },
      },
    };
    expect(project(old).spec).toMatchObject({
      version: '10.7.4',
      storage: { size: '100Mi', storageClassName: 'standard' },
    });
  });

  it.each([
    null,
    42,
    'x',
    [],
    {
      conditions: 'nope',
      replicas: 'three',
      replication: 7,
      galeraRecovery: [],
    },
  ])('never throws on a malformed status (%p)', status => {
    expect(() => project({ ...galera(), status })).not.toThrow();
  });

  // A scale-out: the new replica is not replicating yet while the operator reports Updating.
  const scalingOut = (reason: string, status: 'True' | 'False') => ({
    apiVersion: 'k8s.mariadb.com/v1alpha1',
    kind: 'MariaDB',
    metadata: { name: 'db', namespace: 'team-a' },
    spec: { replicas: 3, replication: { enabled: true } },
    status: {
      conditions: [
        { type: 'Ready', status, reason, message: reason },
        { type: 'ReplicationConfigured', status: 'True', reason: 'ReplicationConfigured' },
      ],
      replicas: 2,
      replication: {
        roles: { 'db-0': 'Primary', 'db-1': 'Replica', 'db-2': 'Replica' },
        replicas: {
          'db-1': { slaveIORunning: true, slaveSQLRunning: true },
          'db-2': { slaveIORunning: false, slaveSQLRunning: false },
        },
      },
    },
  });

  it('a suspended MariaDB (spec.suspend) is Paused, not Unknown', () => {
    const suspended = scalingOut('Suspended', 'False');
    expect(project(suspended).status).toMatchObject({ phase: 'Paused', reason: 'Suspended', message: 'Suspended' });
  });

  it('a replica not replicating yet during an update is Updating, outside one Degraded', () => {
    expect(project(scalingOut('Updating', 'False')).status).toMatchObject({ phase: 'Updating', reason: 'Updating' });
    expect(project(scalingOut('StatefulSetReady', 'True')).status).toMatchObject({
      phase: 'Degraded',
      reason: 'ReplicationBroken',
    });
  });
});
