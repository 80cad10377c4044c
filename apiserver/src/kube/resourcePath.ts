import type { ResourceType } from '../adapters/types';

/**
 * The collection path of a resource type, across all namespaces or in one namespace:
 * `/api/v1/pods`, `/apis/apps/v1/namespaces/ns/statefulsets`.
 */
export function resourcePath(type: ResourceType, namespace?: string): string {
  const root = type.group
    ? `/apis/${type.group}/${type.version}`
    : `/api/${type.version}`;
  const ns = namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${root}${ns}/${type.plural}`;
}

/** `plural.group` (`statefulsets.apps`, `pods` for core): the name a CRD for this type carries. */
export function resourceName(
  type: Pick<ResourceType, 'group' | 'plural'>,
): string {
  return type.group ? `${type.plural}.${type.group}` : type.plural;
}
