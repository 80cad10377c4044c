import { describe, expect, it } from '@jest/globals';
import { LEASES, renewControlPlaneLeases } from './controlPlaneLeases';
import { MemoryObjectStore } from './MemoryObjectStore';
import type { StoreEvent } from './types';

describe('renewControlPlaneLeases', () => {
  it('holds kube-controller-manager\'s and kube-scheduler\'s leader Leases in kube-system and renews them, so the cluster\'s resourceVersion moves', async () => {
    const store = new MemoryObjectStore();
    const stop = renewControlPlaneLeases(store, 20);
    try {
      const leases = store.list(LEASES, 'kube-system');
      expect(leases.map(l => l.metadata.name).sort()).toEqual(['kube-controller-manager', 'kube-scheduler']);
      const first = leases[0] as any;
      expect(first.spec).toMatchObject({ leaseDurationSeconds: 15, leaseTransitions: 0 });
      // metav1.MicroTime: microseconds
      expect(first.spec.renewTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      const rv = store.currentRV();
      const renewals = await new Promise<StoreEvent[]>(resolve => {
        const seen: StoreEvent[] = [];
        const w = store.watch(rv, e => {
          seen.push(e);
          if (seen.length === 2) {
            w.stop();
            resolve(seen);
          }
        });
      });
      expect(renewals.map(e => `${e.type} ${e.object.metadata.name}`).sort()).toEqual(['MODIFIED kube-controller-manager', 'MODIFIED kube-scheduler']);
      expect(store.currentRV()).toBeGreaterThan(rv);
    } finally {
      stop();
    }
  });
});
