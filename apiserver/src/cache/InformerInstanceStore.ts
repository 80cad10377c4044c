import { createHash } from 'node:crypto';
import {
  applyRolloutMemory,
  storedRollout,
  type RolloutMemory,
} from '../status/rolloutMemory';
import type {
  DatabaseEngine,
  DatabaseInstance,
} from '@internal/plugin-databases-common';
import type {
  KubeObject,
  OperatorAdapter,
  RelatedLookup,
  ResourceType,
  SourceKind,
} from '../adapters/types';
import type { EngineConfig } from '../engines';
import { resourceName } from '../kube/resourcePath';
import { EventHistory } from './EventHistory';
import { InstanceIndex } from './InstanceIndex';
import { ManagedInformer, type InformerBackoff } from './ManagedInformer';
import { CRD_TYPE, crdServesKind } from './crdServesKind';
import { STALE_CONDITION, staleCondition } from './staleCondition';
import type { InformerFactory } from './ResourceInformer';
import { isNewer, maxResourceVersion, rvToBigInt } from './resourceVersion';
import {
  nameConflictCondition,
  servedNames,
  type NameClaim,
} from './servedNames';
import type {
  InstanceEvent,
  InstanceSource,
  InstanceStore,
  WatchSubscription,
} from './types';
import { coalesceByRv } from './coalesceByRv';
import { engineList } from './engineList';
import { fallbackInstance } from './fallbackInstance';
import { StaleTracker } from './StaleTracker';
import { LateChanges, type PendingChange } from './LateChanges';
import { claimKey, compareRv, objectKey, splitOnce, typeKey, withRv } from './storeKeys';

export interface InformerInstanceStoreOptions {
  adapters: readonly OperatorAdapter[];
  informerFactory: InformerFactory;
  /** Watch history bounds (contract §7.4 asks for at least 5 minutes). */
  historyMaxEvents?: number;
  historyMaxAgeSeconds?: number;
  /**
   * Changes arriving within this window are applied together, in resourceVersion order
   * (informers of different types deliver independently, so their events interleave).
   * Default 5 ms: watch streams of one kube-apiserver deliver a change within a millisecond or
   * two of each other, every millisecond here is added to each watcher's latency, and a change
   * arriving later than the window loses nothing (it goes out with the next newer RV).
   */
  batchWindowMs?: number;
  restartBackoff?: InformerBackoff;
  /**
   * How long a watch must have been failing before the instances built from it carry the
   * `Stale` condition (default 3 s): a connection reset that resumes at once is no news.
   */
  staleAfterMs?: number;
  /** The platform team's versions and sizes per engine (`--engine-config`); default: none. */
  engineConfig?: EngineConfig;
  now?: () => number;
  logger?: {
    info(msg: string, meta?: object): void;
    warn(msg: string, meta?: object): void;
  };
}


interface SourceEntry {
  key: string;
  adapter: OperatorAdapter;
  kind: SourceKind;
  namespace: string;
  name: string;
  relatedKeys: string[];
}

interface ServedInstance {
  instance: DatabaseInstance;
  /** Digest of the projection without resourceVersion, to tell real changes from re-deliveries. */
  fingerprint: string;
  /** Largest RV among the objects it was built from. */
  baseRv: string;
  sourceKey: string;
  /** The source's ready-spec annotation it was built with (see ReadySpecRecorder). */
  readySpec?: string;
  /** The source object's resourceVersion it was built from. */
  sourceRv?: string;
}

interface SourceInformer {
  managed: ManagedInformer;
  adapter: OperatorAdapter;
  kind: SourceKind;
}

/**
 * The InstanceStore fed by client-node informers: one per installed operator kind, one per
 * related type (e.g. apps/v1 StatefulSets) and one over CRDs, which starts and stops the
 * operator informers as CRDs appear and disappear.
 *
 * resourceVersions: an instance's RV is the largest Kubernetes RV among its source object and
 * related objects, so RVs stay comparable across replicas and restarts. Events must reach
 * watchers in non-decreasing RV order although informers deliver independently: changes are
 * batched for `batchWindowMs` and applied sorted by RV; a change that arrives later than the
 * window, after a newer change went out, goes out with the next newer RV (LateChanges).
 * Events of one change (e.g. a rename caused by a name collision) share its RV.
 */
