import { groupVersion, objKey } from './storeKeys';
import type { ResourceDefinition, StoredObject } from './types';

/** Objects are stored once per group/plural; reading through another version only changes apiVersion (conversion "None"). */
export function asVersion(obj: StoredObject, def: ResourceDefinition): StoredObject {
  const copy = structuredClone(obj);
  copy.apiVersion = groupVersion(def);
  return copy;
}

/** The objects of `namespace` (all of them without one), by namespace and name, as stored. */
export function sortedIn(objects: StoredObject[], def: ResourceDefinition, namespace: string | undefined): StoredObject[] {
  return objects
    .filter(o => !namespace || !def.namespaced || o.metadata.namespace === namespace)
    .sort((a, b) => objKey(a.metadata.namespace, a.metadata.name).localeCompare(objKey(b.metadata.namespace, b.metadata.name)));
}

/** The objects of `namespace` (all of them without one), by namespace and name, as read through `def`. */
export function sortedAs(objects: StoredObject[], def: ResourceDefinition, namespace: string | undefined): StoredObject[] {
  return sortedIn(objects, def, namespace).map(o => asVersion(o, def));
}
