import { cacheReached } from './cacheCaughtUp';
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
  // what the apiserver writes itself (Ready-spec records, events mirrored onto instances) comes
  // after its cache saw what it answers: until a round writes nothing, at most a few rounds
  for (let round = 0; round < 10; round++) {
    const rv = system.emulator.store.currentRV();
    await cacheReached(system, rv, 20 * bookmarkMs);
    await system.apiserver.readySpecs.idle();
    await system.apiserver.events.idle();
    await cacheReached(system, system.emulator.store.currentRV(), 20 * bookmarkMs);
    if (system.emulator.store.currentRV() === rv) return;
  }
  throw new Error(`the cluster did not come to rest: at ${system.emulator.store.currentRV()}`);
}

/**
 * Whether anything was written to the cluster after resourceVersion `rv`, other than the
 * aggregator's own APIService status (kube-aggregator rewrites its Available condition on its
 * own schedule, which no request causes).
 */
export const wroteSince = (system: System, rv: number): boolean =>
  system.emulator.store.changesSince(rv).some(e => e.resource.group !== 'apiregistration.k8s.io');
