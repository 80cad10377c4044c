import type { StoredObject } from '../../store/types';
import type { DemoInstance, DemoPhase } from '../demoInstances';

const cond = (o: StoredObject, type: string) =>
  ((o.status as any)?.conditions ?? []).find((c: any) => c.type === type);

/** What each demo phase looks like in each operator's own dialect (and its StatefulSets). */
export function observedPhase(
  inst: DemoInstance,
  obj: StoredObject,
  sts: StoredObject[],
): DemoPhase | 'other' {
  const s = obj.status as any;
  const allReady =
    sts.length > 0 &&
    sts.every(
      x => (x.status as any)?.readyReplicas === (x.spec as any).replicas,
    );
  if (!s && sts.length === 0) return 'Pending';
  switch (inst.kind.kind) {
    case 'MariaDB':
      if (cond(obj, 'Ready')?.status === 'True') return 'Ready';
      if (cond(obj, 'Ready')?.reason === 'Failed') return 'Failed';
      if (cond(obj, 'GaleraReady')?.status === 'False' && s.galeraRecovery)
        return 'Degraded';
      return 'other';
    case 'InnoDBCluster':
      return s?.cluster?.status === 'ONLINE' && allReady ? 'Ready' : 'other';
    case 'Elasticsearch':
      if (s?.phase === 'Ready' && s.health === 'green') return 'Ready';
      return s?.phase === 'ApplyingChanges' ? 'Provisioning' : 'other';
    case 'RabbitmqCluster':
      return s?.conditions?.every((c: any) => c.status === 'True')
        ? 'Ready'
        : 'other';
    case 'Cluster': // CloudNativePG
      return s?.phase === 'Cluster in healthy state' &&
        s.readyInstances === (obj.spec as any).instances
        ? 'Ready'
        : 'other';
    case 'RedisCluster':
      return s?.state === 'Ready' && allReady ? 'Ready' : 'other';
    default:
      return allReady ? 'Ready' : 'other';
  }
}