export class InformerInstanceStore implements InstanceStore {
  private readonly now: () => number;
  private readonly backoff: InformerBackoff;
  private readonly batchWindowMs: number;
  private readonly history: EventHistory;
  private readonly crdInformer: ManagedInformer;
  private readonly relatedInformers = new Map<string, ManagedInformer>();
  private readonly sourceInformers = new Map<string, SourceInformer>();
  /** CRD name (`plural.group`) → operator kinds it defines. */
  private readonly kindsByCrd = new Map<
    string,
    Array<{ adapter: OperatorAdapter; kind: SourceKind }>
  >();
  private readonly entries = new Map<string, SourceEntry>();
  /** Per source object: what this replica saw of its rollouts (see applyRolloutMemory). */
  private readonly rollouts = new Map<string, RolloutMemory>();
  private readonly nameClaims = new Map<string, Set<string>>();
  private readonly reverse = new Map<string, Set<string>>();
  private readonly groupServed = new Map<string, Map<string, ServedInstance>>();
  private readonly served = new Map<string, Map<string, ServedInstance>>();
  private readonly index = new InstanceIndex(
    ns => [...(this.served.get(ns)?.values() ?? [])].map(s => s.instance),
    () => this.served.keys(),
  );
  private readonly conflictSince = new Map<string, string>();
  private readonly watchers = new Set<(e: InstanceEvent) => void>();
  private readonly staleness: StaleTracker;
  private pending: PendingChange[] = [];
  /** Late changes held back for a newer RV (see LateChanges.restamp). */
  private readonly late = new LateChanges(() => {
    if (!this.flushTimer) this.flush();
  });
  /** While a batch is applied: the source object as the change being applied delivered it. */
  private asOf: { key: string; obj: KubeObject | undefined } | undefined;
  /**
   * While a batch is applied: per object with changes still to come, its state as of the last
   * of its changes applied. Informers hold the newest state already; read before its turn, it
   * would show a later state at an earlier RV and hide the states in between.
   */
  private appliedSoFar: Map<string, KubeObject | undefined> | undefined;
  private flushTimer: NodeJS.Timeout | undefined;
  /**
   * While a batch is applied: per object, how many of its changes are still to be applied.
   * A projection reads every other object as it is now; the RV of one whose changes are still
   * to come belongs to those changes' events, not to this one.
   */
  private stillToCome: Map<string, number> | undefined;
  /** The events of the flush in progress, sent when it ends (see coalesceByRv). */
  private flushed: InstanceEvent[] | undefined;
  private readonly appliedListeners = new Set<() => void>();
  private lastRv = '0';
  /** Largest list resourceVersion seen: the cluster's RV when our view became complete. */
  private listedRv = '0';
  private synced = false;
  private started = false;
  private readonly syncWaiters: Array<() => void> = [];

  constructor(private readonly options: InformerInstanceStoreOptions) {
    this.now = options.now ?? Date.now;
    this.backoff = options.restartBackoff ?? { initialMs: 1000, maxMs: 30_000 };
    this.batchWindowMs = options.batchWindowMs ?? 5;
    this.staleness = new StaleTracker({
      restale: informer => this.restale(informer),
      noteProgress: () => this.noteProgress(),
      now: this.now,
      staleAfterMs: options.staleAfterMs ?? 3000,
      logger: options.logger,
    });
    this.history = new EventHistory(
      {
        maxEvents: options.historyMaxEvents ?? 10_000,
        maxAgeMs: (options.historyMaxAgeSeconds ?? 600) * 1000,
      },
      this.now,
    );
    for (const adapter of options.adapters) {
      for (const kind of adapter.kinds) {
        const list = this.kindsByCrd.get(resourceName(kind)) ?? [];
        list.push({ adapter, kind });
        this.kindsByCrd.set(resourceName(kind), list);
      }
      for (const type of adapter.relatedTypes) {
        if (!this.relatedInformers.has(typeKey(type))) {
          this.relatedInformers.set(
            typeKey(type),
            this.makeRelatedInformer(type),
          );
        }
      }
    }
    this.crdInformer = new ManagedInformer({
      type: CRD_TYPE,
      factory: options.informerFactory,
      backoff: this.backoff,
      logger: options.logger,
      onAdd: crd => this.crdChanged(crd, false),
      onUpdate: crd => this.crdChanged(crd, false),
      onDelete: crd => this.crdChanged(crd, true),
      onListed: rv => this.noteListed(rv),
      onProgress: () => this.noteProgress(),
      onHealthChange: failing => this.staleness.healthChanged(this.crdInformer, failing),
    });
  }

