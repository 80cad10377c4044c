import { describe, expect, it } from '@jest/globals';
import type { DatabaseInstance, DatabasePhase } from '@internal/plugin-databases-common';
import type { ClusterSet } from '../watch/ClusterSet';
import type { WatchListener } from '../watch/types';
import { eventually } from '../__testUtils__/eventually';
import { DatabaseInstanceEntityProvider } from './DatabaseInstanceEntityProvider';

const inst = (name: string, phase: DatabasePhase = 'Ready'): DatabaseInstance => ({
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseInstance',
    metadata: { name, namespace: 'team-a', annotations: { 'dbaas.platform.dev/owner': 'group:default/team-a' } },
    spec: { engine: 'mariadb' },
    status: { phase, source: { apiVersion: 'k8s.mariadb.com/v1alpha1', kind: 'MariaDB', name, operator: 'mariadb-operator' } },
  });

/** The part of ClusterSet the provider uses, driven by hand. */
function fakeClusters(initial: DatabaseInstance[]) {
  const cache = new Map(initial.map(i => [i.metadata.name!, i]));
  let listener: WatchListener | undefined;
  const clusters = {
    start: () => undefined,
    subscribe: (l: WatchListener) => {
      listener = l;
      return () => (listener = undefined);
    },
    cachedInstances: () => [...cache.values()].map(instance => ({ cluster: 'local', instance })),
  };
  const change = (type: 'ADDED' | 'MODIFIED' | 'DELETED', i: DatabaseInstance) => {
    if (type === 'DELETED') cache.delete(i.metadata.name!);
    else cache.set(i.metadata.name!, i);
    listener?.onInstance?.({ type, cluster: 'local', instance: i });
  };
  return { clusters: clusters as unknown as ClusterSet, change };
}

const settle = () => new Promise(r => setTimeout(r, 30));

describe('DatabaseInstanceEntityProvider', () => {
  it('writes everything once, then only what changed', async () => {
    const { clusters, change } = fakeClusters([inst('a'), inst('b')]);
    const mutations: any[] = [];
    const provider = new DatabaseInstanceEntityProvider(clusters, { warn: () => undefined } as any, 5);
    await provider.connect({ applyMutation: async m => void mutations.push(m), refresh: async () => undefined });
    await settle();
    expect(mutations).toHaveLength(1);
    expect(mutations[0].type).toBe('full');
    expect(mutations[0].entities.map((e: any) => e.entity.metadata.name)).toEqual(['local-team-a-a', 'local-team-a-b']);

    change('MODIFIED', inst('a', 'Degraded'));
    change('MODIFIED', inst('a', 'Failed'));
    change('DELETED', inst('b'));
    change('ADDED', inst('c'));
    await settle();
    expect(mutations).toHaveLength(2);
    expect(mutations[1].type).toBe('delta');
    expect(mutations[1].added.map((e: any) => [e.entity.metadata.name, e.entity.metadata.labels['dbaas.platform.dev/phase']])).toEqual([
      ['local-team-a-a', 'failed'],
      ['local-team-a-c', 'ready'],
    ]);
    expect(mutations[1].removed.map((e: any) => e.entity.metadata.name)).toEqual(['local-team-a-b']);
    provider.close();
  });

  it('replaces everything again after a write failed', async () => {
    const { clusters, change } = fakeClusters([inst('a')]);
    const mutations: any[] = [];
    let fail = false;
    const provider = new DatabaseInstanceEntityProvider(clusters, { warn: () => undefined } as any, 5);
    await provider.connect({
      applyMutation: async m => {
        mutations.push(m);
        if (fail) {
          fail = false;
          throw new Error('catalog database busy');
        }
      },
      refresh: async () => undefined,
    });
    await settle();
    fail = true;
    change('ADDED', inst('b'));
    // the full write again comes from a retry timer started once the failed delta's rejection
    // has been awaited (a second hop after the debounce): waited for, not slept past
    await eventually(() => mutations.length >= 3, 5000, 'the full write after the failed delta');
    expect(mutations.map(m => m.type)).toEqual(['full', 'delta', 'full']);
    expect(mutations[2].entities).toHaveLength(2);
    provider.close();
  });
});
