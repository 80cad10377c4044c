import type { ObjectStore, ResourceKey, StoreEvent } from '../store/types';
import {
  RBAC_GROUP,
  type ClusterRole,
  type ClusterRoleBinding,
  type RbacObject,
  type RbacObjectSource,
  type Role,
  type RoleBinding,
} from './types';

type Plural = 'clusterroles' | 'roles' | 'clusterrolebindings' | 'rolebindings';

const KIND_PLURALS: Record<string, Plural> = {
  ClusterRole: 'clusterroles',
  Role: 'roles',
  ClusterRoleBinding: 'clusterrolebindings',
  RoleBinding: 'rolebindings',
};

/** The four RBAC resources as the store knows them. */
export const RBAC_RESOURCES: Record<Plural, ResourceKey> = {
  clusterroles: { group: RBAC_GROUP, version: 'v1', plural: 'clusterroles' },
  roles: { group: RBAC_GROUP, version: 'v1', plural: 'roles' },
  clusterrolebindings: {
    group: RBAC_GROUP,
    version: 'v1',
    plural: 'clusterrolebindings',
  },
  rolebindings: { group: RBAC_GROUP, version: 'v1', plural: 'rolebindings' },
};

const key = (namespace: string | undefined, name: string) =>
  `${namespace ?? ''}/${name}`;

/**
 * RBAC objects by kind, namespace and name: what the authorizer reads on every request, so that
 * it never lists (and copies) the store. Kept current by the store's watch, as kube-apiserver's
 * RBAC authorizer reads informer caches; the store delivers events synchronously, so a binding
 * written by a test applies to the very next request.
 */
export class RbacObjectIndex implements RbacObjectSource {
  private readonly objects: Record<Plural, Map<string, RbacObject>> = {
    clusterroles: new Map(),
    roles: new Map(),
    clusterrolebindings: new Map(),
    rolebindings: new Map(),
  };
  private clusterBindingList: ClusterRoleBinding[] | undefined;
  private readonly bindingLists = new Map<string, RoleBinding[]>();
  private stopWatch: (() => void) | undefined;

  /** An index of a fixed set of objects (unit tests, the static auth-file policy). */
  static of(objects: readonly RbacObject[]): RbacObjectIndex {
    const index = new RbacObjectIndex();
    for (const o of objects) {
      const plural = o.kind ? KIND_PLURALS[o.kind] : undefined;
      if (!plural) throw new Error(`not an RBAC kind: ${o.kind}`);
      index.put(plural, o);
    }
    return index;
  }

  /** An index of the store's RBAC objects that follows every later change until {@link stop}. */
  static watching(store: ObjectStore): RbacObjectIndex {
    const index = new RbacObjectIndex();
    for (const plural of Object.keys(RBAC_RESOURCES) as Plural[]) {
      for (const o of store.list(RBAC_RESOURCES[plural]))
        index.put(plural, o as unknown as RbacObject);
    }
    // list and watch in one synchronous step: nothing can be written in between
    const watch = store.watch(store.currentRV(), ev => index.apply(ev));
    index.stopWatch = () => watch.stop();
    return index;
  }

  stop(): void {
    this.stopWatch?.();
  }

  clusterRoleBindings(): readonly ClusterRoleBinding[] {
    this.clusterBindingList ??= this.sorted(
      'clusterrolebindings',
    ) as ClusterRoleBinding[];
    return this.clusterBindingList;
  }

  roleBindings(namespace: string): readonly RoleBinding[] {
    let list = this.bindingLists.get(namespace);
    if (!list) {
      list = (this.sorted('rolebindings') as RoleBinding[]).filter(
        b => b.metadata.namespace === namespace,
      );
      this.bindingLists.set(namespace, list);
    }
    return list;
  }

  clusterRole(name: string): ClusterRole | undefined {
    return this.objects.clusterroles.get(key(undefined, name)) as
      ClusterRole | undefined;
  }

  role(namespace: string, name: string): Role | undefined {
    return this.objects.roles.get(key(namespace, name)) as Role | undefined;
  }

  private apply(ev: StoreEvent): void {
    if (ev.resource.group !== RBAC_GROUP) return;
    const plural = ev.resource.plural as Plural;
    if (!(plural in this.objects)) return;
    const object = ev.object as unknown as RbacObject;
    if (ev.type === 'DELETED') this.remove(plural, object);
    else this.put(plural, object);
  }

  private put(plural: Plural, o: RbacObject): void {
    this.objects[plural].set(key(o.metadata.namespace, o.metadata.name), o);
    this.invalidate(plural);
  }

  private remove(plural: Plural, o: RbacObject): void {
    this.objects[plural].delete(key(o.metadata.namespace, o.metadata.name));
    this.invalidate(plural);
  }

  private invalidate(plural: Plural): void {
    if (plural === 'clusterrolebindings') this.clusterBindingList = undefined;
    if (plural === 'rolebindings') this.bindingLists.clear();
  }

  private sorted(plural: Plural): RbacObject[] {
    return [...this.objects[plural].entries()]
      .sort(([a], [b]) => (a < b ? -1 : Number(a > b)))
      .map(([, o]) => o);
  }
}
