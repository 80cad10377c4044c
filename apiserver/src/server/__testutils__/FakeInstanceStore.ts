import type { DatabaseEngine, DatabaseInstance } from '@internal/plugin-databases-common';
import {
  ResourceVersionExpiredError,
  type InstanceEvent,
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
  private history: InstanceEvent[] = [];
  /** Events with RV ≤ this were dropped from history. */
  private compactedRv = 0n;
  private readonly watchers = new Set<(e: InstanceEvent) => void>();
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
  list(namespace?: string) {
    return [...this.objects.values()]
      .filter(o => namespace === undefined || o.metadata.namespace === namespace)
      .sort((a, b) => key(a.metadata.namespace, a.metadata.name).localeCompare(key(b.metadata.namespace, b.metadata.name)));
  }
  get(namespace: string, name: string) {
    return this.objects.get(key(namespace, name));
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

  /** Advances the RV without an instance event (a related object changed). */
  bump() {
    this.rv++;
  }

  /** Creates or replaces an instance; assigns a new RV and emits ADDED or MODIFIED. */
  upsert(obj: DatabaseInstance): DatabaseInstance {
    this.rv++;
    const rv = this.rv.toString();
    const stored: DatabaseInstance = { ...obj, metadata: { ...obj.metadata, resourceVersion: rv } };
    const k = key(obj.metadata.namespace, obj.metadata.name);
    const old = this.objects.get(k);
    this.objects.set(k, stored);
    this.emit({ type: old ? 'MODIFIED' : 'ADDED', object: stored, oldObject: old, resourceVersion: rv });
    return stored;
  }

  /** Deletes an instance; the DELETED event carries the deletion's RV. */
  remove(namespace: string, name: string) {
    const k = key(namespace, name);
    const old = this.objects.get(k);
    if (!old) throw new Error(`no ${k}`);
    this.rv++;
    const rv = this.rv.toString();
    this.objects.delete(k);
    this.emit({
      type: 'DELETED',
      object: { ...old, metadata: { ...old.metadata, resourceVersion: rv } },
      oldObject: old,
      resourceVersion: rv,
    });
  }

  private emit(e: InstanceEvent) {
    this.history.push(e);
    for (const w of [...this.watchers]) w(e);
  }
}
