import { describe, expect, it } from '@jest/globals';
import type { StoredObject } from '../store/types';
import { harness, NS } from './__testutils__/harness';
import { CNPG_CLUSTER_KIND } from './cloudnative-pg/cloudnativePgOperator';
import { MARIADB_KIND } from './mariadb-operator/mariadbOperator';

const PODS = { group: '', version: 'v1', plural: 'pods' };
const CLAIMS = { group: '', version: 'v1', plural: 'persistentvolumeclaims' };
const EVENTS = { group: '', version: 'v1', plural: 'events' };
const ref = { kind: 'MariaDB', namespace: NS, name: 'db' };

function members(h: ReturnType<typeof harness>) {
  const pods = h.store
    .list(PODS, NS)
    .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
  const claims = h.store
    .list(CLAIMS, NS)
    .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
  const summary = (o: StoredObject) =>
    `${o.metadata.name}:${(o.status as any)?.phase}`;
  return {
    pods,
    claims,
    summary: [...claims.map(summary), ...pods.map(summary)],
  };
}

describe('emulated members (pods and data claims, as the StatefulSet controller keeps them)', () => {
  it('one pod and one bound claim per member, labelled with the StatefulSet selector and owned by it', () => {
    const h = harness();
    h.create(MARIADB_KIND, 'db', {
      image: 'mariadb:11.4.2',
      replicas: 2,
      storage: { size: '2Gi' },
    });
    h.emulator.settle();
    const { pods, claims, summary } = members(h);
    expect(summary).toEqual([
      'storage-db-0:Bound',
      'storage-db-1:Bound',
      'db-0:Running',
      'db-1:Running',
    ]);
    const sts = h.sts('db')!;
    for (const o of [...pods, ...claims]) {
      expect(o.metadata.labels).toMatchObject({
        'app.kubernetes.io/name': 'mariadb',
        'app.kubernetes.io/instance': 'db',
      });
      expect(o.metadata.ownerReferences?.[0]).toMatchObject({
        kind: 'StatefulSet',
        uid: sts.metadata.uid,
      });
    }
    expect(claims[0].spec).toMatchObject({
      resources: { requests: { storage: '2Gi' } },
    });
    expect((pods[0].status as any).conditions).toContainEqual(
      expect.objectContaining({ type: 'Ready', status: 'True' }),
    );
  });

  it.each([
    [
      'image-pull',
      'db-1:Pending',
      {
        containerStatuses: [
          expect.objectContaining({
            state: {
              waiting: expect.objectContaining({ reason: 'ImagePullBackOff' }),
            },
          }),
        ],
      },
    ],
    [
      'crash-loop',
      'db-1:Running',
      {
        containerStatuses: [
          expect.objectContaining({
            restartCount: 5,
            lastState: {
              terminated: expect.objectContaining({ reason: 'Error' }),
            },
          }),
        ],
      },
    ],
    [
      'unschedulable',
      'db-1:Pending',
      {
        conditions: [
          expect.objectContaining({
            type: 'PodScheduled',
            status: 'False',
            reason: 'Unschedulable',
          }),
        ],
      },
    ],
  ] as const)(
    'a %s fault shows on the member that is not ready',
    (fault, summary, status) => {
      const h = harness();
      h.emulator.setHealth(ref, 'degraded');
      h.emulator.setFault(ref, fault);
      h.create(MARIADB_KIND, 'db', { image: 'mariadb:11.4.2', replicas: 2 });
      h.emulator.settle();
      const m = members(h);
      expect(m.summary).toContain('db-0:Running');
      expect(m.summary).toContain(summary);
      expect(m.pods[1].status).toMatchObject(status);
    },
  );

  it('a volume-pending fault leaves the claim Pending and its pod unscheduled; clearing it binds and starts them', () => {
    const h = harness();
    h.emulator.setHealth(ref, 'provisioning');
    h.emulator.setFault(ref, 'volume-pending');
    h.create(MARIADB_KIND, 'db', { image: 'mariadb:11.4.2', replicas: 1 });
    h.emulator.settle();
    expect(members(h).summary).toEqual([
      'storage-db-0:Pending',
      'db-0:Pending',
    ]);
    expect((members(h).pods[0].status as any).conditions[0].message).toMatch(
      /unbound immediate PersistentVolumeClaims/,
    );
    h.emulator.setFault(ref, undefined);
    h.emulator.setHealth(ref, 'ready');
    h.emulator.settle();
    expect(members(h).summary).toEqual(['storage-db-0:Bound', 'db-0:Running']);
  });

  it.each([
    ['crash-loop', 'Pod', 'db-1', 'BackOff', /^Back-off restarting failed container mariadb in pod db-1_team-a\(/, 'kubelet'],
    ['image-pull', 'Pod', 'db-1', 'Failed', /^Failed to pull image "mariadb:11.4.2"/, 'kubelet'],
    ['unschedulable', 'Pod', 'db-1', 'FailedScheduling', /^0\/3 nodes are available/, 'default-scheduler'],
    ['volume-pending', 'PersistentVolumeClaim', 'storage-db-1', 'ProvisioningFailed', /no storage class is set/, 'persistentvolume-controller'],
  ])('a %s fault writes the event kube would, about the member, once', (fault, kind, name, reason, message, component) => {
    const h = harness();
    h.emulator.setHealth(ref, 'degraded');
    h.emulator.setFault(ref, fault as never);
    h.create(MARIADB_KIND, 'db', { image: 'mariadb:11.4.2', replicas: 2 });
    h.emulator.settle();
    h.emulator.settle();
    const events = h.store.list(EVENTS, NS) as any[];
    const about = events.filter(e => e.involvedObject.name === name && e.reason === reason);
    expect(about).toHaveLength(1);
    expect(about[0]).toMatchObject({
      involvedObject: { kind, name, namespace: NS, uid: expect.any(String) },
      type: 'Warning',
      count: 1,
      source: { component },
    });
    expect(about[0].message).toMatch(message);
    // the ready member has none
    expect(events.filter(e => e.involvedObject.name === 'db-0')).toEqual([]);
  });

  it('a scale-down removes the pod and keeps its claim (whenScaled: Retain); deletion removes both', () => {
    const h = harness();
    h.create(MARIADB_KIND, 'db', { image: 'mariadb:11.4.2', replicas: 2 });
    h.emulator.settle();
    h.patchSpec(MARIADB_KIND, 'db', spec => (spec.replicas = 1));
    h.emulator.settle();
    expect(members(h).summary).toEqual([
      'storage-db-0:Bound',
      'storage-db-1:Bound',
      'db-0:Running',
    ]);
    h.store.delete(MARIADB_KIND, NS, 'db');
    h.emulator.settle();
    expect(members(h).summary).toEqual([]);
  });

  it('CloudNativePG pods and claims are the operator’s own, named <cluster>-<n> from 1', () => {
    const h = harness();
    h.create(CNPG_CLUSTER_KIND, 'pg', {
      instances: 2,
      storage: { size: '1Gi' },
    });
    h.emulator.settle();
    const m = members(h);
    expect(m.summary).toEqual([
      'pg-1:Bound',
      'pg-2:Bound',
      'pg-1:Running',
      'pg-2:Running',
    ]);
    expect(m.pods[0].metadata.labels).toMatchObject({
      'cnpg.io/cluster': 'pg',
    });
    expect(m.pods[0].metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'Cluster',
    });
  });
});