  /** Starts the CRD and related informers; operator informers follow their CRDs. */
  start(): void {
    if (this.started) {
      return;
    }
    this.started = true;
    this.crdInformer.start();
    for (const informer of this.relatedInformers.values()) {
      informer.start();
    }
  }

  /** Stops every informer and timer and drops the watchers. */
  stop(): void {
    this.started = false;
    clearTimeout(this.flushTimer);
    this.late.stop();
    this.staleness.stop();
    this.crdInformer.stop();
    for (const informer of this.relatedInformers.values()) {
      informer.stop();
    }
    for (const { managed } of this.sourceInformers.values()) {
      managed.stop();
    }
    this.sourceInformers.clear();
    this.watchers.clear();
  }

  /** Resolves once `hasSynced()` is true. */
  whenSynced(): Promise<void> {
    return this.synced
      ? Promise.resolve()
      : new Promise(r => this.syncWaiters.push(r));
  }

  hasSynced(): boolean {
    return this.synced;
  }

  resourceVersion(): string {
    return this.synced ? this.lastRv : '0';
  }

  list(namespace?: string): DatabaseInstance[] {
    return this.index.list(namespace);
  }

  listByLabel(key: string, value: string, namespace?: string): DatabaseInstance[] {
    return this.index.withLabel(key, value, namespace);
  }

  get(namespace: string, name: string): DatabaseInstance | undefined {
    return this.served.get(namespace)?.get(name)?.instance;
  }

  source(namespace: string, name: string): InstanceSource | undefined {
    const served = this.served.get(namespace)?.get(name);
    return served ? this.sourceOfKey(served.sourceKey) : undefined;
  }

  /**
   * The resourceVersion of the operator object the served `namespace/name` was last built from.
   * It can be newer than the instance's own: a change only the apiserver's record of the Ready
   * spec made is not served (see recomputeGroup).
   */
  builtFromRv(namespace: string, name: string): string | undefined {
    return this.served.get(namespace)?.get(name)?.sourceRv;
  }

  preview(namespace: string, name: string, object: KubeObject): DatabaseInstance | undefined {
    const served = this.served.get(namespace)?.get(name);
    const entry = served && this.entries.get(served.sourceKey);
    if (!entry) return undefined;
    try {
      // a spec change bumps metadata.generation, which operators then report not yet observed
      const current = this.sourceObject(entry.key).obj;
      const generation = current?.metadata?.generation;
      const next =
        typeof generation === 'number' && JSON.stringify(current?.spec) !== JSON.stringify(object.spec)
          ? { ...object, metadata: { ...object.metadata, generation: generation + 1 } }
          : object;
      const projected = entry.adapter.project(next, entry.kind, this.relatedLookup());
      const { instance } = applyRolloutMemory(this.rollouts.get(entry.key), projected, storedRollout(next));
      return { ...instance, metadata: { ...instance.metadata, name, namespace } };
    } catch {
      return undefined; // the caller projects the object alone, and answers its error
    }
  }

  claims(namespace: string, name: string): InstanceSource[] {
    return [...(this.nameClaims.get(claimKey(namespace, name)) ?? [])]
      .map(key => this.sourceOfKey(key))
      .filter((s): s is InstanceSource => s !== undefined);
  }

  private sourceOfKey(key: string): InstanceSource | undefined {
    const entry = this.entries.get(key);
    const object = this.sourceObject(key).obj;
    return entry && object
      ? { object, adapter: entry.adapter, kind: entry.kind }
      : undefined;
  }

  watch(
    fromResourceVersion: string | undefined,
    onEvent: (event: InstanceEvent) => void,
  ): WatchSubscription {
    const from =
      fromResourceVersion && fromResourceVersion !== '0'
        ? fromResourceVersion
        : undefined;
    const replay = from !== undefined ? this.history.since(from) : [];
    for (const event of replay) {
      onEvent(event);
    }
    // Live events are all news to this watcher, except when it resumes from an RV this
    // replica has not reached yet (it saw those changes elsewhere). Filtering by RV in the
    // other case would drop events whose RV was raised to the last emitted one.
    const floor =
      from !== undefined && isNewer(from, this.lastRv)
        ? rvToBigInt(from)
        : undefined;
    const watcher = (event: InstanceEvent) => {
      if (floor === undefined || rvToBigInt(event.resourceVersion) > floor) {
        onEvent(event);
      }
    };
    this.watchers.add(watcher);
    return { stop: () => this.watchers.delete(watcher) };
  }

