import type { StoredObject } from '../store/types';
import type { StoreWrites } from './StoreWrites';
import type { CustomKind, EmulatedOperator, Observation } from './types';
import { deletingObservation, type World } from './world';

/**
 * One round of an operator finalizing an object being deleted: nothing where it put no
 * finalizer; else one round in which the object visibly is being deleted (its status says so),
 * then what it created is deleted and its finalizer removed. `gone`: the world is done with.
 */
export function finalizeObject(
  op: EmulatedOperator,
  kind: CustomKind,
  cr: StoredObject,
  world: World,
  deps: { writes: StoreWrites; now: string; writeStatus(obs: Observation): number },
): { changes: number; gone: boolean } {
  const finalizer = op.finalizer?.(kind);
  if (!finalizer || !(cr.metadata.finalizers ?? []).includes(finalizer)) return { changes: 0, gone: false };
  if (!world.deletingSeen) {
    world.deletingSeen = true;
    return { changes: 1 + deps.writeStatus(deletingObservation(cr, world, deps.now)), gone: false };
  }
  const changes = deps.writes.deleteDependents(world.namespace, world.uid);
  deps.writes.updateMain(kind, cr, obj => {
    obj.metadata.finalizers = (obj.metadata.finalizers ?? []).filter(f => f !== finalizer);
  });
  return { changes: changes + 1, gone: true };
}
