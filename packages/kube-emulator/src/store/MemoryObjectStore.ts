import { randomUUID } from 'node:crypto';
import { prepareBatchForCreate } from './batchDefaults';
import { BUILTIN_RESOURCES, INITIAL_NAMESPACES, NAMESPACE_RESOURCE } from './builtinResources';
import { hasGeneration, prepareForCreate, prepareForUpdate, specChanged, withoutVolatile } from './builtinStrategies';
import { ChangeLog } from './ChangeLog';
import { acceptedCrdStatus } from './crdDefinitions';
import { generateName } from './generateName';
import { jsonEqual } from './jsonEqual';
import { admitToNamespace, emptiedNamespace, objectsToDrain } from './namespaceLifecycle';
import { ResourceTypes, type DroppedType, type TypeState } from './ResourceTypes';
import { SchemaValidator } from './SchemaValidator';
import { asVersion, sortedAs, sortedIn } from './objectViews';
import { validateObject } from './validateObject';
import {
  alreadyExistsError,
  conflictError,
  invalidError,
  notFoundError,
} from './storeErrors';
import { isCrd, isNamespace, jsonClone, objKey, type Obj, typeKey } from './storeKeys';
import {
  type ObjectStore,
  type ResourceDefinition,
  type ResourceKey,
  type StoreEvent,
  type StoredObject,
} from './types';
import { carryOverMetadata, checkPreconditions, resetForCreate, writtenObject } from './systemMetadata';

/** Options of {@link MemoryObjectStore}. */
export interface MemoryObjectStoreOptions {
  /** First resourceVersion handed out is this + 1 (default 1000, so RVs never look like small counters). */
  initialResourceVersion?: number;
  /** How many change events are kept for watch resumption (default 10,000). */
  historyLimit?: number;
  /** Clock, for tests. */
  now?: () => Date;
  /** Namespaces created at start (default: default, kube-system, kube-public, kube-node-lease). */
  namespaces?: string[];
  /** Called when a subscriber throws; the store itself never fails because of a subscriber. */
  onSubscriberError?: (err: unknown) => void;
}



/**
 * In-memory {@link ObjectStore} with kube-apiserver's storage semantics: one global
 * resourceVersion counter, uid/creationTimestamp/generation management, optimistic concurrency,
 * status subresources, finalizers, NamespaceLifecycle, CRD registration by writing
 * CustomResourceDefinition objects, CRD schema pruning/defaulting/validation, and a bounded
 * change history for watches.
 *
 * Decisions (documented because kube allows either):
 * - Namespaced objects need an existing namespace, also when seeding (404 `namespaces "x" not found`);
 *   default, kube-system, kube-public and kube-node-lease exist from the start.
 * - Deleting a namespace marks it Terminating, deletes its objects (those with finalizers stay until
 *   their finalizers are removed) and removes the namespace when it is empty.
 * - An update without metadata.resourceVersion is unconditional (as for built-in kinds).
 * - Deleting a CRD removes its objects at once, ignoring their finalizers.
 * - Deletion propagation finalizers (orphan/foregroundDeletion) are not added: there is no garbage collector.
 */
export class MemoryObjectStore implements ObjectStore {
  private readonly log: ChangeLog;
  private readonly types = new ResourceTypes();
  private readonly now: () => Date;
  private readonly validator = new SchemaValidator();

  constructor(options: MemoryObjectStoreOptions = {}) {
    this.log = new ChangeLog(
      options.initialResourceVersion ?? 1000,
      options.historyLimit ?? 10_000,
      options.onSubscriberError ?? (() => {}),
    );
    this.now = options.now ?? (() => new Date());
    for (const def of BUILTIN_RESOURCES) this.defineResource(def);
    for (const ns of options.namespaces ?? INITIAL_NAMESPACES) {
      this.create(NAMESPACE_RESOURCE, { metadata: { name: ns } });
    }
  }

  currentRV(): number {
    return this.log.current();
  }

  oldestRV(): number {
    return this.log.oldest();
  }

  /** The changes made after `rv` that the history still holds, oldest first (for tests' oracles). */
  changesSince(rv: number): readonly StoreEvent[] {
    return this.log.changesSince(rv);
  }

  /**
   * Fault injection: forgets the change history, as an etcd compaction does, so every watch
   * resumed from an RV it held before gets 410 Expired.
   */
  compact(): void {
    this.log.compact();
  }

  /**
   * Fault injection: the next resourceVersion is `by` larger than it would be (a restore or a
   * migration to another etcd), without any event.
   */
  advanceResourceVersion(by: number): void {
    this.log.advance(by);
  }

  /** The schema validator (shared compile cache), e.g. to check objects before writing them. */
  schemaValidator(): SchemaValidator {
    return this.validator;
  }

  defineResource(def: ResourceDefinition): void {
    this.types.define(def);
  }

  removeResource(key: ResourceKey): void {
    this.announceDropped(this.types.removeVersion(key));
  }

  resource(key: ResourceKey): ResourceDefinition | undefined {
    return this.types.definition(key);
  }

