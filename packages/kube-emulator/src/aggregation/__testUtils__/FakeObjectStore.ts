import { randomUUID } from 'node:crypto';
import {
  ObjectStore,
  ResourceDefinition,
  ResourceKey,
  StoreError,
  StoreEvent,
  StoredObject,
} from '../../store/types';

function definition(
  key: ResourceKey,
  kind: string,
  namespaced: boolean,
): ResourceDefinition {
  return {
    ...key,
    kind,
    listKind: `${kind}List`,
    singular: kind.toLowerCase(),
    namespaced,
    statusSubresource: true,
  };
}

/**
 * The part of {@link ObjectStore} the aggregation layer uses (get, list, create, update incl.
 * status, delete, watch), in memory with one RV counter and synchronous events. Records every
 * status write so tests can assert them.
 */
export class FakeObjectStore implements ObjectStore {
  private rv = 1;
  private readonly defs = new Map<string, ResourceDefinition>();
  private readonly objects = new Map<string, StoredObject>();
  private readonly listeners = new Set<(e: StoreEvent) => void>();
  readonly statusWrites: StoredObject[] = [];

  constructor() {
    this.defineResource(
      definition(
        {
          group: 'apiregistration.k8s.io',
          version: 'v1',
          plural: 'apiservices',
        },
        'APIService',
        false,
      ),
    );
    this.defineResource(
      definition(
        { group: '', version: 'v1', plural: 'services' },
        'Service',
        true,
      ),
    );
  }

  private k(key: ResourceKey, ns: string | undefined, name: string) {
    return `${key.group}/${key.plural}/${ns ?? ''}/${name}`;
  }
  private def(key: ResourceKey): ResourceDefinition {
    const d = this.defs.get(`${key.group}/${key.plural}`);
    if (!d)
      throw new StoreError(
        404,
        'NotFound',
        `the server could not find the requested resource (${key.plural})`,
      );
    return d;
  }
  private emit(e: Omit<StoreEvent, 'rv'>) {
    for (const l of [...this.listeners]) l({ ...e, rv: this.rv });
  }

  currentRV() {
    return this.rv;
  }
  oldestRV() {
    return 0;
  }
  defineResource(def: ResourceDefinition) {
    this.defs.set(`${def.group}/${def.plural}`, def);
  }
  removeResource(key: ResourceKey) {
    this.defs.delete(`${key.group}/${key.plural}`);
  }
  resource(key: ResourceKey) {
    return this.defs.get(`${key.group}/${key.plural}`);
  }
  resources() {
    return [...this.defs.values()];
  }
  get(key: ResourceKey, namespace: string | undefined, name: string) {
    this.def(key);
    const o = this.objects.get(this.k(key, namespace, name));
    return o && structuredClone(o);
  }
  peek(key: ResourceKey, namespace: string | undefined, name: string) {
    this.def(key);
    return this.objects.get(this.k(key, namespace, name));
  }
  peekList(key: ResourceKey, namespace?: string) {
    this.def(key);
    const prefix = `${key.group}/${key.plural}/`;
    return [...this.objects.entries()]
      .filter(
        ([k, o]) =>
          k.startsWith(prefix) &&
          (namespace === undefined || o.metadata.namespace === namespace),
      )
      .map(([, o]) => o);
  }
  list(key: ResourceKey, namespace?: string) {
    return this.peekList(key, namespace).map(o => structuredClone(o));
  }
  create(key: ResourceKey, obj: Record<string, unknown>) {
    const resource = this.def(key);
    const meta = obj.metadata as { name: string; namespace?: string };
    const id = this.k(key, meta.namespace, meta.name);
    if (this.objects.has(id))
      throw new StoreError(409, 'AlreadyExists', `${meta.name} already exists`);
    this.rv++;
    const stored = {
      ...structuredClone(obj),
      metadata: {
        ...meta,
        uid: randomUUID(),
        resourceVersion: String(this.rv),
        creationTimestamp: new Date().toISOString(),
      },
    } as StoredObject;
    this.objects.set(id, stored);
    this.emit({ type: 'ADDED', resource, object: structuredClone(stored) });
    return structuredClone(stored);
  }
  update(
    key: ResourceKey,
    obj: Record<string, unknown>,
    opts?: { subresource?: 'status' },
  ) {
    const resource = this.def(key);
    const meta = obj.metadata as {
      name: string;
      namespace?: string;
      resourceVersion?: string;
    };
    const id = this.k(key, meta.namespace, meta.name);
    const old = this.objects.get(id);
    if (!old) throw new StoreError(404, 'NotFound', `${meta.name} not found`);
    if (
      meta.resourceVersion &&
      meta.resourceVersion !== old.metadata.resourceVersion
    ) {
      throw new StoreError(409, 'Conflict', 'the object has been modified');
    }
    this.rv++;
    const next = (
      opts?.subresource === 'status'
        ? { ...old, status: structuredClone(obj.status) }
        : {
            ...structuredClone(obj),
            status: old.status,
            metadata: { ...old.metadata, ...meta },
          }
    ) as StoredObject;
    next.metadata = { ...next.metadata, resourceVersion: String(this.rv) };
    this.objects.set(id, next);
    if (opts?.subresource === 'status')
      this.statusWrites.push(structuredClone(next));
    this.emit({
      type: 'MODIFIED',
      resource,
      object: structuredClone(next),
      oldObject: old,
    });
    return structuredClone(next);
  }
  delete(key: ResourceKey, namespace: string | undefined, name: string) {
    const resource = this.def(key);
    const id = this.k(key, namespace, name);
    const old = this.objects.get(id);
    if (!old) throw new StoreError(404, 'NotFound', `${name} not found`);
    this.objects.delete(id);
    this.rv++;
    this.emit({ type: 'DELETED', resource, object: old });
    return old;
  }
  watch(_fromRV: number | undefined, onEvent: (e: StoreEvent) => void) {
    this.listeners.add(onEvent);
    return { stop: () => void this.listeners.delete(onEvent) };
  }
}
