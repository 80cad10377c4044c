import { waitForStore } from '@internal/databases-apiserver';
import type { System } from './startSystem';

/**
 * The resourceVersion of the operator object behind `namespace/name` as the emulator holds it
 * now, and as the apiserver serves it: equal once the apiserver's watch cache has caught up.
 * `undefined` where that side has no such object.
 */
export function sourceVersions(
  system: System,
  namespace: string,
  name: string,
): { cluster?: string; cached?: string; served?: string } {
  const source = system.apiserver.store.source(namespace, name);
  const served = system.apiserver.store.get(namespace, name)?.metadata.resourceVersion;
  if (!source) return { served };
  const { group, version, plural } = source.kind;
  const objectName = source.object.metadata?.name ?? name;
  const inCluster = system.emulator.store.resource({ group, version, plural })
    ? system.emulator.store.get({ group, version, plural }, namespace, objectName)
    : undefined;
  return {
    cluster: inCluster?.metadata.resourceVersion,
    cached: source.object.metadata?.resourceVersion,
    served,
  };
}

function servesCurrent(system: System, namespace: string, name: string): boolean {
  const v = sourceVersions(system, namespace, name);
  // nothing served: nothing to catch up with (the request will be a 404, as it should)
  if (v.cached === undefined) return true;
  // served, but gone from the cluster: wait for the DELETED event
  if (v.cluster === undefined) return false;
  // the served instance was built from the object as the cluster holds it (its own RV can be
  // older: a change only the apiserver's record of the Ready spec made is not served)
  return v.cached === v.cluster && v.served !== undefined && system.apiserver.store.builtFromRv(namespace, name) === v.cluster;
}

/**
 * Resolves once the apiserver serves `namespace/name` from the operator object the emulator
 * holds now (or serves it no longer, when the object is gone): every write made so far has come
 * through the apiserver's watch. A write's answer can come before that (the apiserver waits for
 * its cache at most `cacheWaitMs`, then answers from the written object), so a test that reads
 * the served instance to write it back waits here first. Waits on the apiserver store's applied
 * changes (a source object can change without an instance event); returns whether it had to wait.
 *
 * The bound: one watch event on loopback, which takes milliseconds; 10 s is five times the
 * apiserver's own cache wait, so only a broken watch reaches it.
 */
export async function cacheCaughtUp(system: System, namespace: string, name: string, timeoutMs = 10_000): Promise<boolean> {
  if (servesCurrent(system, namespace, name)) return false;
  const store = system.apiserver.store;
  if (!(await waitForStore(listener => store.onApplied(listener), () => servesCurrent(system, namespace, name), timeoutMs))) {
    throw new Error(`the apiserver's cache did not catch up with ${namespace}/${name} within ${timeoutMs} ms: ${JSON.stringify(sourceVersions(system, namespace, name))}`);
  }
  return true;
}

/**
 * Resolves once the apiserver's watch cache has delivered every change up to the cluster
 * resourceVersion `rv` (its list resourceVersion reaches it, and it holds no late change back
 * to go out with a newer RV, which may change what it serves a second later). Its informers make progress with
 * each event and each watch BOOKMARK, which carries the cluster's current RV: so the bound is
 * the emulator's bookmark interval (`bookmarkIntervalMs`), and `timeoutMs` should be a few of
 * them. Checked after every change the store applies (`onApplied`), progress alone included.
 */
export async function cacheReached(system: System, rv: number, timeoutMs: number): Promise<void> {
  const store = system.apiserver.store;
  // late changes held back (LateChanges) are changes up to `rv` not applied yet
  const reached = () => BigInt(store.resourceVersion() || '0') >= BigInt(rv) && !store.holdsChanges?.();
  if (!(await waitForStore(listener => store.onApplied(listener), reached, timeoutMs))) {
    throw new Error(`the apiserver's cache did not reach resourceVersion ${rv} within ${timeoutMs} ms (at ${store.resourceVersion()})`);
  }
}
