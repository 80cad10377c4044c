import { cacheCaughtUp, cacheReached } from './cacheCaughtUp';
import type { System } from './startSystem';

/**
 * Lets the emulated operators settle and pauses them, then waits until the apiserver's cache has
 * seen it all and the apiserver has written what it writes of its own accord (the Ready specs
 * it records): from here on only requests change the cluster. `bookmarkMs` is the emulator's
 * bookmark interval (what bounds the cache's progress on an idle cluster).
 */
export async function quiesce(system: System, bookmarkMs: number): Promise<void> {
  system.emulator.operators.settle();
  system.emulator.operators.pause();
  // what the apiserver writes itself (Ready-spec records, events mirrored onto instances, binding
  // Secrets) comes after its cache saw what it answers: until a round writes nothing, at most a
  // few rounds
  for (let round = 0; round < 10; round++) {
    const rv = system.emulator.store.currentRV();
    await cacheReached(system, rv, 20 * bookmarkMs);
    await system.apiserver.readySpecs.idle();
    await system.apiserver.events.idle();
    await system.apiserver.bindings.idle();
    await cacheReached(system, system.emulator.store.currentRV(), 20 * bookmarkMs);
    if (requestWrites(system, rv).length === 0) return;
  }
  throw new Error(`the cluster did not come to rest: at ${system.emulator.store.currentRV()}`);
}

/**
 * After an accepted write of the instance `namespace/name` (a body that names one): waits until
 * the apiserver's cache has it as the cluster does (or no longer serves it), then for what the
 * apiserver writes of its own accord because of it (its binding Secret, a Ready-spec record), so
 * that a next case starts from a cluster at rest. A body that names no instance waits for nothing.
 */
export async function settleAfterWrite(system: System, written: { metadata?: { namespace?: string; name?: string } } | undefined): Promise<void> {
  const { namespace, name } = written?.metadata ?? {};
  if (namespace && name) await cacheCaughtUp(system, namespace, name);
  await system.apiserver.readySpecs.idle();
  await system.apiserver.bindings.idle();
}

/**
 * The changes after resourceVersion `rv` other than the control plane's own, which no request
 * causes: the aggregator's APIService status (kube-aggregator rewrites its Available condition on
 * its own schedule) and the leader Leases kube-controller-manager and kube-scheduler renew.
 */
function requestWrites(system: System, rv: number) {
  return system.emulator.store.changesSince(rv).filter(e => e.resource.group !== 'apiregistration.k8s.io' && e.resource.group !== 'coordination.k8s.io');
}

/**
 * What was written to the cluster after resourceVersion `rv` (undefined: nothing), other than the
 * control plane's own writes (requestWrites). Says each change, so a failure names the writer.
 */
export function wroteSince(system: System, rv: number): string | undefined {
  const writes = requestWrites(system, rv);
  if (writes.length === 0) return undefined;
  return writes
    .slice(0, 10)
    .map(e => {
      const { namespace, name } = e.object.metadata;
      const fields = (e.object.metadata as { managedFields?: Array<{ manager?: string; time?: string }> }).managedFields ?? [];
      const latest = fields.reduce<{ manager?: string; time?: string } | undefined>((a, f) => (!a || (f.time ?? '') >= (a.time ?? '') ? f : a), undefined);
      return `${e.type} ${e.resource.plural} ${namespace ? `${namespace}/` : ''}${name}@${e.rv}${latest?.manager ? ` (latest manager ${latest.manager})` : ''}`;
    })
    .join('; ');
}
