import { EventHistory, type EventHistoryLimits } from './EventHistory';
import { isNewer, maxResourceVersion, rvToBigInt } from './resourceVersion';
import type { InstanceEvent, WatchSubscription } from './types';

/**
 * The store's resourceVersion and the events that carry it: the live watchers, and the kept
 * history a watch resumed from an RV replays. Before the store has synced there is neither an
 * RV ("0") nor history: the events of the initial lists are no news to anyone.
 */
export class EventFeed {
  private readonly history: EventHistory;
  private readonly watchers = new Set<(e: InstanceEvent) => void>();
  private last = '0';
  /** Largest list resourceVersion seen: the cluster's RV when our view became complete. */
  private listedRv = '0';
  private isSynced = false;
  private readonly syncWaiters: Array<() => void> = [];

  constructor(
    limits: EventHistoryLimits,
    now: () => number,
    private readonly logger?: {
      info(msg: string, meta?: object): void;
      warn(msg: string, meta?: object): void;
    },
  ) {
    this.history = new EventHistory(limits, now);
  }

  get synced(): boolean {
    return this.isSynced;
  }

  /** The largest RV any event went out with, or our view was complete at. */
  get lastRv(): string {
    return this.last;
  }

  /** The store's resourceVersion ("0" before sync). */
  resourceVersion(): string {
    return this.isSynced ? this.last : '0';
  }

  /** The RV moves to `rv` if that is newer; returns the RV now. */
  advance(rv: string | undefined): string {
    this.last = maxResourceVersion(this.last, rv);
    return this.last;
  }

  /** An informer's list completed at `resourceVersion`. */
  listed(resourceVersion: string | undefined): void {
    if (resourceVersion) {
      this.listedRv = maxResourceVersion(this.listedRv, resourceVersion);
    }
  }

  /** Resolves once the store has synced. */
  whenSynced(): Promise<void> {
    return this.isSynced
      ? Promise.resolve()
      : new Promise(r => this.syncWaiters.push(r));
  }

  /** Every informer has listed and every change of the lists (`instances` served) has been applied. */
  markSynced(instances: number): void {
    this.isSynced = true;
    // Our first complete view is the cluster at the lists' resourceVersion (not merely the newest
    // instance: objects deleted before the sync would be missed by a watch resumed from an older
    // RV). Nobody can hold an RV from before it, so watches start from here; older ones get 410.
    this.last = maxResourceVersion(this.last, this.listedRv);
    this.history.reset(this.last);
    this.logger?.info('Instance cache synced', {
      resourceVersion: this.last,
      instances,
    });
    this.syncWaiters.splice(0).forEach(r => r());
  }

  emit(event: InstanceEvent): void {
    if (this.isSynced) {
      this.history.append(event);
    }
    for (const watcher of this.watchers) {
      try {
        watcher(event);
      } catch (err) {
        this.logger?.warn('Watcher failed', { error: String(err) });
      }
    }
  }

  /** See InstanceStore.watch. */
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
      from !== undefined && isNewer(from, this.last)
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

  /** Drops every watcher (the store stopped). */
  stop(): void {
    this.watchers.clear();
  }
}
