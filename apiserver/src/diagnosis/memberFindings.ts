import type {
  DiagnosisFinding,
  DiagnosisObjectRef,
} from '@internal/plugin-databases-common';
import type { KubeObject } from '../adapters/types';
import { asArray, asNumber, asRecord, asString } from '../adapters/shared/read';

const refOf = (o: KubeObject, kind: string): DiagnosisObjectRef => ({
  apiVersion: 'v1',
  kind,
  name: o.metadata?.name ?? '',
  ...(o.metadata?.namespace ? { namespace: o.metadata.namespace } : {}),
});

/** A claim no volume is bound to: the pod that needs it cannot start. */
function claimFindings(pvc: KubeObject): DiagnosisFinding[] {
  const phase = asString(asRecord(pvc.status)?.phase);
  const name = pvc.metadata?.name ?? '';
  const storageClass = asString(asRecord(pvc.spec)?.storageClassName);
  const size = asString(
    asRecord(asRecord(asRecord(pvc.spec)?.resources)?.requests)?.storage,
  );
  if (phase === 'Pending')
    return [
      {
        reason: 'PersistentVolumeClaimPending',
        severity: 'Error',
        message: `PersistentVolumeClaim ${name}${size ? ` (${size})` : ''} is Pending: no volume is bound to it${
          storageClass
            ? ` (storage class ${storageClass})`
            : ' and it names no storage class'
        }`,
        hint: storageClass
          ? `Check that storage class ${storageClass} exists (kubectl get storageclass), that its provisioner runs, and that the namespace's ResourceQuota allows ${size ?? 'the size'} of storage; kubectl describe pvc ${name} shows the provisioner's events.`
          : 'Set spec.storage.storageClassName, or mark a storage class as the default (storageclass.kubernetes.io/is-default-class); without one nothing provisions a volume.',
        objects: [refOf(pvc, 'PersistentVolumeClaim')],
      },
    ];
  if (phase === 'Lost')
    return [
      {
        reason: 'PersistentVolumeClaimLost',
        severity: 'Error',
        message: `PersistentVolumeClaim ${name} lost its volume: the PersistentVolume it was bound to is gone`,
        hint: 'The data on that volume is not reachable. Restore the member from a backup, or delete the claim and its pod so the operator rebuilds the member from the others.',
        objects: [refOf(pvc, 'PersistentVolumeClaim')],
      },
    ];
  return [];
}

const IMAGE_PULL = new Set([
  'ErrImagePull',
  'ImagePullBackOff',
  'InvalidImageName',
]);
const CONFIG_ERRORS = new Set([
  'CreateContainerConfigError',
  'CreateContainerError',
]);

/** What the kubelet and the scheduler say about one pod. */
function podFindings(pod: KubeObject): DiagnosisFinding[] {
  const status = asRecord(pod.status) ?? {};
  const name = pod.metadata?.name ?? '';
  const objects = [refOf(pod, 'Pod')];
  const findings: DiagnosisFinding[] = [];
  const scheduled = asArray(status.conditions)
    .map(c => asRecord(c) ?? {})
    .find(c => c.type === 'PodScheduled');
  if (scheduled?.status === 'False' && scheduled.reason === 'Unschedulable')
    findings.push({
      reason: 'PodUnschedulable',
      severity: 'Error',
      message: `Pod ${name} cannot be scheduled: ${asString(scheduled.message) ?? 'no node fits it'}`,
      hint: 'No node has the CPU and memory it requests, or affinity, taints or an unbound volume exclude every node: lower spec.resources.requests, add nodes, or read kubectl describe pod.',
      objects,
    });
  const containers = [
    ...asArray(status.initContainerStatuses),
    ...asArray(status.containerStatuses),
  ].map(c => asRecord(c) ?? {});
  for (const c of containers) {
    const container = asString(c.name) ?? '';
    const waiting = asRecord(asRecord(c.state)?.waiting);
    const why = asString(waiting?.reason);
    const detail = asString(waiting?.message);
    if (why && IMAGE_PULL.has(why))
      findings.push({
        reason: 'ImagePullBackOff',
        severity: 'Error',
        message: `Pod ${name}: container ${container} cannot pull image ${asString(c.image) ?? ''} (${why}${detail ? `: ${detail}` : ''})`,
        hint: 'Check the image name and tag (spec.version maps to a tag the operator uses), that the nodes reach the registry, and the imagePullSecrets of a private registry.',
        objects,
      });
    else if (why === 'CrashLoopBackOff') {
      const last = asRecord(asRecord(c.lastState)?.terminated);
      const exit = asString(last?.reason);
      const code = asNumber(last?.exitCode);
      const restarts = asNumber(c.restartCount);
      findings.push({
        reason: 'CrashLoopBackOff',
        severity: 'Error',
        message: `Pod ${name}: container ${container} keeps crashing${
          restarts !== undefined ? ` (${restarts} restarts)` : ''
        }${exit || code !== undefined ? `; last exit: ${[exit, code !== undefined ? `code ${code}` : undefined].filter(Boolean).join(', ')}` : ''}`,
        hint:
          exit === 'OOMKilled'
            ? 'The container ran out of memory: raise spec.resources.limits.memory (and requests with it).'
            : `Read its last log: kubectl logs -n ${pod.metadata?.namespace ?? ''} ${name} -c ${container} --previous`,
        objects,
      });
    } else if (why && CONFIG_ERRORS.has(why))
      findings.push({
        reason: 'ContainerConfigError',
        severity: 'Error',
        message: `Pod ${name}: container ${container} cannot be created (${why}${detail ? `: ${detail}` : ''})`,
        hint: 'A Secret or ConfigMap the container reads is missing or lacks a key: the message names it.',
        objects,
      });
  }
  return findings;
}

/**
 * Findings about the pods and volume claims of an instance, from their status as the
 * scheduler, the kubelet and the volume controller write it. Pure.
 */
export function memberFindings(
  pods: readonly KubeObject[],
  claims: readonly KubeObject[],
): DiagnosisFinding[] {
  return [...claims.flatMap(claimFindings), ...pods.flatMap(podFindings)];
}
