import type { ObjectStore } from '../store/types';
import { RBAC_RESOURCES } from './RbacObjectIndex';
import type { RbacObject } from './types';

const RESOURCE_OF_KIND = {
  ClusterRole: RBAC_RESOURCES.clusterroles,
  Role: RBAC_RESOURCES.roles,
  ClusterRoleBinding: RBAC_RESOURCES.clusterrolebindings,
  RoleBinding: RBAC_RESOURCES.rolebindings,
} as const;

/**
 * Creates each object, or replaces the one of that name (as `kubectl apply` would end up), so
 * that re-applying a policy is harmless. Objects are validated by the store as any write is;
 * a namespaced one needs its namespace to exist.
 */
export function applyRbacObjects(
  store: ObjectStore,
  objects: readonly RbacObject[],
): void {
  for (const o of objects) {
    const key = RESOURCE_OF_KIND[o.kind as keyof typeof RESOURCE_OF_KIND];
    if (!key)
      throw new Error(`not an RBAC kind: ${o.kind} ${o.metadata?.name}`);
    const existing = store.get(key, o.metadata.namespace, o.metadata.name);
    const body = o as unknown as Record<string, unknown>;
    if (!existing) store.create(key, body);
    else
      store.update(key, {
        ...body,
        metadata: {
          ...o.metadata,
          resourceVersion: existing.metadata.resourceVersion,
        },
      });
  }
}