  engines(): DatabaseEngine[] {
    return engineList({
      adapters: this.options.adapters,
      installed: kind => this.sourceInformers.has(typeKey(kind)),
      crdCreated: kind => this.crdInformer.informer.get(resourceName(kind))?.metadata?.creationTimestamp,
      instances: (function* (store: InformerInstanceStore) {
        for (const s of store.servedInstances())
          yield { adapter: store.entries.get(s.sourceKey)?.adapter, phase: s.instance.status?.phase };
      })(this),
      resourceVersion: this.resourceVersion(),
      engineConfig: this.options.engineConfig,
    });
  }

  problems(): string[] {
    return this.allInformers()
      .map(i => i.problem())
      .filter((p): p is string => !!p);
  }

  /**
   * Since when (ms since epoch) some instances carry the `Stale` condition because a watch they
   * are built from has been failing for longer than `staleAfterMs`; undefined when none does.
   */
  staleSince(): number | undefined {
    return this.staleness.since();
  }

  /** How many watches of the Kubernetes API are failing, out of how many, and since when. */
  watchHealth(): { failing: number; total: number; since?: number } {
    const informers = this.allInformers();
    const since = informers
      .map(i => i.failingSinceMs())
      .filter((t): t is number => t !== undefined);
    return {
      failing: since.length,
      total: informers.length,
      ...(since.length ? { since: Math.min(...since) } : {}),
    };
  }

  private allInformers(): ManagedInformer[] {
    return [
      this.crdInformer,
      ...this.relatedInformers.values(),
      ...[...this.sourceInformers.values()].map(s => s.managed),
    ];
  }

  private *servedInstances(): Iterable<ServedInstance> {
    for (const byName of this.served.values()) {
      yield* byName.values();
    }
  }

  // ---- informer plumbing -------------------------------------------------------------------

  private makeRelatedInformer(type: ResourceType): ManagedInformer {
    let managed: ManagedInformer | undefined = undefined;
    const changed = (obj: KubeObject, deleted = false) => {
      const key = objectKey(
        type,
        obj.metadata?.namespace ?? '',
        obj.metadata?.name ?? '',
      );
      const dependents = this.reverse.get(key);
      if (dependents?.size) {
        this.enqueue(obj.metadata?.resourceVersion, [...dependents], {
          key,
          obj: deleted ? undefined : obj,
        });
      }
    };
    managed = new ManagedInformer({
      type,
      factory: this.options.informerFactory,
      backoff: this.backoff,
      logger: this.options.logger,
      onAdd: obj => changed(obj),
      onUpdate: obj => changed(obj),
      onDelete: obj => changed(obj, true),
      onListed: rv => this.noteListed(rv),
      onProgress: () => this.noteProgress(),
      onHealthChange: failing => this.staleness.healthChanged(managed!, failing),
    });
    return managed;
  }

  private crdChanged(crd: KubeObject, deleted: boolean): void {
    const kinds = this.kindsByCrd.get(crd.metadata?.name ?? '');
    for (const { adapter, kind } of kinds ?? []) {
      const serves = !deleted && crdServesKind(crd, kind);
      const running = this.sourceInformers.get(typeKey(kind));
      if (serves && !running) {
        this.options.logger?.info('Operator kind installed, watching it', {
          kind: resourceName(kind),
        });
        const changed = (obj: KubeObject, gone = false) =>
          this.enqueue(
            obj.metadata?.resourceVersion,
            [
              objectKey(
                kind,
                obj.metadata?.namespace ?? '',
                obj.metadata?.name ?? '',
              ),
            ],
            // a deletion's snapshot is the object's absence: a re-created object's first
            // states in the same batch then follow its DELETED at their own RVs
            { key: '', obj: gone ? undefined : obj },
          );
        const managed: ManagedInformer = new ManagedInformer({
          type: kind,
          factory: this.options.informerFactory,
          backoff: this.backoff,
          logger: this.options.logger,
          onAdd: obj => changed(obj),
          onUpdate: obj => changed(obj),
          onDelete: obj => changed(obj, true),
          onListed: rv => this.noteListed(rv),
          onProgress: () => this.noteProgress(),
          onHealthChange: failing => this.staleness.healthChanged(managed, failing),
        });
        this.sourceInformers.set(typeKey(kind), { managed, adapter, kind });
        if (this.started) {
          managed.start();
        }
      } else if (!serves && running) {
        this.options.logger?.info(
          'Operator kind no longer served, dropping it',
          { kind: resourceName(kind) },
        );
        running.managed.stop();
        this.staleness.forget(running.managed);
        this.sourceInformers.delete(typeKey(kind));
        const prefix = `${typeKey(kind)}|`;
        const gone = [...this.entries.keys()].filter(k => k.startsWith(prefix));
        if (gone.length) {
          this.enqueue(crd.metadata?.resourceVersion, gone);
        }
      }
    }
  }