  resources(): ResourceDefinition[] {
    return this.types.definitions();
  }

  get(key: ResourceKey, namespace: string | undefined, name: string): StoredObject | undefined {
    const obj = this.peek(key, namespace, name);
    return obj ? asVersion(obj, this.types.resolve(key).def) : undefined;
  }

  peek(key: ResourceKey, namespace: string | undefined, name: string): StoredObject | undefined {
    const { def, state } = this.types.resolve(key);
    return state.objects.get(objKey(def.namespaced ? namespace : undefined, name));
  }

  peekList(key: ResourceKey, namespace?: string): StoredObject[] {
    const { def, state } = this.types.resolve(key);
    return sortedIn([...state.objects.values()], def, namespace);
  }

  list(key: ResourceKey, namespace?: string): StoredObject[] {
    const { def, state } = this.types.resolve(key);
    return sortedAs([...state.objects.values()], def, namespace);
  }

  listAt(
    key: ResourceKey,
    namespace: string | undefined,
    rv: number,
  ): StoredObject[] {
    const { def, state } = this.types.resolve(key);
    this.log.assertNotExpired(rv);
    if (rv >= this.log.current()) return this.list(key, namespace);
    const objects = new Map(state.objects);
    // Undo, newest first, every change of this type made after rv.
    const changes = this.log.changesSince(rv);
    for (let i = changes.length - 1; i >= 0; i--) {
      const ev = changes[i];
      if (typeKey(ev.resource) !== typeKey(def)) continue;
      const k = objKey(ev.object.metadata.namespace, ev.object.metadata.name);
      if (ev.type === 'ADDED') objects.delete(k);
      else if (ev.oldObject) objects.set(k, ev.oldObject);
    }
    return sortedAs([...objects.values()], def, namespace);
  }

  create(
    key: ResourceKey,
    input: Record<string, unknown>,
    opts: { dryRun?: boolean } = {},
  ): StoredObject {
    const { def, state } = this.types.resolve(key);
    const obj: Obj = jsonClone(input);
    const meta: Obj =
      typeof obj.metadata === 'object' && obj.metadata !== null
        ? obj.metadata
        : {};
    obj.metadata = meta;
    resetForCreate(def, obj);
    if (!def.namespaced) delete meta.namespace;
    if (
      (meta.name === undefined || meta.name === '') &&
      typeof meta.generateName === 'string' &&
      meta.generateName
    ) {
      meta.name = generateName(def, meta.generateName, n =>
        state.objects.has(objKey(def.namespaced ? meta.namespace : undefined, n)),
      );
    }
    const name = String(meta.name ?? '');
    if (def.statusSubresource) delete obj.status;
    const uid = randomUUID();
    prepareForCreate(def, obj, this.log.current() + 1);
    prepareBatchForCreate(def, obj, uid);

    const causes = validateObject(this.validator, def, obj);
    if (def.namespaced && !meta.namespace) {
      causes.push({
        reason: 'FieldValueRequired',
        message: 'Required value',
        field: 'metadata.namespace',
      });
    }
    if (causes.length) throw invalidError(def.kind, def.group, name, causes);
    if (def.namespaced) admitToNamespace(this.types, def, name, meta.namespace);
    if (state.objects.has(objKey(meta.namespace, name)))
      throw alreadyExistsError(def, name);

    meta.uid = uid;
    meta.creationTimestamp = this.timestamp();
    if (hasGeneration(def)) meta.generation = 1;
    if (isCrd(def)) obj.status = acceptedCrdStatus(obj, meta.creationTimestamp);
    if (opts.dryRun) return obj as StoredObject;

    meta.resourceVersion = String(this.log.next());
    state.objects.set(objKey(meta.namespace, name), obj as StoredObject);
    if (isCrd(def)) this.types.applyCrd(obj);
    this.log.append({
      type: 'ADDED',
      resource: def,
      object: structuredClone(obj as StoredObject),
      rv: this.log.current(),
    });
    return structuredClone(obj as StoredObject);
  }

