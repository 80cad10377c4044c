import { describe, it, expect } from '@jest/globals';
import type { PhaseFacts } from './facts';
import { toInstance } from './toInstance';
import { THING_KIND as kind } from './__testUtils__/thingKind';

describe('toInstance', () => {
  const source = {
    apiVersion: 'example.com/v1',
    kind: 'Thing',
    metadata: {
      name: 'orders',
      namespace: 'team-a',
      uid: 'u-1',
      resourceVersion: '42',
      generation: 7,
      creationTimestamp: '2026-01-01T00:00:00Z',
      labels: { 'backstage.io/kubernetes-id': 'orders' },
      annotations: { note: 'x' },
      managedFields: [{}],
    },
    spec: {},
    status: { nested: { raw: true } },
  };

  it('copies identity metadata and the generation, leaves resourceVersion to the cache and attaches the raw status', () => {
    const instance = toInstance({
      operator: 'thing-operator',
      engine: 'redis',
      kind,
      source,
      spec: {
        version: '7.0',
        topology: 'standalone',
        replicas: 1,
        storage: undefined,
      },
      facts: {
        deleting: false,
        hasStatus: true,
        onceReady: false,
        replicas: { desired: 1, ready: 1 },
      },
      endpoints: [{ name: 'primary', host: 'orders.team-a.svc', port: 6379 }],
    });
    expect(instance.apiVersion).toBe('dbaas.platform.dev/v1alpha1');
    expect(instance.kind).toBe('DatabaseInstance');
    expect(instance.metadata).toEqual({
      name: 'orders',
      namespace: 'team-a',
      uid: 'u-1',
      creationTimestamp: '2026-01-01T00:00:00Z',
      // the operator object's: its spec is where the instance's goes
      generation: 7,
      labels: { 'backstage.io/kubernetes-id': 'orders' },
      annotations: { note: 'x' },
    });
    // undefined members are dropped, not serialised as null.
    expect(Object.keys(instance.spec)).toEqual([
      'engine',
      'version',
      'topology',
      'replicas',
    ]);
    expect(instance.status).toMatchObject({
      phase: 'Ready',
      reason: 'AllReplicasReady',
      source: {
        apiVersion: 'example.com/v1',
        kind: 'Thing',
        name: 'orders',
        operator: 'thing-operator',
      },
      version: '7.0',
      replicas: { desired: 1, ready: 1 },
    });
    expect(instance.status?.operatorStatus).toBe(source.status);
    expect(instance.status).not.toHaveProperty('credentialsSecretRef');
  });

  it.each([
    ['9.1.0', '9.1.0', 'Ready', 'AllReplicasReady'],
    ['11.4', '11.4.2', 'Ready', 'AllReplicasReady'],
    ['9.1.0', '8.4.3', 'Updating', 'VersionRollingOut'],
    ['11.4', '11.40.1', 'Updating', 'VersionRollingOut'],
  ])(
    'spec version %s with the operator running %s is %s (%s)',
    (desired, running, phase, reason) => {
      const instance = toInstance({
        operator: 'thing-operator',
        engine: 'mysql',
        kind,
        source,
        spec: { version: desired, topology: 'standalone', replicas: 1 },
        facts: {
          deleting: false,
          hasStatus: true,
          onceReady: true,
          operatorReady: true,
          replicas: { desired: 1, ready: 1 },
        },
        version: running,
        endpoints: [],
      });
      expect(instance.status).toMatchObject({
        phase,
        reason,
        version: running,
      });
      expect(instance.status?.message).toBe(
        phase === 'Updating'
          ? `Running ${running}, upgrading to ${desired}`
          : undefined,
      );
    },
  );

  it("serves kubectl's last-applied copy of the instance under kubectl's key, never the operator object's own", () => {
    const annotated = (annotations: Record<string, string>) =>
      toInstance({
        operator: 'thing-operator',
        engine: 'redis',
        kind,
        source: { ...source, metadata: { ...source.metadata, annotations } },
        spec: {
          version: '7.0',
          topology: 'standalone',
          replicas: 1,
          storage: undefined,
        },
        facts: {
          deleting: false,
          hasStatus: true,
          onceReady: false,
          replicas: { desired: 1, ready: 1 },
        },
        endpoints: [],
      }).metadata.annotations;
    const KUBECTL = 'kubectl.kubernetes.io/last-applied-configuration';
    const OURS = 'dbaas.platform.dev/last-applied-configuration';
    expect(
      annotated({ note: 'x', [OURS]: '{"kind":"DatabaseInstance"}' }),
    ).toEqual({ note: 'x', [KUBECTL]: '{"kind":"DatabaseInstance"}' });
    expect(annotated({ note: 'x', [KUBECTL]: '{"kind":"Thing"}' })).toEqual({
      note: 'x',
    });
    expect(annotated({ [KUBECTL]: '{"kind":"Thing"}' })).toBeUndefined();
    // the apiserver's record of the last Ready spec is its own, not the instance's
    expect(
      annotated({
        note: 'x',
        'dbaas.platform.dev/ready-spec': '{"replicas":1}',
      }),
    ).toEqual({ note: 'x' });
  });
});

describe('toInstance: a Ready the apiserver recorded is no first creation', () => {
  const spec = {
    version: '11.4',
    topology: 'replication' as const,
    replicas: 3,
    storage: { size: '1Gi' },
  };
  const recorded = JSON.stringify({
    replicas: 3,
    version: '11.4',
    storage: '1Gi',
    topology: 'replication',
  });
  const project = (annotation: string | undefined, facts: Partial<PhaseFacts>) =>
    toInstance({
      operator: 'thing-operator',
      engine: 'mariadb',
      kind,
      source: {
        apiVersion: 'example.com/v1',
        kind: 'Thing',
        metadata: {
          name: 'orders',
          namespace: 'team-a',
          ...(annotation && {
            annotations: { 'dbaas.platform.dev/ready-spec': annotation },
          }),
        },
        status: { x: 1 },
      },
      spec,
      facts: { deleting: false, hasStatus: true, onceReady: false, ...facts },
      endpoints: [],
    }).status;

  it.each([
    [
      'a child the operator reports missing',
      {
        operatorReady: false,
        notReadyReason: 'StatefulSetNotFound',
        readyMessage: 'StatefulSet orders not found',
      },
      'Degraded',
      'StatefulSetNotFound',
    ],
    [
      'a cluster the operator reports unavailable',
      {
        notServing: { reason: 'ClusterUnavailable', message: 'no quorum' },
        replicas: { desired: 3, ready: 0 },
      },
      'Failed',
      'ClusterUnavailable',
    ],
    [
      'members not ready',
      { replicas: { desired: 3, ready: 2 } },
      'Degraded',
      'ReplicasNotReady',
    ],
  ])(
    '%s, with the spec recorded Ready, is not Provisioning',
    (_n, facts, phase, reason) => {
      expect(project(recorded, facts)).toMatchObject({ phase, reason });
      // Without the record the same facts read as a first creation.
      expect(project(undefined, facts)?.phase).toBe('Provisioning');
    },
  );

  it('a spec changed since the recorded Ready is left to the rollout memory', () => {
    const other = recorded.replace('"replicas":3', '"replicas":5');
    expect(project(other, { replicas: { desired: 3, ready: 0 } })?.phase).toBe(
      'Provisioning',
    );
  });
});