  /**
   * A watch bookmark moved an informer's progress: once every informer has delivered
   * everything up to some RV, our resourceVersion can move there too (at the next flush), so
   * lists and watch bookmarks carry a recent cluster RV even when no instance changes. A
   * client holding it resumes on any replica whose history reaches back that far.
   */
  private noteProgress(): void {
    if (this.synced && !this.flushTimer) {
      this.flushTimer = setTimeout(() => this.flush(), this.batchWindowMs);
      this.flushTimer.unref?.();
    }
  }

  /** The RV up to which every running informer has delivered every change ("0" if one has not listed). */
  private minProgress(): string {
    let min: bigint | undefined;
    for (const informer of this.allInformers()) {
      const p = rvToBigInt(informer.progress());
      if (min === undefined || p < min) {
        min = p;
      }
    }
    return (min ?? 0n).toString();
  }

  /**
   * Clears the Stale condition of recovered informers once the batch about to be applied
   * carries an RV newer than every Stale version served: their instances are re-projected in
   * this batch, at that RV, together with the changes the watches replayed.
   */
  private unstaleInto(batch: PendingChange[]): void {
    if (!this.staleness.hasRecovering()) return;
    const newest = maxResourceVersion(this.lastRv, this.minProgress(), ...batch.map(c => c.rv));
    for (const informer of this.staleness.unstaleAt(newest)) {
      const keys = this.keysBuiltFrom(informer);
      if (keys.length) batch.push({ rv: newest, sourceKeys: keys });
    }
  }

  /** Re-projects every instance built from what `informer` watches (its Stale condition changed). */
  private restale(informer: ManagedInformer): void {
    const keys = this.keysBuiltFrom(informer);
    if (keys.length) {
      this.enqueue(this.lastRv, keys, undefined, true);
    }
  }

  /** The source objects whose instances are built from what `informer` watches. */
  private keysBuiltFrom(informer: ManagedInformer): string[] {
    let keys: string[];
    if (informer === this.crdInformer) {
      keys = [...this.entries.keys()];
    } else {
      const type = [...this.relatedInformers.entries()].find(([, i]) => i === informer)?.[0];
      keys = [...this.entries.values()]
        .filter(e =>
          type !== undefined
            ? e.adapter.relatedTypes.some(t => typeKey(t) === type)
            : this.sourceInformers.get(typeKey(e.kind))?.managed === informer,
        )
        .map(e => e.key);
    }
    return keys;
  }

  /** Since when the first stale informer an instance is built from has been failing, if any. */
  private staleSinceFor(entry: SourceEntry): number | undefined {
    if (!this.staleness.any()) return undefined;
    return this.staleness.sinceFor([
      this.crdInformer,
      this.sourceInformers.get(typeKey(entry.kind))?.managed,
      ...entry.adapter.relatedTypes.map(t => this.relatedInformers.get(typeKey(t))),
    ]);
  }

  private noteListed(resourceVersion: string | undefined): void {
    if (resourceVersion) {
      this.listedRv = maxResourceVersion(this.listedRv, resourceVersion);
    }
    this.checkSynced();
  }

