import { randomUUID } from 'node:crypto';
import type { KubeObject, OperatorAdapter, ResourceType, SourceKind } from '../../adapters/types';
import { resourceName } from '../../kube/resourcePath';
import { KubeHttpError } from '../../kube/kubeRequest';
import type { KubeDeleteOptions, KubeWriter } from '../../kube/KubeWriter';
import { applyMergePatch } from '../mutate/mergePatch';
import type { FakeInstanceStore } from './FakeInstanceStore';

/** One recorded call. */
export interface WriterCall {
  verb: 'create' | 'mergePatch' | 'mergePatchStatus' | 'delete' | 'get' | 'list';
  /** `plural.group`, e.g. `mariadbs.k8s.mariadb.com`, `secrets`. */
  resource: string;
  namespace: string;
  name: string;
  body?: unknown;
}

const kubeStatus = (code: number, reason: string, message: string) =>
  new KubeHttpError(code, { kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message });

/**
 * A KubeWriter that is a tiny kube-apiserver: it keeps objects, assigns uids and
 * resourceVersions, answers 404/409 like kube-apiserver, and projects every operator object
 * through its adapter into the FakeInstanceStore synchronously (the watch cache at once),
 * sharing the store's RV counter. Records every call; `fail` injects errors.
 */
export class FakeKubeWriter implements KubeWriter {
  readonly calls: WriterCall[] = [];
  readonly objects = new Map<string, KubeObject>();
  /** Return an error to make a call fail (before it has any effect). */
  fail: (call: WriterCall) => unknown = () => undefined;
  /** Delay of every call (to let concurrent requests overlap). */
  delayMs = 0;
  /** How long after a write the store serves the re-projected instance (0 = at once). */
  projectionLagMs = 0;

  constructor(
    private readonly store: FakeInstanceStore,
    private readonly adapters: readonly OperatorAdapter[],
  ) {}

  private key(type: ResourceType, ns: string, name: string) {
    return `${resourceName(type)}|${ns}/${name}`;
  }

  private sourceKind(type: ResourceType): { adapter: OperatorAdapter; kind: SourceKind } | undefined {
    for (const adapter of this.adapters) {
      const kind = adapter.kinds.find(k => k.group === type.group && k.plural === type.plural);
      if (kind) return { adapter, kind };
    }
    return undefined;
  }

  /** Stores an object and (for operator kinds) projects it into the store. */
  private save(type: ResourceType, obj: KubeObject): KubeObject {
    const ns = obj.metadata?.namespace ?? '';
    const name = obj.metadata?.name ?? '';
    const found = this.sourceKind(type);
    let stored = obj;
    if (found) {
      const instance = found.adapter.project(obj, found.kind, { get: () => undefined });
      if (this.projectionLagMs > 0) {
        // like the real cache: the informer has the object at once, the served instance later
        const rv = this.store.nextRv();
        stored = { ...obj, metadata: { ...obj.metadata, resourceVersion: rv } };
        this.store.setSource(ns, name, { object: stored, ...found });
        setTimeout(() => this.store.upsert(instance, { object: stored, ...found }, rv), this.projectionLagMs);
      } else {
        const served = this.store.upsert(instance, { object: obj, ...found });
        stored = { ...obj, metadata: { ...obj.metadata, resourceVersion: served.metadata.resourceVersion } };
      }
    } else {
      this.store.bump();
      stored = { ...obj, metadata: { ...obj.metadata, resourceVersion: this.store.resourceVersion() } };
    }
    this.objects.set(this.key(type, ns, name), stored);
    return JSON.parse(JSON.stringify(stored));
  }

  /** Changes an object in a way no served instance shows (see FakeInstanceStore.changeUnserved). */
  changeUnserved(type: ResourceType, namespace: string, name: string, change: (object: KubeObject) => KubeObject): void {
    const k = this.key(type, namespace, name);
    this.objects.set(k, this.store.changeUnserved(namespace, name, change(this.objects.get(k)!)));
  }

  /** Puts an object in place without recording a call (a cluster's existing state). */
  seed(type: ResourceType, obj: KubeObject): KubeObject {
    return this.save(type, {
      ...obj,
      metadata: { uid: randomUUID(), creationTimestamp: '2025-01-01T00:00:00Z', generation: 1, ...obj.metadata },
    });
  }

  private async enter(call: WriterCall) {
    this.calls.push(call);
    if (this.delayMs) await new Promise(r => setTimeout(r, this.delayMs));
    const err = this.fail(call);
    if (err) throw err;
  }

  async create(type: ResourceType, obj: KubeObject): Promise<KubeObject> {
    const ns = obj.metadata?.namespace ?? '';
    const name = obj.metadata?.name ?? '';
    await this.enter({ verb: 'create', resource: resourceName(type), namespace: ns, name, body: obj });
    if (this.objects.has(this.key(type, ns, name))) {
      throw kubeStatus(409, 'AlreadyExists', `${resourceName(type)} "${name}" already exists`);
    }
    return this.save(type, {
      ...obj,
      metadata: { ...obj.metadata, uid: randomUUID(), creationTimestamp: '2025-06-01T00:00:00Z', generation: 1 },
    });
  }