  update(
    key: ResourceKey,
    input: Record<string, unknown>,
    opts: { subresource?: 'status'; dryRun?: boolean } = {},
  ): StoredObject {
    const { def, state } = this.types.resolve(key);
    const given: Obj = jsonClone(input);
    const givenMeta: Obj =
      typeof given.metadata === 'object' && given.metadata !== null
        ? given.metadata
        : {};
    given.metadata = givenMeta;
    const name = String(givenMeta.name ?? '');
    const namespace = def.namespaced
      ? (givenMeta.namespace as string | undefined)
      : undefined;
    const old = state.objects.get(objKey(namespace, name));
    if (!old) throw notFoundError(def, name);
    const oldMeta = old.metadata;
    if (
      givenMeta.resourceVersion &&
      givenMeta.resourceVersion !== oldMeta.resourceVersion
    )
      throw conflictError(def, name);

    const obj = writtenObject(def, given, old, opts.subresource);
    const meta: Obj = obj.metadata;
    const causes = carryOverMetadata(def, obj, old);
    prepareForUpdate(def, obj, old);
    causes.push(...validateObject(this.validator, def, obj, old as Obj));
    if (causes.length) throw invalidError(def.kind, def.group, name, causes);
    if (isCrd(def))
      obj.status = acceptedCrdStatus(
        obj,
        this.timestamp(),
        (old as Obj).status,
      );

    if (hasGeneration(def) && specChanged(def, old, obj))
      meta.generation = (oldMeta.generation ?? 0) + 1;
    if (jsonEqual(withoutVolatile(obj), withoutVolatile(old)))
      return asVersion(old, def);
    if (opts.dryRun) return obj as StoredObject;

    const k = objKey(namespace, name);
    if (
      meta.deletionTimestamp &&
      !(meta.finalizers as string[] | undefined)?.length
    ) {
      return this.remove(def, state, k, old, obj as StoredObject);
    }
    meta.resourceVersion = String(this.log.next());
    state.objects.set(k, obj as StoredObject);
    if (isCrd(def)) this.types.applyCrd(obj);
    this.log.append({
      type: 'MODIFIED',
      resource: def,
      object: structuredClone(obj as StoredObject),
      oldObject: old,
      rv: this.log.current(),
    });
    return structuredClone(obj as StoredObject);
  }

  delete(
    key: ResourceKey,
    namespace: string | undefined,
    name: string,
    opts: {
      preconditions?: { uid?: string; resourceVersion?: string };
      dryRun?: boolean;
    } = {},
  ): StoredObject {
    const { def, state } = this.types.resolve(key);
    const k = objKey(def.namespaced ? namespace : undefined, name);
    const old = state.objects.get(k);
    if (!old) throw notFoundError(def, name);
    checkPreconditions(def, name, old, opts.preconditions);
    const terminating =
      isNamespace(def) || (old.metadata.finalizers?.length ?? 0) > 0;
    if (!terminating) {
      if (opts.dryRun) return asVersion(old, def);
      return this.remove(def, state, k, old, old);
    }
    if (old.metadata.deletionTimestamp) return asVersion(old, def);
    const obj = structuredClone(old) as Obj;
    obj.metadata.deletionTimestamp = this.timestamp();
    obj.metadata.deletionGracePeriodSeconds = 0;
    if (isNamespace(def))
      obj.status = { ...(obj.status ?? {}), phase: 'Terminating' };
    if (opts.dryRun) return asVersion(obj as StoredObject, def);
    obj.metadata.resourceVersion = String(this.log.next());
    state.objects.set(k, obj as StoredObject);
    this.log.append({
      type: 'MODIFIED',
      resource: def,
      object: structuredClone(obj as StoredObject),
      oldObject: old,
      rv: this.log.current(),
    });
    if (isNamespace(def)) this.drainNamespace(name);
    return asVersion(state.objects.get(k) ?? (obj as StoredObject), def);
  }

  watch(
    fromRV: number | undefined,
    onEvent: (e: StoreEvent) => void,
  ): { stop(): void } {
    return this.log.watch(fromRV, onEvent);
  }

  // --- internals -------------------------------------------------------------------------------

  private timestamp(): string {
    return this.now()
      .toISOString()
      .replace(/\.\d+Z$/, 'Z');
  }

  private remove(
    def: ResourceDefinition,
    state: TypeState,
    k: string,
    old: StoredObject,
    last: StoredObject,
  ): StoredObject {
    state.objects.delete(k);
    // Like the CRD finalizer in kube: the custom resources go first, then the definition.
    if (isCrd(def)) this.announceDropped(this.types.unapplyCrd(old as Obj));
    const gone = this.appendDeleted(def, last, old);
    // a namespace itself goes only once empty (drainNamespace); an object's removal may empty its own
    if (def.namespaced && old.metadata.namespace) this.finishNamespaceIfEmpty(old.metadata.namespace);
    return asVersion(gone, def);
  }

  /** Namespace controller: delete every object in a terminating namespace, then the namespace when empty. */
  private drainNamespace(namespace: string): void {
    for (const { def, name } of objectsToDrain(this.types, namespace)) this.delete(def, namespace, name);
    this.finishNamespaceIfEmpty(namespace);
  }

  private finishNamespaceIfEmpty(namespace: string): void {
    const emptied = emptiedNamespace(this.types, namespace);
    if (emptied) this.remove(NAMESPACE_RESOURCE, emptied.state, namespace, emptied.ns, emptied.ns);
  }

  /** Deletes, with an event each, the objects of a type no longer served. */
  private announceDropped(dropped: DroppedType | undefined): void {
    for (const obj of dropped?.objects ?? []) this.appendDeleted(dropped!.def, obj, obj);
  }

  /** The DELETED event of `last` (a copy at the next resourceVersion) over `old`; returns that copy. */
  private appendDeleted(def: ResourceDefinition, last: StoredObject, old: StoredObject): StoredObject {
    const gone = structuredClone(last);
    gone.metadata.resourceVersion = String(this.log.next());
    this.log.append({ type: 'DELETED', resource: def, object: gone, oldObject: old, rv: this.log.current() });
    return gone;
  }
}
