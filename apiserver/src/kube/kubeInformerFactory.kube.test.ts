import { describe, expect, it } from '@jest/globals';
import type { KubeObject, ResourceType } from '../adapters/types';
import type { ResourceInformer } from '../cache/ResourceInformer';
import { kubeInformerFactory } from './kubeInformerFactory';
import { LIST_PAGE_SIZE } from './listAllPages';
import { useBareEmulator } from './__testUtils__/useBareEmulator';

const CONFIGMAPS = { group: '', version: 'v1', plural: 'configmaps' };

describe('kubeInformerFactory against the kube emulator', () => {
  const bare = useBareEmulator(emulator => {
    for (let i = 0; i < 2 * LIST_PAGE_SIZE + 100; i++)
      emulator.store.create(CONFIGMAPS, {
        metadata: { name: `cm-${i}`, namespace: 'default', labels: i % 3 === 0 ? { member: 'yes' } : { member: 'no' } },
        data: { big: 'x'.repeat(100) },
      });
  });

  it('lists in pages and watches only the objects of its label selector, each kept as its type slims it', async () => {
    const type: ResourceType = {
      ...CONFIGMAPS,
      kind: 'ConfigMap',
      labelSelector: 'member=yes',
      slim: (o: KubeObject) => ({ metadata: { name: o.metadata?.name, namespace: o.metadata?.namespace, resourceVersion: o.metadata?.resourceVersion } }),
    };
    let listedAt: string | undefined;
    let onListed!: () => void;
    const listed = new Promise<void>(resolve => (onListed = resolve));
    const informer: ResourceInformer = kubeInformerFactory(bare.kc)(type, {
      onListed: rv => {
        listedAt = rv;
        onListed();
      },
    });
    const added: string[] = [];
    let sawLate!: () => void;
    const late = new Promise<void>(resolve => (sawLate = resolve));
    informer.on('add', o => {
      added.push(o.metadata?.name ?? '');
      if (o.metadata?.name === 'late-yes') sawLate();
    });
    await informer.start();
    await listed;
    try {
      const expected = Array.from({ length: 2 * LIST_PAGE_SIZE + 100 }, (_, i) => i).filter(i => i % 3 === 0).length;
      expect(informer.list()).toHaveLength(expected);
      expect(informer.list().every(o => o.metadata?.labels === undefined && (o as any).data === undefined)).toBe(true);
      // one snapshot: the first page's resourceVersion, the store's as nothing changed since
      expect(listedAt).toBe(String(bare.emulator.store.currentRV()));
      bare.emulator.store.create(CONFIGMAPS, { metadata: { name: 'late-no', namespace: 'default', labels: { member: 'no' } } });
      bare.emulator.store.create(CONFIGMAPS, { metadata: { name: 'late-yes', namespace: 'default', labels: { member: 'yes' } } });
      // created after late-no: once it arrives, late-no would have arrived before it
      await late;
      expect(added).not.toContain('late-no');
      expect(informer.get('late-no', 'default')).toBeUndefined();
    } finally {
      await informer.stop();
    }
  });
});
