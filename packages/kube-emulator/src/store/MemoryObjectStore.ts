import { prepareBatchForCreate } from './batchDefaults';
import { randomUUID } from 'node:crypto';
import { jsonEqual } from './jsonEqual';
import {
  BUILTIN_RESOURCES,
  CRD_RESOURCE,
  INITIAL_NAMESPACES,
  NAMESPACE_RESOURCE,
} from './builtinResources';
import { acceptedCrdStatus, crdDefinitions } from './crdDefinitions';
import { SchemaValidator } from './SchemaValidator';
import {
  alreadyExistsError,
  conflictError,
  expiredError,
  type FieldCause,
  invalidError,
  namespaceTerminatingError,
  notFoundError,
} from './storeErrors';
import {
  type ObjectStore,
  type ResourceDefinition,
  type ResourceKey,
  type StoreEvent,
  StoreError,
  type StoredObject,
} from './types';
import { validateMetadata } from './validateMetadata';
import {
  defaultRbacObject,
  isRbacResource,
  rbacObjectCauses,
} from './validateRbacObject';

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

interface TypeState {
  versions: Map<string, ResourceDefinition>;
  objects: Map<string, StoredObject>;
}

interface Subscriber {
  lastRV: number;
  onEvent: (e: StoreEvent) => void;
}

type Obj = Record<string, any>;

const typeKey = (k: Pick<ResourceKey, 'group' | 'plural'>) =>
  `${k.group}/${k.plural}`;
const objKey = (namespace: string | undefined, name: string) =>
  namespace ? `${namespace}/${name}` : name;
const isCrd = (k: Pick<ResourceKey, 'group' | 'plural'>) =>
  k.group === CRD_RESOURCE.group && k.plural === CRD_RESOURCE.plural;
const isNamespace = (k: Pick<ResourceKey, 'group' | 'plural'>) =>
  k.group === '' && k.plural === NAMESPACE_RESOURCE.plural;
const groupVersion = (k: ResourceKey) =>
  k.group ? `${k.group}/${k.version}` : k.version;
/** JSON round trip: the store holds exactly what a client would see on the wire (no undefined, no Dates). */
const jsonClone = <T>(v: T): T => JSON.parse(JSON.stringify(v));

const GENERATE_NAME_CHARS = 'bcdfghjklmnpqrstvwxz2456789';

const immutable = (field: string, value: unknown): FieldCause => ({
  reason: 'FieldValueInvalid',
  message: `Invalid value: ${JSON.stringify(value ?? '')}: field is immutable`,
  field,
});

function withoutVolatile(obj: Obj): Obj {
  const {
    resourceVersion: _rv,
    managedFields: _mf,
    ...meta
  } = obj.metadata ?? {};
  return { ...obj, metadata: meta };
}

