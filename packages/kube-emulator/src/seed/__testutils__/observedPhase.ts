import type { StoredObject } from '../../store/types';
import { ALL_OPERATORS } from '../../operators/allOperators';
import type { DemoInstance, DemoPhase } from '../demoInstances';

/** What each demo phase looks like in its operator's own dialect (and its StatefulSets). */
export function observedPhase(
  inst: DemoInstance,
  obj: StoredObject,
  sts: StoredObject[],
): DemoPhase | 'other' {
  const allReady =
    sts.length > 0 &&
    sts.every(
      x => (x.status as any)?.readyReplicas === (x.spec as any).replicas,
    );
  if (!obj.status && sts.length === 0) return 'Pending';
  const operator = ALL_OPERATORS.find(o => o.kinds.includes(inst.kind));
  if (!operator?.demo)
    throw new Error(`no emulated operator owns ${inst.kind.kind}`);
  return operator.demo.observedPhase(obj, { allReady });
}
