import { describe, expect, it } from '@jest/globals';
import { clusterResourceVersion } from './clusterResourceVersion';
import { useBareEmulator } from './__testUtils__/useBareEmulator';

const CONFIGMAPS = { group: '', version: 'v1', plural: 'configmaps' };

describe('clusterResourceVersion against the kube emulator', () => {
  const bare = useBareEmulator();

  it('reads the RV of the last write anywhere in the cluster, with no object in the answer', async () => {
    const read = clusterResourceVersion(bare.kc);
    const before = await read();
    expect(before).toBe(String(bare.emulator.store.currentRV()));
    // a write of a kind the apiserver never watches moves it too (etcd's revision is global)
    bare.emulator.store.create(CONFIGMAPS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'moves-rv', namespace: 'default' } });
    const after = await read();
    expect(BigInt(after!)).toBeGreaterThan(BigInt(before!));
    expect(after).toBe(String(bare.emulator.store.currentRV()));
  });
});
