import type {
  DatabaseEngine,
  DatabaseInstance,
} from '@internal/plugin-databases-common';
import type { KubeObject } from '../adapters/types';
import { BatchProjector } from './BatchProjector';
import { ChangeQueue } from './ChangeQueue';
import { coalesceByRv } from './coalesceByRv';
import { engineList } from './engineList';
import { EventFeed } from './EventFeed';
import { LateChanges, type PendingChange } from './LateChanges';
import type { ManagedInformer } from './ManagedInformer';
import { previewInstance } from './projectInstance';
import type { InformerInstanceStoreOptions } from './InformerInstanceStoreOptions';
import { isNewer, maxResourceVersion } from './resourceVersion';
import { ServedInstances } from './ServedInstances';
import { SourceEntries } from './SourceEntries';
import { SourceObjects } from './SourceObjects';
import { StaleTracker } from './StaleTracker';
import { StoreInformers } from './StoreInformers';
import { claimKey, compareRv, typeKey } from './storeKeys';
import type {
  InstanceEvent,
  InstanceSource,
  InstanceStore,
  WatchSubscription,
} from './types';

export type { InformerInstanceStoreOptions } from './InformerInstanceStoreOptions';

/**
 * The InstanceStore fed by client-node informers (StoreInformers): one per installed operator
 * kind, one per related type (e.g. apps/v1 StatefulSets) and one over CRDs, which starts and
 * stops the operator informers as CRDs appear and disappear.
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
  private readonly feed: EventFeed;
  private readonly informers: StoreInformers;
  private readonly staleness: StaleTracker;
  private readonly sources = new SourceEntries();
  private readonly objects: SourceObjects;
  private readonly served: ServedInstances;
  private readonly projector: BatchProjector;
  private readonly queue: ChangeQueue;
  /** Late changes held back for a newer RV (see LateChanges.restamp). */
  private readonly late: LateChanges;
  private readonly appliedListeners = new Set<() => void>();

  /** Whether `syncsAfter` is in. */
  private readonly after = { done: true };

  constructor(private readonly options: InformerInstanceStoreOptions) {
    if (options.syncsAfter) {
      this.after.done = false;
      void options.syncsAfter.then(() => {
        this.after.done = true;
        this.checkSynced();
      });
    }
    this.now = options.now ?? Date.now;
    this.late = new LateChanges(
      () => {
        if (!this.queue.scheduled()) this.flush();
      },
      undefined,
      options.clusterResourceVersion,
      options.lateChangeMaxWaitMs,
    );
    this.queue = new ChangeQueue(() => this.flush(), options.batchWindowMs ?? 5);
    this.served = new ServedInstances(this.now);
    this.staleness = new StaleTracker({
      restale: informer => this.restale(informer),
      noteProgress: () => this.noteProgress(),
      now: this.now,
      staleAfterMs: options.staleAfterMs ?? 3000,
      logger: options.logger,
    });
    this.feed = new EventFeed(
      {
        maxEvents: options.historyMaxEvents ?? 10_000,
        maxAgeMs: (options.historyMaxAgeSeconds ?? 600) * 1000,
      },
      this.now,
      options.logger,
    );
    this.informers = new StoreInformers({
      adapters: options.adapters,
      factory: options.informerFactory,
      backoff: options.restartBackoff ?? { initialMs: 1000, maxMs: 30_000 },
      logger: options.logger,
      hooks: {
        // a deletion's snapshot is the object's absence: a re-created object's first
        // states in the same batch then follow its DELETED at their own RVs
        // a source object can be what others are built from too (a Job: a run of a schedule, and
        // what a one-off run is decided from): those follow it at the same resourceVersion
        sourceChanged: (key, obj, gone) =>
          this.queue.add(obj.metadata?.resourceVersion, [key, ...this.sources.dependents(key)], { key: '', obj: gone ? undefined : obj }),
        relatedChanged: (key, obj, deleted) => {
          const dependents = this.sources.dependents(key);
          if (dependents.length) {
            this.queue.add(obj.metadata?.resourceVersion, dependents, { key, obj: deleted ? undefined : obj });
          }
        },
        kindDropped: (kind, informer, crd) => {
          this.staleness.forget(informer);
          const gone = this.sources.keysOfType(typeKey(kind));
          if (gone.length) {
            this.queue.add(crd.metadata?.resourceVersion, gone);
          }
        },
        listed: rv => this.noteListed(rv),
        progress: () => this.noteProgress(),
        healthChanged: (informer, failing) => this.staleness.healthChanged(informer, failing),
      },
    });
    this.objects = new SourceObjects({
      source: type => this.informers.source(type),
      related: (type, name, ns) => this.informers.relatedObject(type, name, ns),
    });
    this.projector = new BatchProjector({
      sources: this.sources,
      objects: this.objects,
      served: this.served,
      staleness: this.staleness,
      informersOf: entry => this.informers.of(entry),
      advance: rv => this.feed.advance(rv),
      logger: options.logger,
      project: options.project,
      backupsOf: options.backupsOf,
    });
  }

  /** Starts the CRD and related informers; operator informers follow their CRDs. */
  start(): void {
    this.informers.start();
  }

  /** Stops every informer and timer and drops the watchers. */
  stop(): void {
    this.queue.stop();
    this.late.stop();
    this.staleness.stop();
    this.informers.stop();
    this.feed.stop();
  }

  /** Resolves once `hasSynced()` is true. */
  whenSynced(): Promise<void> {
    return this.feed.whenSynced();
  }

  hasSynced(): boolean {
    return this.feed.synced;
  }

  resourceVersion(): string {
    return this.feed.resourceVersion();
  }

  list(namespace?: string): DatabaseInstance[] {
    return this.served.index.list(namespace);
  }

  listByLabel(key: string, value: string, namespace?: string): DatabaseInstance[] {
    return this.served.index.withLabel(key, value, namespace);
  }

  get(namespace: string, name: string): DatabaseInstance | undefined {
    return this.served.get(namespace, name)?.instance;
  }

  source(namespace: string, name: string): InstanceSource | undefined {
    const served = this.served.get(namespace, name);
    return served ? this.sourceOfKey(served.sourceKey) : undefined;
  }

  /**
   * The resourceVersion of the operator object the served `namespace/name` was last built from.
   * It can be newer than the instance's own: a change that alters nothing served (the operator's
   * unserved fields, the apiserver's record of the Ready spec) keeps the instance's resourceVersion
   * (see ServedInstances.recompute).
   */
  builtFromRv(namespace: string, name: string): string | undefined {
    return this.served.get(namespace, name)?.sourceRv;
  }

  holdsChanges(): boolean {
    return !this.queue.isEmpty() || this.late.holding();
  }

  preview(namespace: string, name: string, object: KubeObject): DatabaseInstance | undefined {
    const served = this.served.get(namespace, name);
    const entry = served && this.sources.get(served.sourceKey);
    if (!entry) return undefined;
    try {
      return previewInstance({
        entry,
        current: this.objects.source(entry.key).obj,
        object,
        related: this.objects.lookup(),
        memory: this.sources.rollout(entry.key),
        namespace,
        name,
        backups: this.options.backupsOf?.(namespace, object.metadata?.name ?? name),
      });
    } catch {
      return undefined; // the caller projects the object alone, and answers its error
    }
  }

  /**
   * A served backup run or schedule of the operator object `namespace/name` changed at `rv`: its
   * instance is projected again (its `status.backup` times), in resourceVersion order with the
   * other changes (an RV already served waits for a newer one, as late changes do).
   */
  backupsChanged(namespace: string, name: string, rv: string): void {
    const keys = this.sources.claimKeys(claimKey(namespace, name));
    if (keys.length) this.queue.add(rv, keys);
  }

  claims(namespace: string, name: string): InstanceSource[] {
    return this.sources
      .claimKeys(claimKey(namespace, name))
      .map(key => this.sourceOfKey(key))
      .filter((s): s is InstanceSource => s !== undefined);
  }

  private sourceOfKey(key: string): InstanceSource | undefined {
    const entry = this.sources.get(key);
    const object = this.objects.source(key).obj;
    return entry && object
      ? { object, adapter: entry.adapter, kind: entry.kind }
      : undefined;
  }

  watch(
    fromResourceVersion: string | undefined,
    onEvent: (event: InstanceEvent) => void,
    onExpired?: () => void,
  ): WatchSubscription {
    return this.feed.watch(fromResourceVersion, onEvent, onExpired);
  }

  engines(): DatabaseEngine[] {
    const sources = this.sources;
    return engineList({
      adapters: this.options.adapters,
      installed: kind => this.informers.isInstalled(kind),
      crdCreated: kind => this.informers.crdCreated(kind),
      instances: (function* servedPhases(served: ServedInstances) {
        for (const s of served.all())
          yield { adapter: sources.get(s.sourceKey)?.adapter, phase: s.instance.status?.phase };
      })(this.served),
      resourceVersion: this.resourceVersion(),
      engineConfig: this.options.engineConfig,
    });
  }

  problems(): string[] {
    return this.informers.problems();
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
    return this.informers.watchHealth();
  }

  onApplied(listener: () => void): () => void {
    this.appliedListeners.add(listener);
    return () => this.appliedListeners.delete(listener);
  }

  private notifyApplied(): void {
    for (const listener of [...this.appliedListeners]) listener();
  }

  // ---- changes, in batches -----------------------------------------------------------------

  /**
   * A watch bookmark moved an informer's progress: once every informer has delivered
   * everything up to some RV, our resourceVersion can move there too (at the next flush), so
   * lists and watch bookmarks carry a recent cluster RV even when no instance changes. A
   * client holding it resumes on any replica whose history reaches back that far.
   */
  private noteProgress(): void {
    if (this.feed.synced) {
      this.queue.schedule();
    }
  }

  private noteListed(resourceVersion: string | undefined): void {
    this.feed.listed(resourceVersion);
    this.checkSynced();
  }

  private checkSynced(): void {
    if (this.feed.synced || !this.after.done || !this.queue.isEmpty() || !this.informers.allListed()) {
      return;
    }
    this.feed.markSynced(this.served.count());
    this.notifyApplied();
  }

  /** Re-projects every instance built from what `informer` watches (its Stale condition changed). */
  private restale(informer: ManagedInformer): void {
    const keys = this.informers.builtFrom(informer, this.sources.values());
    if (keys.length) {
      this.queue.add(this.feed.lastRv, keys, undefined, true);
    }
  }

  /**
   * Clears the Stale condition of recovered informers once the batch about to be applied
   * carries an RV newer than every Stale version served: their instances are re-projected in
   * this batch, at that RV, together with the changes the watches replayed.
   */
  private unstaleInto(batch: PendingChange[]): void {
    if (!this.staleness.hasRecovering()) return;
    const newest = maxResourceVersion(this.feed.lastRv, this.informers.minProgress(), ...batch.map(c => c.rv));
    for (const informer of this.staleness.unstaleAt(newest)) {
      const keys = this.informers.builtFrom(informer, this.sources.values());
      if (keys.length) batch.push({ rv: newest, sourceKeys: keys });
    }
  }

  private flush(): void {
    const synced = this.feed.synced;
    const fresh = this.queue.take();
    const batch = synced ? this.late.restamp(fresh, this.feed.lastRv, this.informers.minProgress()) : fresh;
    if (synced) {
      this.unstaleInto(batch);
    }
    // Stable sort: changes with equal RVs keep their arrival order.
    batch.sort((a, b) => compareRv(a.rv, b.rv));
    // The events of the batch are sent once it has been applied (see coalesceByRv). A late
    // change let go at the last RV (no newer one came: LateChanges) changes objects at an RV
    // clients hold: their watches end and they list again (EventFeed.reissue).
    const before = this.feed.lastRv;
    const events = coalesceByRv(this.projector.apply(batch));
    if (batch.some(c => c.reissued) && events.some(e => !isNewer(e.resourceVersion, before))) this.feed.reissue(events);
    else for (const event of events) this.feed.emit(event);
    this.checkSynced();
    if (this.feed.synced) {
      // every change up to it has been applied above (informers deliver in RV order)
      this.feed.advance(this.informers.minProgress());
    }
    this.notifyApplied();
  }
}
