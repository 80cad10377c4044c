import { CRD_RESOURCE, NAMESPACE_RESOURCE } from './builtinResources';
import type { ResourceKey } from './types';

/** A stored object, as the store handles it (plain JSON). */
export type Obj = Record<string, any>;

/** Objects are kept per group and plural, whatever version they are read through. */
export const typeKey = (k: Pick<ResourceKey, 'group' | 'plural'>) =>
  `${k.group}/${k.plural}`;
export const objKey = (namespace: string | undefined, name: string) =>
  namespace ? `${namespace}/${name}` : name;
export const isCrd = (k: Pick<ResourceKey, 'group' | 'plural'>) =>
  k.group === CRD_RESOURCE.group && k.plural === CRD_RESOURCE.plural;
export const isNamespace = (k: Pick<ResourceKey, 'group' | 'plural'>) =>
  k.group === '' && k.plural === NAMESPACE_RESOURCE.plural;
export const groupVersion = (k: ResourceKey) =>
  k.group ? `${k.group}/${k.version}` : k.version;
/** JSON round trip: the store holds exactly what a client would see on the wire (no undefined, no Dates). */
export const jsonClone = <T>(v: T): T => JSON.parse(JSON.stringify(v));
