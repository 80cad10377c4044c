import type { DatabaseEngine, DatabaseInstance } from '@internal/plugin-databases-common';
import {
  ResourceVersionExpiredError,
  type InstanceEvent,
  type InstanceSource,
  type InstanceStore,
  type WatchSubscription,
} from '../../cache/types';

const key = (ns: string | undefined, name: string | undefined) => `${ns ?? ''}/${name ?? ''}`;

/**
 * In-memory InstanceStore for HTTP tests: one RV counter, a history that can be compacted, and
 * synchronous delivery to watchers in RV order (as the contract asks of the real store).
 */
export class FakeInstanceStore implements InstanceStore {
  private rv = 100n;
  private readonly objects = new Map<string, DatabaseInstance>();
  /** Operator objects by served name, for instances upserted with one. */
  private readonly sources = new Map<string, InstanceSource>();
  /** Extra operator objects holding a name without being served (another engine's claim). */
  readonly extraClaims = new Map<string, InstanceSource[]>();
  private history: InstanceEvent[] = [];
  /** Events with RV ≤ this were dropped from history. */
  private compactedRv = 0n;
  private readonly watchers = new Set<(e: InstanceEvent) => void>();
  private readonly appliedListeners = new Set<() => void>();

  onApplied(listener: () => void): () => void {
    this.appliedListeners.add(listener);
    return () => this.appliedListeners.delete(listener);
  }

  /** Tells waiting requests that the store changed (the real store does so after each batch). */
  applied() {
    for (const listener of [...this.appliedListeners]) listener();
  }
  private expireNext = 0;
  /** How many watch calls were refused with ResourceVersionExpiredError. */
  expiredWatches = 0;
  synced = true;
  engineList: DatabaseEngine[] = [];
  problemList: string[] = [];
  /** Every fromResourceVersion `watch` was called with. */
  readonly watchCalls: Array<string | undefined> = [];

  hasSynced() {
    return this.synced;
  }
  resourceVersion() {
    return this.rv.toString();
  }
  /** Like the real store's index: one shared array per namespace until something changes. */
  private readonly lists = new Map<string | undefined, DatabaseInstance[]>();
  list(namespace?: string) {
    let listed = this.lists.get(namespace);
    if (!listed) {
      listed = [...this.objects.values()]
        .filter(o => namespace === undefined || o.metadata.namespace === namespace)
        .sort((a, b) => key(a.metadata.namespace, a.metadata.name).localeCompare(key(b.metadata.namespace, b.metadata.name)));
      this.lists.set(namespace, listed);
    }
    return listed;
  }
  get(namespace: string, name: string) {
    return this.objects.get(key(namespace, name));
  }
  source(namespace: string, name: string) {
    return this.sources.get(key(namespace, name));
  }
  claims(namespace: string, name: string) {
    const own = this.sources.get(key(namespace, name));
    return [...(own ? [own] : []), ...(this.extraClaims.get(key(namespace, name)) ?? [])];
  }
  engines() {
    return this.engineList;
  }
  problems() {
    return this.problemList;
  }
  watchers_count() {
    return this.watchers.size;
  }

  watch(from: string | undefined, onEvent: (e: InstanceEvent) => void): WatchSubscription {
    this.watchCalls.push(from);
    if (this.expireNext > 0) {
      this.expireNext--;
      this.expiredWatches++;
      throw new ResourceVersionExpiredError(from ?? '', this.compactedRv.toString());
    }
    if (from !== undefined) {
      if (BigInt(from) < this.compactedRv) {
        this.expiredWatches++;
        throw new ResourceVersionExpiredError(from, this.compactedRv.toString());
      }
      for (const e of this.history) if (BigInt(e.resourceVersion) > BigInt(from)) onEvent(e);
    }
    this.watchers.add(onEvent);
    return { stop: () => this.watchers.delete(onEvent) };
  }

  /** Makes the next `count` watch calls throw ResourceVersionExpiredError. */
  expireNextWatch(count = 1) {
    this.expireNext = count;
  }

  /** Forgets history up to the current RV (watches from older RVs then get 410). */
  compact() {
    this.history = [];
    this.compactedRv = this.rv;
  }

  /** The source RV each served instance was built from (newer than its own after `changeUnserved`). */
  private readonly builtFrom = new Map<string, string>();
  builtFromRv(namespace: string, name: string) {
    return this.builtFrom.get(key(namespace, name));
  }

  /**
   * The operator object changes in a way nothing served shows (the apiserver's own record of
   * the Ready spec): it takes a new RV, the instance keeps its own and no event goes out.
   */
  changeUnserved(namespace: string, name: string, object: InstanceSource['object']): InstanceSource['object'] {
    const k = key(namespace, name);
    const rv = (++this.rv).toString();
    const stored = { ...object, metadata: { ...object.metadata, resourceVersion: rv } };
    this.sources.set(k, { ...this.sources.get(k)!, object: stored });
    this.builtFrom.set(k, rv);
    this.applied();
    return stored;
  }

  /** Advances the RV without an instance event (a related object changed). */
  bump() {
    this.rv++;
    this.applied();
  }

  /**
   * Creates or replaces an instance; assigns a new RV and emits ADDED or MODIFIED. With a
   * `source`, its object gets the same RV and is served by `source()`.
   */
  upsert(obj: DatabaseInstance, source?: InstanceSource, atRv?: string): DatabaseInstance {
    if (atRv === undefined) this.rv++;
    const rv = atRv ?? this.rv.toString();
    const stored: DatabaseInstance = { ...obj, metadata: { ...obj.metadata, resourceVersion: rv } };
    const k = key(obj.metadata.namespace, obj.metadata.name);
    if (source) this.builtFrom.set(k, rv);
    else this.builtFrom.delete(k);
    if (source) {
      this.sources.set(k, { ...source, object: { ...source.object, metadata: { ...source.object.metadata, resourceVersion: rv } } });
    }
    const old = this.objects.get(k);
    this.objects.set(k, stored);
    this.lists.clear();
    this.emit({ type: old ? 'MODIFIED' : 'ADDED', object: stored, oldObject: old, resourceVersion: rv });
    this.applied();
    return stored;
  }

  /** Takes the next RV without an event (a write the cache has not projected yet). */
  nextRv(): string {
    this.rv++;
    this.applied();
    return this.rv.toString();
  }

  /** Serves `source` for `namespace/name` before its instance changes (the informer is ahead of the projection). */
  setSource(namespace: string, name: string, source: InstanceSource) {
    this.sources.set(key(namespace, name), source);
    this.applied();
  }

  /** Deletes an instance; the DELETED event carries the deletion's RV. */
  remove(namespace: string, name: string) {
    const k = key(namespace, name);
    const old = this.objects.get(k);
    if (!old) throw new Error(`no ${k}`);
    this.rv++;
    const rv = this.rv.toString();
    this.objects.delete(k);
    this.lists.clear();
    this.sources.delete(k);
    this.emit({
      type: 'DELETED',
      object: { ...old, metadata: { ...old.metadata, resourceVersion: rv } },
      oldObject: old,
      resourceVersion: rv,
    });
    this.applied();
  }

  private emit(e: InstanceEvent) {
    this.history.push(e);
    for (const w of [...this.watchers]) w(e);
  }
}