  async mergePatch(type: ResourceType, namespace: string, name: string, patchIn: any, subresource?: 'status'): Promise<KubeObject> {
    await this.enter({ verb: subresource ? 'mergePatchStatus' : 'mergePatch', resource: resourceName(type), namespace, name, body: patchIn });
    // as for a CRD with the status subresource: the object's patch leaves status alone, the
    // status patch touches only status
    const { status, ...rest } = (patchIn ?? {}) as Record<string, unknown>;
    const patch: any = subresource ? { metadata: rest.metadata, status } : rest;
    const current = this.objects.get(this.key(type, namespace, name));
    if (!current) throw kubeStatus(404, 'NotFound', `${resourceName(type)} "${name}" not found`);
    const rv = patch?.metadata?.resourceVersion;
    if (rv !== undefined && rv !== current.metadata?.resourceVersion) {
      throw kubeStatus(409, 'Conflict', `Operation cannot be fulfilled on ${resourceName(type)} "${name}": the object has been modified`);
    }
    const next = applyMergePatch(current, patch) as KubeObject;
    const specChanged = JSON.stringify(next.spec) !== JSON.stringify(current.spec);
    return this.save(type, {
      ...next,
      metadata: { ...next.metadata, generation: (current.metadata?.generation ?? 1) + (specChanged ? 1 : 0) },
    });
  }

  async delete(type: ResourceType, namespace: string, name: string, options?: KubeDeleteOptions): Promise<KubeObject | undefined> {
    await this.enter({ verb: 'delete', resource: resourceName(type), namespace, name, body: options });
    const key = this.key(type, namespace, name);
    const current = this.objects.get(key);
    if (!current) throw kubeStatus(404, 'NotFound', `${resourceName(type)} "${name}" not found`);
    const uid = options?.preconditions?.uid;
    if (uid && uid !== current.metadata?.uid) {
      throw kubeStatus(409, 'Conflict', `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${current.metadata?.uid}`);
    }
    const rv = options?.preconditions?.resourceVersion;
    if (rv && rv !== current.metadata?.resourceVersion) {
      throw kubeStatus(409, 'Conflict', `Precondition failed: ResourceVersion in precondition: ${rv}, ResourceVersion in object meta: ${current.metadata?.resourceVersion}`);
    }
    if ((current.metadata?.finalizers as string[] | undefined)?.length) {
      return this.save(type, { ...current, metadata: { ...current.metadata, deletionTimestamp: '2025-06-02T00:00:00Z' } });
    }
    this.objects.delete(key);
    if (this.sourceKind(type)) this.store.remove(namespace, name);
    return JSON.parse(JSON.stringify(current));
  }

  async get(type: ResourceType, namespace: string, name: string): Promise<KubeObject | undefined> {
    await this.enter({ verb: 'get', resource: resourceName(type), namespace, name });
    const obj = this.objects.get(this.key(type, namespace, name));
    return obj && JSON.parse(JSON.stringify(obj));
  }

  async list(type: ResourceType, namespace: string, labels: Record<string, string>, limit: number): Promise<KubeObject[]> {
    await this.enter({ verb: 'list', resource: resourceName(type), namespace, name: '', body: labels });
    const prefix = `${resourceName(type)}|${namespace}/`;
    return [...this.objects.entries()]
      .filter(([k, o]) => k.startsWith(prefix) && Object.entries(labels).every(([l, v]) => o.metadata?.labels?.[l] === v))
      .slice(0, limit)
      .map(([, o]) => JSON.parse(JSON.stringify(o)));
  }

  /** The cluster's object now, without recording a call. */
  objectOf(type: ResourceType, namespace: string, name: string): KubeObject | undefined {
    const obj = this.objects.get(this.key(type, namespace, name));
    return obj && JSON.parse(JSON.stringify(obj));
  }

  /**
   * A write this replica's cache has not seen yet (another replica's, the operator's): the
   * cluster's object changes and gets a new resourceVersion; the store keeps the old one.
   */
  changeBehindCache(type: ResourceType, namespace: string, name: string, change: (obj: KubeObject) => void): void {
    const key = this.key(type, namespace, name);
    const obj = JSON.parse(JSON.stringify(this.objects.get(key))) as KubeObject;
    change(obj);
    this.store.bump();
    obj.metadata = { ...obj.metadata, resourceVersion: this.store.resourceVersion() };
    this.objects.set(key, obj);
  }

  /** Calls other than reads (what a dry run must not make). */
  writes(): WriterCall[] {
    return this.calls.filter(c => c.verb !== 'get' && c.verb !== 'list');
  }
}
