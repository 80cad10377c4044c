import type { StoredObject } from '../store/types';
import type {
  DesiredStatefulSet,
  MemberFault,
  StatefulSetState,
} from './types';

/** The pods of a set, as the StatefulSet controller names them (CloudNativePG counts from 1). */
export function podNames(d: DesiredStatefulSet, pods: number): string[] {
  return Array.from(
    { length: pods },
    (_, i) => `${d.name}-${d.podsOnly ? i + 1 : i}`,
  );
}

const SCHEDULER_NO_FIT =
  '0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.';
const SCHEDULER_UNBOUND =
  'pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.';

const condition = (
  type: string,
  ok: boolean,
  since: string,
  reason?: string,
  message?: string,
) => ({
  type,
  status: ok ? 'True' : 'False',
  lastTransitionTime: since,
  ...(reason ? { reason } : {}),
  ...(message ? { message } : {}),
});

/**
 * A pod's status as the scheduler and kubelet write it (core/v1 PodStatus): ready, running but
 * failing its readiness probe, or held by `fault`. `since` is the only time used, so a pod that
 * does not change is not rewritten.
 */
export function podStatus(
  d: DesiredStatefulSet,
  pod: string,
  ready: boolean,
  fault: MemberFault | undefined,
  since: string,
): Record<string, unknown> {
  const held = ready ? undefined : fault;
  if (held === 'unschedulable' || held === 'volume-pending')
    return {
      phase: 'Pending',
      conditions: [
        condition(
          'PodScheduled',
          false,
          since,
          'Unschedulable',
          held === 'unschedulable' ? SCHEDULER_NO_FIT : SCHEDULER_UNBOUND,
        ),
      ],
      qosClass: 'Burstable',
    };
  const container = {
    name: d.container,
    image: d.image,
    ready,
    started: ready,
    restartCount: held === 'crash-loop' ? 5 : 0,
  };
  const waiting: Partial<
    Record<MemberFault, { reason: string; message: string }>
  > = {
    'image-pull': {
      reason: 'ImagePullBackOff',
      message: `Back-off pulling image "${d.image}"`,
    },
    'crash-loop': {
      reason: 'CrashLoopBackOff',
      message: `back-off 5m0s restarting failed container=${d.container} pod=${pod}`,
    },
  };
  const stuck = held && waiting[held];
  const state = stuck ? { waiting: stuck } : { running: { startedAt: since } };
  return {
    phase: held === 'image-pull' ? 'Pending' : 'Running',
    conditions: [
      condition('PodScheduled', true, since),
      condition('Initialized', true, since),
      condition(
        'ContainersReady',
        ready,
        since,
        ready ? undefined : 'ContainersNotReady',
      ),
      condition(
        'Ready',
        ready,
        since,
        ready ? undefined : 'ContainersNotReady',
      ),
    ],
    containerStatuses: [
      {
        ...container,
        state,
        ...(held === 'crash-loop'
          ? {
              lastState: {
                terminated: {
                  reason: 'Error',
                  exitCode: 1,
                  startedAt: since,
                  finishedAt: since,
                },
              },
            }
          : {}),
      },
    ],
    hostIP: '10.0.0.10',
    podIP: '10.244.0.10',
    qosClass: 'Burstable',
    startTime: since,
  };
}

/** The pod object (without status) of one member. */
export function podObject(
  cr: StoredObject,
  d: DesiredStatefulSet,
  pod: string,
  owner: Record<string, unknown>,
  index = 0,
): Record<string, any> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: pod,
      namespace: cr.metadata.namespace,
      labels: {
        ...d.labels,
        ...(d.podsOnly ? {} : { 'statefulset.kubernetes.io/pod-name': pod }),
        ...d.podLabels?.(pod, index),
      },
      ownerReferences: [owner],
    },
    spec: {
      containers: [{ name: d.container, image: d.image }],
      ...(d.podsOnly ? {} : { hostname: pod, subdomain: d.serviceName }),
    },
  };
}

/** The claim object (without status) of one member's data volume. */
export function claimObject(
  cr: StoredObject,
  d: DesiredStatefulSet,
  pod: string,
  owner: Record<string, unknown>,
): Record<string, any> | undefined {
  if (!d.claim) return undefined;
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name: d.claim.name(pod),
      namespace: cr.metadata.namespace,
      labels: d.labels,
      ownerReferences: [owner],
    },
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: d.claim.size ?? '1Gi' } },
      ...(d.claim.storageClassName
        ? { storageClassName: d.claim.storageClassName }
        : {}),
      volumeMode: 'Filesystem',
    },
  };
}

/** The claim's status: Bound, or Pending while a `volume-pending` fault holds its pod. */
export function claimStatus(
  d: DesiredStatefulSet,
  pending: boolean,
): Record<string, unknown> {
  return pending
    ? { phase: 'Pending' }
    : {
        phase: 'Bound',
        accessModes: ['ReadWriteOnce'],
        capacity: { storage: d.claim?.size ?? '1Gi' },
      };
}

/** Which pods of a set are ready: the first `state.ready`, as a StatefulSet starts them in order. */
export const isReadyPod = (state: StatefulSetState, index: number) =>
  index < state.ready;
