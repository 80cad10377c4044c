import crypto from 'node:crypto';
import Ajv from 'ajv';
import {
  StoreError,
  type ObjectStore,
  type ResourceDefinition,
  type ResourceKey,
  type StoreEvent,
  type StoredObject,
} from '../../store/types';

const resKey = (k: ResourceKey) => `${k.group}/${k.version}/${k.plural}`;
const objKey = (ns: string | undefined, name: string) => `${ns ?? ''}/${name}`;
const clone = <T>(v: T): T => structuredClone(v);

/**
 * A small in-memory ObjectStore for tests of the emulated operators: one global resourceVersion,
 * synchronous watch delivery, status subresource semantics, generation bumps on spec changes,
 * finalizers, and schema validation (ajv) of CRD-defined kinds.
 */
export class FakeObjectStore implements ObjectStore {
  private rv = 0;
  private readonly defs = new Map<string, ResourceDefinition>();
  private readonly objects = new Map<string, Map<string, StoredObject>>();
  private readonly watchers = new Set<(e: StoreEvent) => void>();
  private readonly ajv = new Ajv({
    strict: false,
    allErrors: true,
    validateFormats: false,
  });
  private readonly validators = new Map<string, ReturnType<Ajv['compile']>>();
  /** Every event, for assertions. */
  readonly events: StoreEvent[] = [];

  currentRV(): number {
    return this.rv;
  }
  oldestRV(): number {
    return 0;
  }
  defineResource(def: ResourceDefinition): void {
    this.defs.set(resKey(def), def);
    if (!this.objects.has(resKey(def)))
      this.objects.set(resKey(def), new Map());
    if (def.schema)
      this.validators.set(resKey(def), this.ajv.compile(def.schema as object));
  }
  removeResource(key: ResourceKey): void {
    this.defs.delete(resKey(key));
  }
  resource(key: ResourceKey): ResourceDefinition | undefined {
    return this.defs.get(resKey(key));
  }
  resources(): ResourceDefinition[] {
    return [...this.defs.values()];
  }
  get(
    key: ResourceKey,
    namespace: string | undefined,
    name: string,
  ): StoredObject | undefined {
    const o = this.objects.get(resKey(key))?.get(objKey(namespace, name));
    return o && clone(o);
  }
  peek(key: ResourceKey, namespace: string | undefined, name: string): StoredObject | undefined {
    return this.objects.get(resKey(key))?.get(objKey(namespace, name));
  }
  peekList(key: ResourceKey, namespace?: string): StoredObject[] {
    return [...(this.objects.get(resKey(key))?.values() ?? [])].filter(
      o => namespace === undefined || o.metadata.namespace === namespace,
    );
  }
  list(key: ResourceKey, namespace?: string): StoredObject[] {
    return this.peekList(key, namespace).map(clone);
  }

  create(key: ResourceKey, obj: Record<string, unknown>): StoredObject {
    const def = this.def(key);
    const input = clone(obj) as StoredObject;
    const k = objKey(input.metadata.namespace, input.metadata.name);
    if (this.objects.get(resKey(key))!.has(k)) {
      throw new StoreError(
        409,
        'AlreadyExists',
        `${def.plural} "${input.metadata.name}" already exists`,
      );
    }
    if (def.statusSubresource) delete input.status;
    const stored: StoredObject = {
      ...input,
      metadata: {
        ...input.metadata,
        uid: crypto.randomUUID(),
        generation: 1,
        creationTimestamp: new Date().toISOString(),
        resourceVersion: String(++this.rv),
      },
    };
    this.validate(key, stored);
    this.objects.get(resKey(key))!.set(k, stored);
    this.emit('ADDED', def, stored);
    return clone(stored);
  }

