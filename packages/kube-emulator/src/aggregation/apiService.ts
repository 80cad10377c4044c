import type { ResourceKey, StoredObject } from '../store/types';

/** `apiregistration.k8s.io/v1` `apiservices` in the object store. */
export const APISERVICES: ResourceKey = {
  group: 'apiregistration.k8s.io',
  version: 'v1',
  plural: 'apiservices',
};
/** Core `v1` `services` in the object store. */
export const SERVICES: ResourceKey = {
  group: '',
  version: 'v1',
  plural: 'services',
};

/** One `status.conditions[]` entry of an APIService. */
export interface APIServiceCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason: string;
  message: string;
}

/** The fields of an APIService the aggregation layer reads. */
export interface APIServiceSpec {
  group?: string;
  version?: string;
  groupPriorityMinimum?: number;
  versionPriority?: number;
  service?: { namespace?: string; name?: string; port?: number } | null;
  caBundle?: string;
  insecureSkipTLSVerify?: boolean;
}

/** The spec of a stored APIService (empty when malformed). */
export function apiServiceSpec(obj: StoredObject | undefined): APIServiceSpec {
  const spec = obj?.spec;
  return typeof spec === 'object' && spec !== null
    ? (spec as APIServiceSpec)
    : {};
}

/** The Available condition of a stored APIService, if any. */
export function availableCondition(
  obj: StoredObject | undefined,
): APIServiceCondition | undefined {
  const conditions = (
    obj?.status as { conditions?: APIServiceCondition[] } | undefined
  )?.conditions;
  return Array.isArray(conditions)
    ? conditions.find(c => c?.type === 'Available')
    : undefined;
}

/** `<version>.<group>`, the only valid APIService name. */
export function apiServiceName(group: string, version: string): string {
  return `${version}.${group}`;
}
