import type { MemoryObjectStore } from './MemoryObjectStore';
import type { ResourceKey } from './types';

export const LEASES: ResourceKey = { group: 'coordination.k8s.io', version: 'v1', plural: 'leases' };

/** Leader election's default lease duration (client-go leaderelection, component-base). */
const LEASE_DURATION_SECONDS = 15;

/** A Lease's MicroTime: RFC 3339 with microseconds, as kube-apiserver serializes metav1.MicroTime. */
const microTime = (d: Date) => d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

/**
 * The control plane's leader leases in kube-system, renewed as kube-controller-manager and
 * kube-scheduler renew theirs (leader election's 2 s retry period): a real cluster's
 * resourceVersion never stands still for long, and what waits for it to move (watch bookmarks,
 * the apiserver's late changes) must see it move here too. Returns the stop.
 */
export function renewControlPlaneLeases(store: MemoryObjectStore, intervalMs: number, now: () => Date = () => new Date()): () => void {
  const holders = ['kube-controller-manager', 'kube-scheduler'].map(name => ({ name, identity: `emulator-control-plane_${name}` }));
  const acquired = microTime(now());
  const renew = () => {
    const renewTime = microTime(now());
    for (const { name, identity } of holders) {
      const existing = store.get(LEASES, 'kube-system', name);
      const spec = { holderIdentity: identity, leaseDurationSeconds: LEASE_DURATION_SECONDS, acquireTime: acquired, renewTime, leaseTransitions: 0 };
      if (existing) store.update(LEASES, { ...existing, spec });
      else store.create(LEASES, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace: 'kube-system' }, spec });
    }
  };
  renew();
  const timer = setInterval(renew, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