  private checkSynced(): void {
    if (
      this.synced ||
      !this.crdInformer.hasListed() ||
      this.pending.length > 0
    ) {
      return;
    }
    const all = [
      ...this.relatedInformers.values(),
      ...[...this.sourceInformers.values()].map(s => s.managed),
    ];
    if (!all.every(i => i.hasListed())) {
      return;
    }
    this.synced = true;
    // Our first complete view is the cluster at the lists' resourceVersion (not merely the newest
    // instance: objects deleted before the sync would be missed by a watch resumed from an older
    // RV). Nobody can hold an RV from before it, so watches start from here; older ones get 410.
    this.lastRv = maxResourceVersion(this.lastRv, this.listedRv);
    this.history.reset(this.lastRv);
    this.options.logger?.info('Instance cache synced', {
      resourceVersion: this.lastRv,
      instances: this.countServed(),
    });
    this.syncWaiters.splice(0).forEach(r => r());
    this.notifyApplied();
  }

  private countServed(): number {
    let n = 0;
    for (const byName of this.served.values()) {
      n += byName.size;
    }
    return n;
  }

  private enqueue(
    rv: string | undefined,
    sourceKeys: string[],
    snapshot?: PendingChange['snapshot'],
    atLastRv = false,
  ): void {
    this.pending.push({ rv: rv ?? '0', sourceKeys, snapshot, atLastRv });
    if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => this.flush(), this.batchWindowMs);
      this.flushTimer.unref?.();
    }
  }

  private flush(): void {
    this.flushTimer = undefined;
    const batch = this.synced ? this.late.restamp(this.pending, this.lastRv, this.minProgress()) : this.pending;
    this.pending = [];
    if (this.synced) {
      this.unstaleInto(batch);
    }
    // Stable sort: changes with equal RVs keep their arrival order.
    batch.sort((a, b) => compareRv(a.rv, b.rv));
    this.flushed = [];
    const snapshotKey = (c: PendingChange) => c.snapshot && (c.snapshot.key || c.sourceKeys[0]);
    this.stillToCome = new Map();
    for (const c of batch) {
      const key = snapshotKey(c);
      if (key) this.stillToCome.set(key, (this.stillToCome.get(key) ?? 0) + 1);
    }
    this.appliedSoFar = new Map();
    for (const change of batch) {
      const asOfKey = snapshotKey(change);
      if (asOfKey) {
        this.stillToCome.set(asOfKey, this.stillToCome.get(asOfKey)! - 1);
        this.appliedSoFar.set(asOfKey, change.snapshot!.obj);
      }
      this.asOf = asOfKey === undefined ? undefined : { key: asOfKey, obj: change.snapshot!.obj };
      const groups = new Set<string>();
      for (const key of change.sourceKeys) {
        const group = this.reconcileSource(key);
        if (group) {
          groups.add(group);
        }
      }
      for (const group of groups) {
        this.recomputeGroup(group, change.rv);
      }
    }
    this.asOf = undefined;
    this.stillToCome = undefined;
    this.appliedSoFar = undefined;
    const events = coalesceByRv(this.flushed);
    this.flushed = undefined;
    for (const event of events) this.emit(event);
    this.checkSynced();
    if (this.synced) {
      // every change up to it has been applied above (informers deliver in RV order)
      this.lastRv = maxResourceVersion(this.lastRv, this.minProgress());
    }
    this.notifyApplied();
  }

  private notifyApplied(): void {
    for (const listener of [...this.appliedListeners]) listener();
  }

  onApplied(listener: () => void): () => void {
    this.appliedListeners.add(listener);
    return () => this.appliedListeners.delete(listener);
  }

  // ---- projection --------------------------------------------------------------------------

  private sourceObject(key: string): {
    informer?: SourceInformer;
    obj?: KubeObject;
    ns: string;
    name: string;
  } {
    const [type, ref] = splitOnce(key, '|');
    const [ns, name] = splitOnce(ref, '/');
    const informer = this.sourceInformers.get(type);
    return {
      informer,
      obj: informer && this.stateAsOf(key, () => informer.managed.informer.get(name, ns || undefined)),
      ns,
      name,
    };
  }

  /**
   * An object as of the change being applied: its state in that change, else (with changes of
   * its own still to come in the batch) as its last change applied left it, else the newest.
   */
  private stateAsOf(key: string, newest: () => KubeObject | undefined): KubeObject | undefined {
    if (this.asOf?.key === key) return this.asOf.obj;
    if (this.stillToCome?.get(key) && this.appliedSoFar?.has(key)) return this.appliedSoFar.get(key);
    return newest();
  }

  /** Updates the entry and indexes of one source object; returns its name group. */
  private reconcileSource(key: string): string | undefined {
    const { informer, obj, ns, name } = this.sourceObject(key);
    const old = this.entries.get(key);
    for (const rel of old?.relatedKeys ?? []) {
      const set = this.reverse.get(rel);
      set?.delete(key);
      if (set && set.size === 0) {
        this.reverse.delete(rel);
      }
    }
    const group = claimKey(ns, name);
    if (!informer || !obj) {
      if (!old) {
        return undefined;
      }
      this.entries.delete(key);
      this.rollouts.delete(key);
      const claim = this.nameClaims.get(group);
      claim?.delete(key);
      if (claim && claim.size === 0) {
        this.nameClaims.delete(group);
      }
      return group;
    }
    let relatedKeys: string[] = [];
    try {
      relatedKeys = informer.adapter
        .relatedRefs(obj, informer.kind)
        .map(r => objectKey(r.type, r.namespace, r.name));
    } catch (err) {
      this.options.logger?.warn('Adapter relatedRefs failed', {
        source: key,
        error: String(err),
      });
    }
    for (const rel of relatedKeys) {
      let set = this.reverse.get(rel);
      if (!set) {
        set = new Set();
        this.reverse.set(rel, set);
      }
      set.add(key);
    }
    this.entries.set(key, {
      key,
      adapter: informer.adapter,
      kind: informer.kind,
      namespace: ns,
      name,
      relatedKeys,
    });
    let claim = this.nameClaims.get(group);
    if (!claim) {
      claim = new Set();
      this.nameClaims.set(group, claim);
    }
    claim.add(key);
    return group;
  }

  private relatedLookup(): RelatedLookup {
    return {
      get: ref =>
        this.relatedObject(objectKey(ref.type, ref.namespace, ref.name)),
    };
  }

  /** A related object as of the change being applied (see `asOf`), else the newest. */
  private relatedObject(key: string): KubeObject | undefined {
    return this.stateAsOf(key, () => {
      const [type, ref] = splitOnce(key, '|');
      const [ns, name] = splitOnce(ref, '/');
      return this.relatedInformers.get(type)?.informer.get(name, ns || undefined);
    });
  }

  private project(
    entry: SourceEntry,
    servedName: string,
    conflict: NameClaim[] | undefined,
    group: string,
  ) {
    const source = this.sourceObject(entry.key).obj!;
    const lookup = this.relatedLookup();
    const stored = storedRollout(source);
    let instance: DatabaseInstance;
    try {
      instance = entry.adapter.project(source, entry.kind, lookup);
      const remembered = applyRolloutMemory(
        this.rollouts.get(entry.key),
        instance,
        stored,
      );
      this.rollouts.set(entry.key, remembered.memory);
      instance = remembered.instance;
    } catch (err) {
      instance = fallbackInstance(entry, source, err);
    }
    // each state at an RV of its own, the current one last (see stillToCome)
    const current = (k: string) => this.asOf?.key === k || !this.stillToCome?.get(k);
    const relatedRvs = entry.relatedKeys
      .filter(current)
      .map(k => this.relatedObject(k)?.metadata?.resourceVersion);
    const baseRv = maxResourceVersion(
      current(entry.key) ? source.metadata?.resourceVersion : undefined,
      ...relatedRvs,
    );
    const metadata = {
      ...instance.metadata,
      name: servedName,
      namespace: entry.namespace,
    };
    delete metadata.resourceVersion;
    let status = instance.status;
    const staleSince = this.staleSinceFor(entry);
    if (staleSince !== undefined && status) {
      status = {
        ...status,
        conditions: [...(status.conditions ?? []), staleCondition(staleSince)],
      };
    }
    if (conflict && status) {
      const claim = conflict.find(c => c.key === entry.key)!;
      const condition = nameConflictCondition(
        claim,
        conflict,
        entry.namespace,
        servedName,
        this.conflictSince.get(group)!,
      );
      status = {
        ...status,
        conditions: [...(status.conditions ?? []), condition],
      };
    }
    const projected: DatabaseInstance = {
      ...instance,
      metadata,
      ...(status ? { status } : {}),
    };
    // A digest, not the JSON itself: kept for every instance, the JSON was a tenth of the
    // apiserver's memory at 50,000 instances.
    const fingerprint = createHash('sha1').update(JSON.stringify(projected)).digest('base64');
    const { readySpec } = stored;
    const sourceRv = source.metadata?.resourceVersion;
    return { projected, baseRv, fingerprint, readySpec, sourceRv };
  }

  private recomputeGroup(group: string, triggerRv: string): void {
    const [ns] = splitOnce(group, '/');
    const keys = [...(this.nameClaims.get(group) ?? [])];
    const members = keys.map(k => this.entries.get(k)!);
    const claims: NameClaim[] = members.map(e => ({
      key: e.key,
      name: e.name,
      engine: e.adapter.engine,
      kind: e.kind.kind,
    }));
    if (claims.length > 1) {
      if (!this.conflictSince.has(group)) {
        this.conflictSince.set(
          group,
          new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        );
      }
    } else {
      this.conflictSince.delete(group);
    }
    const names = servedNames(claims);
    const old =
      this.groupServed.get(group) ?? new Map<string, ServedInstance>();
    const next = new Map<string, ServedInstance>();
    const events: InstanceEvent[] = [];
    const eventRv = (baseRv: string) => {
      const rv = maxResourceVersion(baseRv, triggerRv, this.lastRv);
      this.lastRv = rv;
      return rv;
    };

    for (const [oldName, prev] of old) {
      const nowKey = [...names].find(([, n]) => n === oldName)?.[0];
      if (
        nowKey === undefined ||
        nowKey !== prev.sourceKey ||
        this.uidOf(nowKey) !== prev.instance.metadata.uid
      ) {
        const rv = eventRv('0');
        events.push({
          type: 'DELETED',
          object: withRv(prev.instance, rv),
          oldObject: prev.instance,
          resourceVersion: rv,
        });
      }
    }
    for (const entry of members) {
      const servedName = names.get(entry.key)!;
      const { projected, baseRv, fingerprint, readySpec, sourceRv } = this.project(
        entry,
        servedName,
        claims.length > 1 ? claims : undefined,
        group,
      );
      const prev = old.get(servedName);
      const same =
        prev &&
        prev.sourceKey === entry.key &&
        prev.instance.metadata.uid === projected.metadata.uid;
      if (same && prev.fingerprint === fingerprint && prev.baseRv === baseRv) {
        next.set(servedName, prev.sourceRv === sourceRv ? prev : { ...prev, sourceRv });
        continue;
      }
      if (same && prev.fingerprint === fingerprint && prev.readySpec !== readySpec) {
        // Only the apiserver's own record of the Ready spec changed (it is not served): no
        // event and no new resourceVersion, so a client holding the instance is not refused
        // for a write it cannot see.
        next.set(servedName, { ...prev, readySpec, sourceRv });
        continue;
      }
      const rv = eventRv(baseRv);
      const instance = withRv(projected, rv);
      if (this.staleness.any() && projected.status?.conditions?.some(c => c.type === STALE_CONDITION)) {
        this.staleness.servedStale(rv);
      }
      next.set(servedName, {
        instance,
        fingerprint,
        baseRv,
        sourceKey: entry.key,
        ...(readySpec !== undefined && { readySpec }),
        ...(sourceRv !== undefined && { sourceRv }),
      });
      events.push(
        same
          ? {
              type: 'MODIFIED',
              object: instance,
              oldObject: prev.instance,
              resourceVersion: rv,
            }
          : { type: 'ADDED', object: instance, resourceVersion: rv },
      );
    }

    // Swap the group's served names in the namespace index.
    const byName = this.served.get(ns) ?? new Map<string, ServedInstance>();
    for (const name of old.keys()) {
      byName.delete(name);
    }
    for (const [name, s] of next) {
      byName.set(name, s);
    }
    if (byName.size) {
      this.served.set(ns, byName);
    } else {
      this.served.delete(ns);
    }
    if (events.length) {
      this.index.changed(
        ns,
        [...old.values()].map(s => s.instance),
        [...next.values()].map(s => s.instance),
      );
    }
    if (next.size) {
      this.groupServed.set(group, next);
    } else {
      this.groupServed.delete(group);
    }
    for (const event of events) {
      if (this.flushed) this.flushed.push(event);
      else this.emit(event);
    }
  }

  private uidOf(sourceKey: string): string | undefined {
    return this.sourceObject(sourceKey).obj?.metadata?.uid;
  }

  private emit(event: InstanceEvent): void {
    if (this.synced) {
      this.history.append(event);
    }
    for (const watcher of this.watchers) {
      try {
        watcher(event);
      } catch (err) {
        this.options.logger?.warn('Watcher failed', { error: String(err) });
      }
    }
  }
}
