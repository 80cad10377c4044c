import crypto from 'node:crypto';
import type { StoredObject } from '../store/types';
import type {
  DesiredDeployment,
  DesiredSecret,
  DesiredService,
  DesiredStatefulSet,
  StatefulSetState,
} from './types';

/** The controller ownerReference dependents carry, as the real operators set it. */
export function ownerReference(cr: StoredObject): Record<string, unknown> {
  return {
    apiVersion: cr.apiVersion,
    kind: cr.kind,
    name: cr.metadata.name,
    uid: cr.metadata.uid,
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** True when `obj` is owned by the object with `uid`. */
export function isOwnedBy(obj: StoredObject, uid: string): boolean {
  return (obj.metadata.ownerReferences ?? []).some(ref => ref.uid === uid);
}

/** A generated password (24 URL-safe characters). */
export function randomPassword(): string {
  return crypto.randomBytes(18).toString('base64url');
}

/** A stable made-up ClusterIP in 10.96.0.0/16, so `kubectl get svc` has something to print. */
export function fakeClusterIP(namespace: string, name: string): string {
  const h = crypto.createHash('sha256').update(`${namespace}/${name}`).digest();
  return `10.96.${h[0]}.${Math.max(1, h[1] % 255)}`;
}

/** A short hash of anything JSON, for StatefulSet revisions. */
export function revisionHash(value: unknown): string {
  return crypto
    .createHash('sha256')
    .update(JSON.stringify(value ?? null))
    .digest('hex')
    .slice(0, 10);
}

const meta = (
  cr: StoredObject,
  name: string,
  labels?: Record<string, string>,
) => ({
  name,
  namespace: cr.metadata.namespace,
  ...(labels ? { labels } : {}),
  ownerReferences: [ownerReference(cr)],
});

/** The StatefulSet object (without status) for a desired set. */
export function statefulSetObject(
  cr: StoredObject,
  d: DesiredStatefulSet,
): Record<string, any> {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: meta(cr, d.name, d.labels),
    spec: {
      replicas: d.replicas,
      serviceName: d.serviceName,
      podManagementPolicy: 'OrderedReady',
      selector: { matchLabels: d.labels },
      updateStrategy: { type: 'RollingUpdate' },
      template: {
        metadata: {
          labels: d.labels,
          annotations: { 'kube-emulator/revision': d.revision },
        },
        spec: { containers: [{ name: d.container, image: d.image }] },
      },
    },
  };
}

/** StatefulSet status for emulated pods, as the StatefulSet controller reports it. */
export function statefulSetStatus(
  s: StatefulSetState,
  observedGeneration: number,
): Record<string, unknown> {
  const sameRevision = s.currentRevision === s.revision;
  return {
    observedGeneration,
    replicas: s.pods,
    readyReplicas: s.ready,
    availableReplicas: s.ready,
    currentReplicas: sameRevision ? s.pods : s.pods - s.updated,
    updatedReplicas: s.updated,
    currentRevision: `${s.name}-${s.currentRevision}`,
    updateRevision: `${s.name}-${s.revision}`,
    collisionCount: 0,
  };
}

/** The Service object for a desired service. */
export function serviceObject(
  cr: StoredObject,
  d: DesiredService,
): Record<string, any> {
  const ns = cr.metadata.namespace ?? 'default';
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta(cr, d.name, d.labels ?? d.selector),
    spec: {
      type: 'ClusterIP',
      clusterIP: d.headless ? 'None' : fakeClusterIP(ns, d.name),
      ...(d.headless ? { publishNotReadyAddresses: true } : {}),
      selector: d.selector,
      ports: d.ports.map(p => ({
        name: p.name,
        port: p.port,
        targetPort: p.port,
        protocol: 'TCP',
      })),
    },
  };
}

/** The Secret object for a desired secret, with freshly generated data (base64 encoded). */
export function secretObject(
  cr: StoredObject,
  d: DesiredSecret,
): Record<string, any> {
  const data = Object.fromEntries(
    Object.entries(d.data()).map(([k, v]) => [
      k,
      Buffer.from(v).toString('base64'),
    ]),
  );
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: meta(cr, d.name, d.labels),
    type: 'Opaque',
    data,
  };
}

/** The Deployment object for a desired deployment. */
export function deploymentObject(
  cr: StoredObject,
  d: DesiredDeployment,
): Record<string, any> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta(cr, d.name, d.labels),
    spec: {
      replicas: d.replicas,
      selector: { matchLabels: d.labels },
      template: {
        metadata: { labels: d.labels },
        spec: { containers: [{ name: 'router', image: d.image }] },
      },
    },
  };
}

/** Deployment status with every pod ready. */
export function deploymentStatus(
  replicas: number,
  observedGeneration: number,
): Record<string, unknown> {
  return {
    observedGeneration,
    replicas,
    readyReplicas: replicas,
    availableReplicas: replicas,
    updatedReplicas: replicas,
  };
}
