import { describe, expect, it } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import { useBareEmulator } from '../kube/__testUtils__/useBareEmulator';
import { kubePolicyReader } from './kubePolicyReader';
import { kubePolicyConfigMapWatch } from './PolicyConfigMapWatch';
import { PolicySource } from './PolicySource';
import type { Policy } from './types';

const CONFIGMAPS = { group: '', version: 'v1', plural: 'configmaps' };
const policyText = (name: string) => `rules:\n  - name: ${name}\n    namespaces: [team-a]\n    max:\n      replicasPerInstance: 3\n`;

describe('the policy ConfigMap watched (kube emulator, the chart\'s RBAC, as the apiserver\'s service account)', () => {
  const bare = useBareEmulator();

  it('applies a created, changed and deleted policy when the watch tells it, with no periodic re-read; other ConfigMaps are not its business', async () => {
    // as the apiserver: its Role reads ConfigMaps of the policy namespace only
    const kc = new KubeConfig();
    kc.loadFromString(bare.emulator.kubeconfig({ token: 'dbaas-apiserver-token' }));
    let reads = 0;
    const read = kubePolicyReader(kc, 'dbaas-system', 'dbaas-policy');
    const source = new PolicySource({
      read: () => {
        reads++;
        return read();
      },
      configMap: 'dbaas-system/dbaas-policy',
      refreshIntervalMs: 3_600_000,
    });
    const changes: Policy[] = [];
    const waiters: Array<() => void> = [];
    source.onChange(p => {
      changes.push(p);
      waiters.splice(0).forEach(w => w());
    });
    const nextChange = () => new Promise<void>(resolve => waiters.push(resolve));
    await source.start();
    expect(source.current()?.rules).toEqual([]);
    const watch = kubePolicyConfigMapWatch(kc, 'dbaas-system', 'dbaas-policy', () => void source.refresh());
    try {
      let changed = nextChange();
      watch.start();
      bare.emulator.store.create(CONFIGMAPS, { metadata: { name: 'dbaas-policy', namespace: 'dbaas-system' }, data: { 'policy.yaml': policyText('first') } });
      await changed;
      expect(source.current()?.rules.map(r => r.name)).toEqual(['first']);

      const readsBefore = reads;
      bare.emulator.store.create(CONFIGMAPS, { metadata: { name: 'unrelated', namespace: 'dbaas-system' }, data: { x: '1' } });
      changed = nextChange();
      const cm = bare.emulator.store.get(CONFIGMAPS, 'dbaas-system', 'dbaas-policy')!;
      bare.emulator.store.update(CONFIGMAPS, { ...cm, data: { 'policy.yaml': policyText('second') } } as any);
      await changed;
      expect(source.current()?.rules.map(r => r.name)).toEqual(['second']);
      // one read for the change; the other ConfigMap made none
      expect(reads - readsBefore).toBe(1);

      changed = nextChange();
      bare.emulator.store.delete(CONFIGMAPS, 'dbaas-system', 'dbaas-policy');
      await changed;
      expect(source.current()?.rules).toEqual([]);
      expect(source.problems()).toEqual([]);
    } finally {
      watch.stop();
      source.stop();
    }
  });
});
