import type { DatabaseInstance } from '@internal/plugin-databases-common';
import type { ResourceType } from '../adapters/types';
import { resourceName } from '../kube/resourcePath';
import { rvToBigInt } from './resourceVersion';

type TypeIdentity = Pick<ResourceType, 'group' | 'plural' | 'labelSelector'>;

/** `plural.group` of a type (`?selector` after it for a selected type): the key of its informer. */
export const typeKey = (t: TypeIdentity) =>
  t.labelSelector ? `${resourceName(t)}?${t.labelSelector}` : resourceName(t);
/** `plural.group|namespace/name`: the key of one watched object. */
export const objectKey = (
  t: TypeIdentity,
  ns: string,
  name: string,
) => `${typeKey(t)}|${ns}/${name}`;
/** `namespace/name`: the key of a name that objects of several kinds can claim. */
export const claimKey = (ns: string, name: string) => `${ns}/${name}`;

export function compareRv(a: string, b: string): number {
  const d = rvToBigInt(a) - rvToBigInt(b);
  if (d === 0n) {
    return 0;
  }
  return d < 0n ? -1 : 1;
}

export function splitOnce(s: string, sep: string): [string, string] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, ''] : [s.slice(0, i), s.slice(i + 1)];
}

export function withRv(instance: DatabaseInstance, rv: string): DatabaseInstance {
  return {
    ...instance,
    metadata: { ...instance.metadata, resourceVersion: rv },
  };
}
