import type { OperatorDemo } from '../types';

const esNodeSet = (name: string, count: number, size: string) => ({
  name,
  count,
  config: { 'node.store.allow_mmap': false },
  volumeClaimTemplates: [
    {
      metadata: { name: 'elasticsearch-data' },
      spec: {
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: size } },
      },
    },
  ],
});

/** The demo's objects of this operator, and how its dialect says each reached its demo phase. */
export const eckDemo: OperatorDemo = {
  instances: [
    {
      kind: 'Elasticsearch',
      namespace: 'team-b',
      name: 'search',
      component: 'search',
      phase: 'Ready',
      mode: 'ready',
      spec: { version: '9.4.3', nodeSets: [esNodeSet('default', 3, '10Gi')] },
    },
    {
      kind: 'Elasticsearch',
      namespace: 'team-b',
      name: 'search-logs',
      component: 'search',
      phase: 'Provisioning',
      mode: 'provisioning',
      // the last node of each node set waits for a volume nothing provisions
      fault: 'volume-pending',
      spec: {
        version: '9.4.3',
        nodeSets: [
          esNodeSet('masters', 3, '2Gi'),
          esNodeSet('data', 2, '50Gi'),
        ],
      },
    },
  ],
  observedPhase(obj) {
    const s = obj.status as any;
    if (s?.phase === 'Ready' && s.health === 'green') return 'Ready';
    return s?.phase === 'ApplyingChanges' ? 'Provisioning' : 'other';
  },
};