/** Generation counts changes to anything but metadata (and status, when status is a subresource). */
function specChanged(def: ResourceDefinition, a: Obj, b: Obj): boolean {
  const strip = (o: Obj) => {
    const { metadata: _m, status: _s, ...rest } = o;
    return def.statusSubresource ? rest : { ...rest, status: o.status };
  };
  return !jsonEqual(strip(a), strip(b));
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
  private rv: number;
  private oldest: number;
  private readonly historyLimit: number;
  private readonly history: StoreEvent[] = [];
  private readonly types = new Map<string, TypeState>();
  private readonly subscribers = new Set<Subscriber>();
  private readonly queue: StoreEvent[] = [];
  private dispatching = false;
  private readonly now: () => Date;
  private readonly validator = new SchemaValidator();
  private readonly onSubscriberError: (err: unknown) => void;

  constructor(options: MemoryObjectStoreOptions = {}) {
    this.rv = options.initialResourceVersion ?? 1000;
    this.oldest = this.rv;
    this.historyLimit = options.historyLimit ?? 10_000;
    this.now = options.now ?? (() => new Date());
    this.onSubscriberError = options.onSubscriberError ?? (() => {});
    for (const def of BUILTIN_RESOURCES) this.defineResource(def);
    for (const ns of options.namespaces ?? INITIAL_NAMESPACES) {
      this.create(NAMESPACE_RESOURCE, { metadata: { name: ns } });
    }
  }

  currentRV(): number {
    return this.rv;
  }

  oldestRV(): number {
    return this.oldest;
  }

  /** The changes made after `rv` that the history still holds, oldest first (for tests' oracles). */
  changesSince(rv: number): readonly StoreEvent[] {
    let i = this.history.length;
    while (i > 0 && this.history[i - 1].rv > rv) i--;
    return this.history.slice(i);
  }

  /**
   * Fault injection: forgets the change history, as an etcd compaction does, so every watch
   * resumed from an RV it held before gets 410 Expired. The RV moves on by one (etcd's
   * revision does with the write that triggers a compaction), so no client holds the new oldest.
   */
  compact(): void {
    this.history.length = 0;
    this.rv += 1;
    this.oldest = this.rv;
  }

  /**
   * Fault injection: the next resourceVersion is `by` larger than it would be (a restore or a
   * migration to another etcd), without any event.
   */
  advanceResourceVersion(by: number): void {
    if (!Number.isSafeInteger(by) || by < 0)
      throw new Error(`cannot advance the resourceVersion by ${by}`);
    this.rv += by;
  }

  /** The schema validator (shared compile cache), e.g. to check objects before writing them. */
  schemaValidator(): SchemaValidator {
    return this.validator;
  }

  defineResource(def: ResourceDefinition): void {
    let state = this.types.get(typeKey(def));
    if (!state) {
      state = { versions: new Map(), objects: new Map() };
      this.types.set(typeKey(def), state);
    }
    state.versions.set(def.version, { ...def });
  }

  removeResource(key: ResourceKey): void {
    const state = this.types.get(typeKey(key));
    if (!state) return;
    state.versions.delete(key.version);
    if (state.versions.size === 0) this.dropType(key);
  }

  resource(key: ResourceKey): ResourceDefinition | undefined {
    const def = this.types.get(typeKey(key))?.versions.get(key.version);
    return def ? { ...def } : undefined;
  }

  resources(): ResourceDefinition[] {
    return [...this.types.values()].flatMap(s =>
      [...s.versions.values()].map(d => ({ ...d })),
    );
  }

  get(
    key: ResourceKey,
    namespace: string | undefined,
    name: string,
  ): StoredObject | undefined {
    const { def, state } = this.resolve(key);
    const obj = state.objects.get(
      objKey(def.namespaced ? namespace : undefined, name),
    );
    return obj ? this.asVersion(obj, def) : undefined;
  }

  list(key: ResourceKey, namespace?: string): StoredObject[] {
    const { def, state } = this.resolve(key);
    return this.sorted([...state.objects.values()], def, namespace);
  }

  listAt(
    key: ResourceKey,
    namespace: string | undefined,
    rv: number,
  ): StoredObject[] {
    const { def, state } = this.resolve(key);
    if (rv < this.oldest) throw expiredError(rv, this.oldest);
    if (rv >= this.rv) return this.list(key, namespace);
    const objects = new Map(state.objects);
    // Undo, newest first, every change of this type made after rv.
    for (
      let i = this.history.length - 1;
      i >= 0 && this.history[i].rv > rv;
      i--
    ) {
      const ev = this.history[i];
      if (typeKey(ev.resource) !== typeKey(def)) continue;
      const k = objKey(ev.object.metadata.namespace, ev.object.metadata.name);
      if (ev.type === 'ADDED') objects.delete(k);
      else if (ev.oldObject) objects.set(k, ev.oldObject);
    }
    return this.sorted([...objects.values()], def, namespace);
  }

  create(
    key: ResourceKey,
    input: Record<string, unknown>,
    opts: { dryRun?: boolean } = {},
  ): StoredObject {
    const { def, state } = this.resolve(key);
    const obj: Obj = jsonClone(input);
    const meta: Obj =
      typeof obj.metadata === 'object' && obj.metadata !== null
        ? obj.metadata
        : {};
    obj.metadata = meta;
    obj.apiVersion = groupVersion(def);
    obj.kind = def.kind;
    for (const f of [
      'uid',
      'resourceVersion',
      'creationTimestamp',
      'deletionTimestamp',
      'deletionGracePeriodSeconds',
      'generation',
      'selfLink',
    ]) {
      delete meta[f];
    }
    if (!def.namespaced) delete meta.namespace;
    if (
      (meta.name === undefined || meta.name === '') &&
      typeof meta.generateName === 'string' &&
      meta.generateName
    ) {
      meta.name = this.generateName(
        state,
        def,
        meta.generateName,
        meta.namespace,
      );
    }
    const name = String(meta.name ?? '');
    if (def.statusSubresource) delete obj.status;
    const uid = randomUUID();
    this.prepareForCreate(def, obj);
    prepareBatchForCreate(def, obj, uid);

    const causes = this.validate(def, obj);
    if (def.namespaced && !meta.namespace) {
      causes.push({
        reason: 'FieldValueRequired',
        message: 'Required value',
        field: 'metadata.namespace',
      });
    }
    if (causes.length) throw invalidError(def.kind, def.group, name, causes);
    if (def.namespaced) this.checkNamespace(def, name, meta.namespace);
    if (state.objects.has(objKey(meta.namespace, name)))
      throw alreadyExistsError(def, name);

    meta.uid = uid;
    meta.creationTimestamp = this.timestamp();
    if (this.hasGeneration(def)) meta.generation = 1;
    if (isCrd(def)) obj.status = acceptedCrdStatus(obj, meta.creationTimestamp);
    if (opts.dryRun) return obj as StoredObject;

    meta.resourceVersion = String(++this.rv);
    state.objects.set(objKey(meta.namespace, name), obj as StoredObject);
    if (isCrd(def)) this.applyCrd(obj);
    this.emit({
      type: 'ADDED',
      resource: def,
      object: structuredClone(obj as StoredObject),
      rv: this.rv,
    });
    return structuredClone(obj as StoredObject);
  }

  update(
    key: ResourceKey,
    input: Record<string, unknown>,
    opts: { subresource?: 'status'; dryRun?: boolean } = {},
  ): StoredObject {
    const { def, state } = this.resolve(key);
    const given: Obj = jsonClone(input);
    const givenMeta: Obj =
      typeof given.metadata === 'object' && given.metadata !== null
        ? given.metadata
        : {};
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

    let obj: Obj;
    if (opts.subresource === 'status') {
      obj = structuredClone(old) as Obj;
      if (given.status === undefined) delete obj.status;
      else obj.status = given.status;
    } else {
      obj = given;
      obj.metadata = givenMeta;
      if (def.statusSubresource) {
        if (old.status === undefined) delete obj.status;
        else obj.status = structuredClone(old.status);
      }
    }
    const meta: Obj = obj.metadata;
    const causes: FieldCause[] = [];
    if (meta.uid && meta.uid !== oldMeta.uid) {
      causes.push({
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${JSON.stringify(meta.uid)}: field is immutable`,
        field: 'metadata.uid',
      });
    }
    obj.apiVersion = groupVersion(def);
    obj.kind = def.kind;
    meta.name = oldMeta.name;
    if (def.namespaced) meta.namespace = oldMeta.namespace;
    else delete meta.namespace;
    meta.uid = oldMeta.uid;
    meta.creationTimestamp = oldMeta.creationTimestamp;
    meta.resourceVersion = oldMeta.resourceVersion;
    delete meta.selfLink;
    for (const f of [
      'deletionTimestamp',
      'deletionGracePeriodSeconds',
      'generation',
    ] as const) {
      if (oldMeta[f] === undefined) delete meta[f];
      else meta[f] = oldMeta[f];
    }
    if (oldMeta.deletionTimestamp) {
      const before = new Set(oldMeta.finalizers ?? []);
      const added = ((meta.finalizers as string[] | undefined) ?? []).filter(
        f => !before.has(f),
      );
      if (added.length) {
        causes.push({
          reason: 'FieldValueForbidden',
          message: `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map(f => JSON.stringify(f)).join(', ')}}`,
          field: 'metadata.finalizers',
        });
      }
    }
    this.prepareForUpdate(def, obj, old);
    if (isCrd(def)) {
      const prevSpec = (old as Obj).spec ?? {};
      const spec = obj.spec ?? {};
      if (prevSpec.group !== spec.group)
        causes.push(immutable('spec.group', spec.group));
      if (prevSpec.names?.plural !== spec.names?.plural)
        causes.push(immutable('spec.names.plural', spec.names?.plural));
    }
    causes.push(...this.validate(def, obj, old as Obj));
    if (causes.length) throw invalidError(def.kind, def.group, name, causes);
    if (isCrd(def))
      obj.status = acceptedCrdStatus(
        obj,
        this.timestamp(),
        (old as Obj).status,
      );

    if (this.hasGeneration(def) && specChanged(def, old, obj))
      meta.generation = (oldMeta.generation ?? 0) + 1;
    if (jsonEqual(withoutVolatile(obj), withoutVolatile(old)))
      return this.asVersion(old, def);
    if (opts.dryRun) return obj as StoredObject;

    const k = objKey(namespace, name);
    if (
      meta.deletionTimestamp &&
      !(meta.finalizers as string[] | undefined)?.length
    ) {
      return this.remove(def, state, k, old, obj as StoredObject);
    }
    meta.resourceVersion = String(++this.rv);
    state.objects.set(k, obj as StoredObject);
    if (isCrd(def)) this.applyCrd(obj);
    this.emit({
      type: 'MODIFIED',
      resource: def,
      object: structuredClone(obj as StoredObject),
      oldObject: old,
      rv: this.rv,
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
    const { def, state } = this.resolve(key);
    const k = objKey(def.namespaced ? namespace : undefined, name);
    const old = state.objects.get(k);
    if (!old) throw notFoundError(def, name);
    const pre = opts.preconditions;
    if (pre?.uid && pre.uid !== old.metadata.uid) {
      throw conflictError(
        def,
        name,
        `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${old.metadata.uid}`,
      );
    }
    if (
      pre?.resourceVersion &&
      pre.resourceVersion !== old.metadata.resourceVersion
    ) {
      throw conflictError(
        def,
        name,
        `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${old.metadata.resourceVersion}`,
      );
    }
    const terminating =
      isNamespace(def) || (old.metadata.finalizers?.length ?? 0) > 0;
    if (!terminating) {
      if (opts.dryRun) return this.asVersion(old, def);
      return this.remove(def, state, k, old, old);
    }
    if (old.metadata.deletionTimestamp) return this.asVersion(old, def);
    const obj = structuredClone(old) as Obj;
    obj.metadata.deletionTimestamp = this.timestamp();
    obj.metadata.deletionGracePeriodSeconds = 0;
    if (isNamespace(def))
      obj.status = { ...(obj.status ?? {}), phase: 'Terminating' };
    if (opts.dryRun) return this.asVersion(obj as StoredObject, def);
    obj.metadata.resourceVersion = String(++this.rv);
    state.objects.set(k, obj as StoredObject);
    this.emit({
      type: 'MODIFIED',
      resource: def,
      object: structuredClone(obj as StoredObject),
      oldObject: old,
      rv: this.rv,
    });
    if (isNamespace(def)) this.drainNamespace(name);
    return this.asVersion(state.objects.get(k) ?? (obj as StoredObject), def);
  }

  watch(
    fromRV: number | undefined,
    onEvent: (e: StoreEvent) => void,
  ): { stop(): void } {
    if (fromRV !== undefined && fromRV < this.oldest)
      throw expiredError(fromRV, this.oldest);
    const sub: Subscriber = { lastRV: fromRV ?? this.rv, onEvent };
    if (fromRV !== undefined) {
      for (const ev of this.history) {
        if (ev.rv <= sub.lastRV) continue;
        sub.lastRV = ev.rv;
        this.deliver(sub, ev);
      }
    }
    this.subscribers.add(sub);
    return { stop: () => this.subscribers.delete(sub) };
  }

  // --- internals -------------------------------------------------------------------------------

  private resolve(key: ResourceKey): {
    def: ResourceDefinition;
    state: TypeState;
  } {
    const state = this.types.get(typeKey(key));
    const def = state?.versions.get(key.version);
    if (!state || !def)
      throw new StoreError(
        404,
        'NotFound',
        'the server could not find the requested resource',
      );
    return { def, state };
  }

  private sorted(
    objects: StoredObject[],
    def: ResourceDefinition,
    namespace: string | undefined,
  ): StoredObject[] {
    return objects
      .filter(
        o =>
          !namespace || !def.namespaced || o.metadata.namespace === namespace,
      )
      .sort((a, b) =>
        objKey(a.metadata.namespace, a.metadata.name).localeCompare(
          objKey(b.metadata.namespace, b.metadata.name),
        ),
      )
      .map(o => this.asVersion(o, def));
  }

  /** Objects are stored once per group/plural; reading through another version only changes apiVersion (conversion "None"). */
  private asVersion(obj: StoredObject, def: ResourceDefinition): StoredObject {
    const copy = structuredClone(obj);
    copy.apiVersion = groupVersion(def);
    return copy;
  }

  private timestamp(): string {
    return this.now()
      .toISOString()
      .replace(/\.\d+Z$/, 'Z');
  }

  private hasGeneration(def: ResourceDefinition): boolean {
    // RBAC objects have no spec, and kube-apiserver gives them no generation
    return def.group !== '' && !isRbacResource(def);
  }

  private generateName(
    state: TypeState,
    def: ResourceDefinition,
    prefix: string,
    namespace?: string,
  ): string {
    for (let attempt = 0; attempt < 10; attempt++) {
      let suffix = '';
      for (let i = 0; i < 5; i++)
        suffix +=
          GENERATE_NAME_CHARS[
            Math.floor(Math.random() * GENERATE_NAME_CHARS.length)
          ];
      const name = `${prefix}${suffix}`;
      if (
        !state.objects.has(objKey(def.namespaced ? namespace : undefined, name))
      )
        return name;
    }
    throw Object.assign(alreadyExistsError(def, prefix), {});
  }

  private validate(def: ResourceDefinition, obj: Obj, old?: Obj): FieldCause[] {
    const causes = validateMetadata(obj.metadata, {
      nameIsLabel: isNamespace(def),
      nameIsPathSegment: isRbacResource(def),
    });
    causes.push(...rbacObjectCauses(def, obj, old));
    if (isCrd(def)) causes.push(...crdDefinitions(obj).causes);
    if (def.schema)
      causes.push(...this.validator.validate(def.schema, obj, old).causes);
    return causes;
  }

  private checkNamespace(
    def: ResourceDefinition,
    name: string,
    namespace: string,
  ): void {
    const ns = this.types
      .get(typeKey(NAMESPACE_RESOURCE))
      ?.objects.get(namespace);
    if (!ns) throw notFoundError(NAMESPACE_RESOURCE, namespace);
    if (ns.metadata.deletionTimestamp)
      throw namespaceTerminatingError(def, name, namespace);
  }

  /** Built-in kinds' create strategies (the parts clients observe). */
  private prepareForCreate(def: ResourceDefinition, obj: Obj): void {
    defaultRbacObject(def, obj);
    if (isNamespace(def)) obj.status = { phase: 'Active' };
    if (def.group === '' && def.plural === 'secrets') {
      obj.type ??= 'Opaque';
      mergeStringData(obj);
    }
    if (def.group === '' && def.plural === 'services') {
      obj.spec ??= {};
      obj.spec.type ??= 'ClusterIP';
      if (obj.spec.type !== 'ExternalName' && !obj.spec.clusterIP) {
        const n = this.rv + 1;
        obj.spec.clusterIP = `10.96.${(n >> 8) & 255}.${n & 255}`;
        obj.spec.clusterIPs = [obj.spec.clusterIP];
      }
      obj.status = { loadBalancer: {} };
    }
  }

  private prepareForUpdate(def: ResourceDefinition, obj: Obj, old: Obj): void {
    defaultRbacObject(def, obj);
    if (def.group === '' && def.plural === 'secrets') mergeStringData(obj);
    if (
      def.group === '' &&
      def.plural === 'services' &&
      old.spec?.clusterIP &&
      obj.spec &&
      !obj.spec.clusterIP
    ) {
      obj.spec.clusterIP = old.spec.clusterIP;
      obj.spec.clusterIPs = old.spec.clusterIPs;
    }
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
    if (isCrd(def)) this.unapplyCrd(old as Obj);
    const gone = structuredClone(last);
    gone.metadata.resourceVersion = String(++this.rv);
    this.emit({
      type: 'DELETED',
      resource: def,
      object: gone,
      oldObject: old,
      rv: this.rv,
    });
    if (isNamespace(def)) {
      // Only reachable once the namespace is empty (drainNamespace) – nothing else to do.
    } else if (def.namespaced && old.metadata.namespace) {
      this.finishNamespaceIfEmpty(old.metadata.namespace);
    }
    return this.asVersion(gone, def);
  }

  /** Namespace controller: delete every object in a terminating namespace, then the namespace when empty. */
  private drainNamespace(namespace: string): void {
    for (const [tk, state] of this.types) {
      const def = [...state.versions.values()][0];
      if (!def?.namespaced) continue;
      for (const obj of [...state.objects.values()]) {
        if (
          obj.metadata.namespace !== namespace ||
          obj.metadata.deletionTimestamp
        )
          continue;
        if (!this.types.has(tk)) break;
        this.delete(def, namespace, obj.metadata.name);
      }
    }
    this.finishNamespaceIfEmpty(namespace);
  }

  private finishNamespaceIfEmpty(namespace: string): void {
    const nsState = this.types.get(typeKey(NAMESPACE_RESOURCE));
    const ns = nsState?.objects.get(namespace);
    if (!nsState || !ns?.metadata.deletionTimestamp) return;
    for (const state of this.types.values()) {
      for (const obj of state.objects.values())
        if (obj.metadata.namespace === namespace) return;
    }
    this.remove(NAMESPACE_RESOURCE, nsState, namespace, ns, ns);
  }

  /** CRD controller: serve the CRD's versions, stop serving versions it no longer lists. */
  private applyCrd(crd: Obj): void {
    const { definitions } = crdDefinitions(crd);
    if (definitions.length === 0) return;
    const state = this.types.get(typeKey(definitions[0]));
    const served = new Set(definitions.map(d => d.version));
    for (const version of [...(state?.versions.keys() ?? [])]) {
      if (!served.has(version)) state!.versions.delete(version);
    }
    for (const def of definitions) this.defineResource(def);
  }

  private unapplyCrd(crd: Obj): void {
    const group = crd.spec?.group;
    const plural = crd.spec?.names?.plural;
    if (typeof group === 'string' && typeof plural === 'string')
      this.dropType({ group, plural });
  }

  private dropType(key: Pick<ResourceKey, 'group' | 'plural'>): void {
    const state = this.types.get(typeKey(key));
    if (!state) return;
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
    for (const obj of state.objects.values()) {
      const gone = structuredClone(obj);
      gone.metadata.resourceVersion = String(++this.rv);
      this.emit({
        type: 'DELETED',
        resource: def,
        object: gone,
        oldObject: obj,
        rv: this.rv,
      });
    }
  }

  private emit(ev: StoreEvent): void {
    this.history.push(ev);
    if (this.history.length > this.historyLimit) {
      const dropped = this.history.splice(
        0,
        this.history.length - this.historyLimit,
      );
      this.oldest = dropped[dropped.length - 1].rv;
    }
    this.queue.push(ev);
    if (this.dispatching) return; // a subscriber wrote while handling an event: keep RV order
    this.dispatching = true;
    try {
      while (this.queue.length) {
        const next = this.queue.shift()!;
        for (const sub of [...this.subscribers]) {
          if (next.rv <= sub.lastRV || !this.subscribers.has(sub)) continue;
          sub.lastRV = next.rv;
          this.deliver(sub, next);
        }
      }
    } finally {
      this.dispatching = false;
    }
  }

  private deliver(sub: Subscriber, ev: StoreEvent): void {
    try {
      sub.onEvent({ ...ev, object: structuredClone(ev.object) });
    } catch (err) {
      this.onSubscriberError(err);
    }
  }
}

function mergeStringData(obj: Obj): void {
  if (obj.stringData && typeof obj.stringData === 'object') {
    obj.data = { ...(obj.data ?? {}) };
    for (const [k, v] of Object.entries(obj.stringData))
      obj.data[k] = Buffer.from(String(v)).toString('base64');
  }
  delete obj.stringData;
}
