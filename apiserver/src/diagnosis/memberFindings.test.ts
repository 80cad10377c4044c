import { describe, it, expect } from '@jest/globals';
import type { KubeObject } from '../adapters/types';
import { memberFindings } from './memberFindings';

/*
 * Pod and PersistentVolumeClaim statuses as the scheduler, the kubelet and the volume
 * controller write them (core/v1 PodStatus, ContainerStatus, PersistentVolumeClaimStatus);
 * built from the API types, not captured from a cluster.
 */

const pod = (status: Record<string, unknown>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'db-0', namespace: 'team-a' },
  status,
});
const claim = (
  phase: string,
  spec: Record<string, unknown> = {},
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'storage-db-0', namespace: 'team-a' },
  spec: { resources: { requests: { storage: '10Gi' } }, ...spec },
  status: { phase },
});
const waiting = (
  reason: string,
  message?: string,
  extra: Record<string, unknown> = {},
) =>
  pod({
    phase: reason === 'CrashLoopBackOff' ? 'Running' : 'Pending',
    containerStatuses: [
      {
        name: 'mariadb',
        image: 'mariadb:11.4',
        ready: false,
        state: { waiting: { reason, message } },
        ...extra,
      },
    ],
  });

describe('memberFindings', () => {
  it('a claim Pending on a storage class, naming it and the size', () => {
    const [f] = memberFindings(
      [],
      [claim('Pending', { storageClassName: 'fast' })],
    );
    expect(f).toMatchObject({
      reason: 'PersistentVolumeClaimPending',
      severity: 'Error',
      message:
        'PersistentVolumeClaim storage-db-0 (10Gi) is Pending: no volume is bound to it (storage class fast)',
      objects: [
        {
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          name: 'storage-db-0',
          namespace: 'team-a',
        },
      ],
    });
    expect(f.hint).toContain('kubectl get storageclass');
    expect(f.hint).toContain('ResourceQuota');
  });

  it('a claim Pending without a storage class says to name one or set a default', () => {
    const [f] = memberFindings([], [claim('Pending')]);
    expect(f.message).toContain('it names no storage class');
    expect(f.hint).toContain('storageclass.kubernetes.io/is-default-class');
  });

  it('a claim that lost its volume', () => {
    expect(memberFindings([], [claim('Lost')])[0]).toMatchObject({
      reason: 'PersistentVolumeClaimLost',
      severity: 'Error',
    });
  });

  it('a bound claim and a running ready pod are no finding', () => {
    const running = pod({
      phase: 'Running',
      conditions: [{ type: 'PodScheduled', status: 'True' }],
      containerStatuses: [
        { name: 'mariadb', ready: true, state: { running: {} } },
      ],
    });
    expect(memberFindings([running], [claim('Bound')])).toEqual([]);
  });

  it.each(['ErrImagePull', 'ImagePullBackOff', 'InvalidImageName'])(
    '%s: the image cannot be pulled',
    why => {
      const [f] = memberFindings(
        [waiting(why, 'Back-off pulling image "mariadb:11.4"')],
        [],
      );
      expect(f).toMatchObject({
        reason: 'ImagePullBackOff',
        message: `Pod db-0: container mariadb cannot pull image mariadb:11.4 (${why}: Back-off pulling image "mariadb:11.4")`,
      });
      expect(f.hint).toContain('imagePullSecrets');
    },
  );

  it('a crash loop names restarts and the last exit, and OOMKilled points at the memory limit', () => {
    const [oom] = memberFindings(
      [
        waiting('CrashLoopBackOff', 'back-off 5m0s', {
          restartCount: 7,
          lastState: { terminated: { reason: 'OOMKilled', exitCode: 137 } },
        }),
      ],
      [],
    );
    expect(oom).toMatchObject({
      reason: 'CrashLoopBackOff',
      message:
        'Pod db-0: container mariadb keeps crashing (7 restarts); last exit: OOMKilled, code 137',
    });
    expect(oom.hint).toContain('spec.resources.limits.memory');
    const [error] = memberFindings(
      [
        waiting('CrashLoopBackOff', undefined, {
          restartCount: 2,
          lastState: { terminated: { reason: 'Error', exitCode: 1 } },
        }),
      ],
      [],
    );
    expect(error.hint).toBe(
      'Read its last log: kubectl logs -n team-a db-0 -c mariadb --previous',
    );
    const [bare] = memberFindings([waiting('CrashLoopBackOff')], []);
    expect(bare.message).toBe('Pod db-0: container mariadb keeps crashing');
  });

  it('init containers are read too', () => {
    const p = pod({
      initContainerStatuses: [
        {
          name: 'init',
          image: 'x:1',
          state: { waiting: { reason: 'ErrImagePull' } },
        },
      ],
    });
    expect(memberFindings([p], [])[0].message).toBe(
      'Pod db-0: container init cannot pull image x:1 (ErrImagePull)',
    );
  });

  it('a missing Secret or ConfigMap keeps the container from being created', () => {
    const [f] = memberFindings(
      [waiting('CreateContainerConfigError', 'secret "db-root" not found')],
      [],
    );
    expect(f).toMatchObject({
      reason: 'ContainerConfigError',
      message:
        'Pod db-0: container mariadb cannot be created (CreateContainerConfigError: secret "db-root" not found)',
    });
  });

  it('an unschedulable pod, with the scheduler words', () => {
    const p = pod({
      phase: 'Pending',
      conditions: [
        {
          type: 'PodScheduled',
          status: 'False',
          reason: 'Unschedulable',
          message: '0/3 nodes are available: 3 Insufficient memory.',
        },
      ],
    });
    const [f] = memberFindings([p], []);
    expect(f).toMatchObject({
      reason: 'PodUnschedulable',
      message:
        'Pod db-0 cannot be scheduled: 0/3 nodes are available: 3 Insufficient memory.',
    });
    expect(
      memberFindings(
        [
          pod({
            conditions: [
              {
                type: 'PodScheduled',
                status: 'False',
                reason: 'SchedulingGated',
              },
            ],
          }),
        ],
        [],
      ),
    ).toEqual([]);
  });

  it('a waiting reason that is no fault (ContainerCreating, PodInitializing) is no finding', () => {
    expect(
      memberFindings(
        [waiting('ContainerCreating'), waiting('PodInitializing')],
        [],
      ),
    ).toEqual([]);
  });

  it('claims come before pods (a Pending claim explains the pod waiting for it)', () => {
    const unschedulable = pod({
      conditions: [
        {
          type: 'PodScheduled',
          status: 'False',
          reason: 'Unschedulable',
          message: 'pod has unbound immediate PersistentVolumeClaims',
        },
      ],
    });
    expect(
      memberFindings([unschedulable], [claim('Pending')]).map(f => f.reason),
    ).toEqual(['PersistentVolumeClaimPending', 'PodUnschedulable']);
  });
});