  update(
    key: ResourceKey,
    obj: Record<string, unknown>,
    opts?: { subresource?: 'status' },
  ): StoredObject {
    const def = this.def(key);
    const input = clone(obj) as StoredObject;
    const k = objKey(input.metadata.namespace, input.metadata.name);
    const old = this.objects.get(resKey(key))!.get(k);
    if (!old)
      throw new StoreError(
        404,
        'NotFound',
        `${def.plural} "${input.metadata.name}" not found`,
      );
    if (
      input.metadata.resourceVersion &&
      input.metadata.resourceVersion !== old.metadata.resourceVersion
    ) {
      throw new StoreError(
        409,
        'Conflict',
        'the object has been modified; please apply your changes to the latest version and try again',
      );
    }
    let next: StoredObject;
    if (opts?.subresource === 'status') {
      next = { ...clone(old), status: input.status };
    } else {
      next = {
        ...input,
        metadata: {
          ...input.metadata,
          uid: old.metadata.uid,
          creationTimestamp: old.metadata.creationTimestamp,
        },
      };
      if (old.metadata.deletionTimestamp)
        next.metadata.deletionTimestamp = old.metadata.deletionTimestamp;
      if (def.statusSubresource) next.status = old.status;
      const specChanged =
        JSON.stringify(input.spec) !== JSON.stringify(old.spec);
      next.metadata.generation =
        (old.metadata.generation ?? 1) + (specChanged ? 1 : 0);
    }
    next.metadata.resourceVersion = String(++this.rv);
    this.validate(key, next);
    if (
      next.metadata.deletionTimestamp &&
      (next.metadata.finalizers ?? []).length === 0
    ) {
      this.objects.get(resKey(key))!.delete(k);
      this.emit('DELETED', def, next, old);
      return clone(next);
    }
    this.objects.get(resKey(key))!.set(k, next);
    this.emit('MODIFIED', def, next, old);
    return clone(next);
  }

  delete(
    key: ResourceKey,
    namespace: string | undefined,
    name: string,
  ): StoredObject {
    const def = this.def(key);
    const k = objKey(namespace, name);
    const old = this.objects.get(resKey(key))!.get(k);
    if (!old)
      throw new StoreError(
        404,
        'NotFound',
        `${def.plural} "${name}" not found`,
      );
    if ((old.metadata.finalizers ?? []).length > 0) {
      if (old.metadata.deletionTimestamp) return clone(old);
      const next = clone(old);
      next.metadata.deletionTimestamp = new Date().toISOString();
      next.metadata.resourceVersion = String(++this.rv);
      this.objects.get(resKey(key))!.set(k, next);
      this.emit('MODIFIED', def, next, old);
      return clone(next);
    }
    this.objects.get(resKey(key))!.delete(k);
    const gone = {
      ...clone(old),
      metadata: { ...old.metadata, resourceVersion: String(++this.rv) },
    };
    this.emit('DELETED', def, gone, old);
    return clone(gone);
  }

  watch(
    _fromRV: number | undefined,
    onEvent: (e: StoreEvent) => void,
  ): { stop(): void } {
    this.watchers.add(onEvent);
    return { stop: () => this.watchers.delete(onEvent) };
  }

  private def(key: ResourceKey): ResourceDefinition {
    const def = this.defs.get(resKey(key));
    if (!def)
      throw new StoreError(
        404,
        'NotFound',
        `the server could not find the requested resource (${resKey(key)})`,
      );
    return def;
  }

  private validate(key: ResourceKey, obj: StoredObject) {
    const validate = this.validators.get(resKey(key));
    if (validate && !validate(obj)) {
      const causes = (validate.errors ?? [])
        .map(e => `${e.instancePath} ${e.message}`)
        .join('; ');
      throw new StoreError(
        422,
        'Invalid',
        `${obj.kind} "${obj.metadata.name}" is invalid: ${causes}`,
      );
    }
  }

  private emit(
    type: StoreEvent['type'],
    resource: ResourceDefinition,
    object: StoredObject,
    oldObject?: StoredObject,
  ) {
    const e: StoreEvent = {
      type,
      resource,
      object: clone(object),
      oldObject: oldObject && clone(oldObject),
      rv: this.rv,
    };
    this.events.push(e);
    for (const w of [...this.watchers]) w(e);
  }
}
