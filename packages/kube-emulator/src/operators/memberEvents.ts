import { createHash } from 'node:crypto';
import type { DesiredStatefulSet, MemberFault } from './types';

/** One core/v1 Event a member's fault makes kube's components write. */
export interface MemberEvent {
  about: { apiVersion: string; kind: string; name: string; uid?: string };
  reason: string;
  message: string;
  type: 'Normal' | 'Warning';
  component: string;
}

/**
 * The events kubelet, the scheduler and the volume controller write about a member held by a
 * fault, in their words (pkg/kubelet/events, the scheduler's FailedScheduling, the PV
 * controller's ProvisioningFailed): what `kubectl describe pod` would show for it.
 */
export function memberEvents(
  d: DesiredStatefulSet,
  pod: { name: string; namespace: string; uid?: string },
  claim: { name: string; uid?: string } | undefined,
  fault: MemberFault | undefined,
): MemberEvent[] {
  const aboutPod = { apiVersion: 'v1', kind: 'Pod', name: pod.name, uid: pod.uid };
  switch (fault) {
    case 'image-pull':
      return [
        { about: aboutPod, reason: 'Failed', type: 'Warning', component: 'kubelet', message: `Failed to pull image "${d.image}": rpc error: code = NotFound desc = failed to pull and unpack image "${d.image}": not found` },
        { about: aboutPod, reason: 'BackOff', type: 'Normal', component: 'kubelet', message: `Back-off pulling image "${d.image}"` },
      ];
    case 'crash-loop':
      return [
        { about: aboutPod, reason: 'BackOff', type: 'Warning', component: 'kubelet', message: `Back-off restarting failed container ${d.container} in pod ${pod.name}_${pod.namespace}(${pod.uid ?? ''})` },
      ];
    case 'unschedulable':
      return [
        { about: aboutPod, reason: 'FailedScheduling', type: 'Warning', component: 'default-scheduler', message: '0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.' },
      ];
    case 'volume-pending':
      return claim
        ? [
            {
              about: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', name: claim.name, uid: claim.uid },
              reason: 'ProvisioningFailed',
              type: 'Warning',
              component: 'persistentvolume-controller',
              message: d.claim?.storageClassName
                ? `storageclass.storage.k8s.io "${d.claim.storageClassName}" not found`
                : 'no persistent volumes available for this claim and no storage class is set',
            },
          ]
        : [];
    default:
      return [];
  }
}

/** A stable name per object and reason: kube names events `<object>.<hex>`; one per fault here. */
export const memberEventName = (e: MemberEvent) =>
  `${e.about.name}.${createHash('sha256').update(`${e.about.kind}/${e.reason}`).digest('hex').slice(0, 16)}`;
