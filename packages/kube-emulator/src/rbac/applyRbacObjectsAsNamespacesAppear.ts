import type { ObjectStore } from '../store/types';
import { applyRbacObjects } from './applyRbacObjects';
import type { RbacObject } from './types';

const namespaceOf = (o: RbacObject) => o.metadata.namespace;

/**
 * Applies the cluster-scoped objects and those whose namespace exists now, and every other one
 * as soon as its namespace is created (again after a delete and re-create), as a namespace
 * onboarding controller gives a team its RoleBindings. The demo's team namespaces come from the
 * seed or from a test, after the emulator started. Returns the watch to stop.
 */
export function applyRbacObjectsAsNamespacesAppear(
  store: ObjectStore,
  objects: readonly RbacObject[],
): { stop(): void } {
  const exists = (ns: string) =>
    !!store.get(
      { group: '', version: 'v1', plural: 'namespaces' },
      undefined,
      ns,
    );
  applyRbacObjects(
    store,
    objects.filter(o => !namespaceOf(o) || exists(namespaceOf(o)!)),
  );
  return store.watch(store.currentRV(), ev => {
    if (
      ev.type !== 'ADDED' ||
      ev.resource.group !== '' ||
      ev.resource.plural !== 'namespaces'
    )
      return;
    const ns = ev.object.metadata.name;
    applyRbacObjects(
      store,
      objects.filter(o => namespaceOf(o) === ns),
    );
  });
}
