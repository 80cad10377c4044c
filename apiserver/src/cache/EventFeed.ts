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
  /** Live watchers, each with how it ends when the feed cannot tell it a change (reissue). */
  private readonly watchers = new Map<(e: InstanceEvent) => void, (() => void) | undefined>();
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
    for (const watcher of this.watchers.keys()) this.deliver(watcher, event);
  }

  /** One event to one watcher; a watcher that throws is logged, not the feed's failure. */
  private deliver(watcher: (e: InstanceEvent) => void, event: InstanceEvent): void {
    try {
      watcher(event);
    } catch (err) {
      this.logger?.warn('Watcher failed', { error: String(err) });
    }
  }

  /**
   * Changes that can only be told at a resourceVersion already served (a late change on an idle
   * cluster: no newer RV exists to carry it). An informer ignores an update at an RV it holds, so
   * sending them would leave it wrong for good: watchers that can end (`onExpired`) end, as
   * kube-apiserver's 410 Gone, on which informers list again (the list has the changes), and the
   * history restarts at the last RV, so a resume from before it is refused too. Watchers that
   * cannot end (the apiserver's own) get the events. A client that listed at that RV before and
   * watches from it after misses them: only a cluster whose RV has not moved for five seconds
   * comes here (LateChanges reads the cluster's RV each second until then), never a healthy real
   * one: its controller manager and scheduler renew their leader leases every 2 s.
   */
  reissue(events: readonly InstanceEvent[]): void {
    for (const event of events) this.advance(event.resourceVersion);
    this.history.reset(this.last);
    this.logger?.warn('Changes sent at a resourceVersion already served (the cluster\'s did not move): watches end with 410', {
      resourceVersion: this.last,
      changes: events.length,
    });
    for (const [watcher, expire] of [...this.watchers]) {
      if (expire) {
        this.watchers.delete(watcher);
        expire();
      } else for (const event of events) this.deliver(watcher, event);
    }
  }

  /** See InstanceStore.watch. */
  watch(
    fromResourceVersion: string | undefined,
    onEvent: (event: InstanceEvent) => void,
    onExpired?: () => void,
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
    this.watchers.set(watcher, onExpired);
    return { stop: () => this.watchers.delete(watcher) };
  }

  /** Drops every watcher (the store stopped). */
  stop(): void {
    this.watchers.clear();
  }
}
