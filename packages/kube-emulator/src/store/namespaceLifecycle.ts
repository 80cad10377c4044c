import { NAMESPACE_RESOURCE } from './builtinResources';
import type { ResourceTypes, TypeState } from './ResourceTypes';
import { namespaceTerminatingError, notFoundError } from './storeErrors';
import type { ResourceDefinition, StoredObject } from './types';

/** NamespaceLifecycle admission: a namespaced object needs its namespace, and not a terminating one. */
export function admitToNamespace(types: ResourceTypes, def: ResourceDefinition, name: string, namespace: string): void {
  const ns = types.state(NAMESPACE_RESOURCE)?.objects.get(namespace);
  if (!ns) throw notFoundError(NAMESPACE_RESOURCE, namespace);
  if (ns.metadata.deletionTimestamp) throw namespaceTerminatingError(def, name, namespace);
}

/**
 * Namespace controller: the objects of a terminating namespace to delete, one at a time (lazily:
 * a delete may change what is left, and a type may go away meanwhile).
 */
export function* objectsToDrain(types: ResourceTypes, namespace: string): Generator<{ def: ResourceDefinition; name: string }> {
  for (const [tk, state] of types.entries()) {
    const def = [...state.versions.values()][0];
    if (!def?.namespaced) continue;
    for (const obj of [...state.objects.values()]) {
      if (obj.metadata.namespace !== namespace || obj.metadata.deletionTimestamp) continue;
      if (!types.has(tk)) break;
      yield { def, name: obj.metadata.name };
    }
  }
}

/** The namespace, when it is terminating and holds nothing any more (the controller then removes it). */
export function emptiedNamespace(types: ResourceTypes, namespace: string): { state: TypeState; ns: StoredObject } | undefined {
  const state = types.state(NAMESPACE_RESOURCE);
  const ns = state?.objects.get(namespace);
  if (!state || !ns?.metadata.deletionTimestamp || types.inUse(namespace)) return undefined;
  return { state, ns };
}
