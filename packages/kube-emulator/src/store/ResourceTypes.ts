import { crdDefinitions } from './crdDefinitions';
import { typeKey, type Obj } from './storeKeys';
import { type ResourceDefinition, type ResourceKey, StoreError, type StoredObject } from './types';

/** The objects of one group and plural, and the versions it is served at. */
export interface TypeState {
  versions: Map<string, ResourceDefinition>;
  objects: Map<string, StoredObject>;
}

/** A dropped type: its objects, and a definition to announce their deletion with. */
export interface DroppedType {
  def: ResourceDefinition;
  objects: StoredObject[];
}

/**
 * The served resource types and their objects, as kube-apiserver's storage holds them per group
 * and resource (every version reads the same objects), with the CRD controller's part: serving
 * exactly the versions a CustomResourceDefinition lists.
 */
export class ResourceTypes {
  private readonly types = new Map<string, TypeState>();

  define(def: ResourceDefinition): void {
    let state = this.types.get(typeKey(def));
    if (!state) {
      state = { versions: new Map(), objects: new Map() };
      this.types.set(typeKey(def), state);
    }
    state.versions.set(def.version, { ...def });
  }

  /** Stops serving one version; the type is dropped when no version is left. */
  removeVersion(key: ResourceKey): DroppedType | undefined {
    const state = this.types.get(typeKey(key));
    if (!state) return undefined;
    state.versions.delete(key.version);
    return state.versions.size === 0 ? this.drop(key) : undefined;
  }

  definition(key: ResourceKey): ResourceDefinition | undefined {
    const def = this.types.get(typeKey(key))?.versions.get(key.version);
    return def ? { ...def } : undefined;
  }

  definitions(): ResourceDefinition[] {
    return [...this.types.values()].flatMap(s => [...s.versions.values()].map(d => ({ ...d })));
  }

  /** The state of a served version, or kube-apiserver's 404 for an unknown resource. */
  resolve(key: ResourceKey): { def: ResourceDefinition; state: TypeState } {
    const state = this.types.get(typeKey(key));
    const def = state?.versions.get(key.version);
    if (!state || !def) throw new StoreError(404, 'NotFound', 'the server could not find the requested resource');
    return { def, state };
  }

  /** The state of a type, whatever version, if served. */
  state(key: Pick<ResourceKey, 'group' | 'plural'>): TypeState | undefined {
    return this.types.get(typeKey(key));
  }

  /** Every type's key and state, live: a type dropped while walking is skipped, as a Map's iteration does. */
  entries(): IterableIterator<[string, TypeState]> {
    return this.types.entries();
  }

  has(key: string): boolean {
    return this.types.has(key);
  }

  /** Whether any object is in `namespace`. */
  inUse(namespace: string): boolean {
    for (const state of this.types.values()) {
      for (const obj of state.objects.values()) if (obj.metadata.namespace === namespace) return true;
    }
    return false;
  }

  /** CRD controller: serve the CRD's versions, stop serving versions it no longer lists. */
  applyCrd(crd: Obj): void {
    const { definitions } = crdDefinitions(crd);
    if (definitions.length === 0) return;
    const state = this.types.get(typeKey(definitions[0]));
    const served = new Set(definitions.map(d => d.version));
    for (const version of [...(state?.versions.keys() ?? [])]) {
      if (!served.has(version)) state!.versions.delete(version);
    }
    for (const def of definitions) this.define(def);
  }

  /** CRD controller on a CRD's removal: its type goes, with its objects. */
  unapplyCrd(crd: Obj): DroppedType | undefined {
    const group = crd.spec?.group;
    const plural = crd.spec?.names?.plural;
    return typeof group === 'string' && typeof plural === 'string' ? this.drop({ group, plural }) : undefined;
  }

  private drop(key: Pick<ResourceKey, 'group' | 'plural'>): DroppedType | undefined {
    const state = this.types.get(typeKey(key));
    if (!state) return undefined;
    this.types.delete(typeKey(key));
    const def = [...state.versions.values()][0] ?? {
      ...key,
      version: '',
      kind: '',
      listKind: '',
      singular: '',
      namespaced: true,
      statusSubresource: false,
    };
    return { def, objects: [...state.objects.values()] };
  }
}
