import type { ManagedInformer } from './ManagedInformer';
import { isNewer, maxResourceVersion } from './resourceVersion';

/** What {@link StaleTracker} asks of the store it serves. */
export interface StaleTrackerHooks {
  /** Re-project the instances built from `informer` (their Stale condition changes). */
  restale(informer: ManagedInformer): void;
  /** Flush soon: a recovered watch waits for a newer cluster RV (the next bookmark or change). */
  noteProgress(): void;
  now(): number;
  /** How long a watch must fail before its instances are Stale. */
  staleAfterMs: number;
  logger?: { info(msg: string, meta?: object): void; warn(msg: string, meta?: object): void };
}

/**
 * Which watches have been failing long enough for the instances built from them to carry the
 * `Stale` condition, and when those that work again may drop it.
 *
 * A connection reset that resumes at once is no news: only a watch failing for `staleAfterMs`
 * is Stale. Clients ignore a change that comes with a resourceVersion they already hold
 * (client-node compares RVs, so do many client-go handlers), so a recovered watch's instances go
 * back to current only with an RV newer than every Stale version served ({@link unstaleAt}).
 */
export class StaleTracker {
  /** Informers failing for longer than `staleAfterMs`, with when they started failing. */
  private readonly stale = new Map<ManagedInformer, number>();
  private readonly timers = new Map<ManagedInformer, NodeJS.Timeout>();
  /** Stale informers that work again, waiting for an RV newer than every Stale version served. */
  private readonly recovering = new Set<ManagedInformer>();
  /** Largest RV of a version served with the Stale condition. */
  private maxServedRv = '0';

  constructor(private readonly hooks: StaleTrackerHooks) {}

  /** True while any watch is Stale. */
  any(): boolean {
    return this.stale.size > 0;
  }

  /** Since when (ms since epoch) some watch has been Stale; undefined when none is. */
  since(): number | undefined {
    const since = [...this.stale.values()];
    return since.length ? Math.min(...since) : undefined;
  }

  /** Since when the first Stale one of `informers` has been failing, if any is. */
  sinceFor(informers: ReadonlyArray<ManagedInformer | undefined>): number | undefined {
    if (this.stale.size === 0) return undefined;
    let since: number | undefined;
    for (const informer of informers) {
      const s = informer && this.stale.get(informer);
      if (s !== undefined) since = since === undefined ? s : Math.min(since, s);
    }
    return since;
  }

  /** A version carrying the Stale condition went out at `rv`. */
  servedStale(rv: string): void {
    this.maxServedRv = maxResourceVersion(this.maxServedRv, rv);
  }

  healthChanged(informer: ManagedInformer, failing: boolean): void {
    clearTimeout(this.timers.get(informer));
    this.timers.delete(informer);
    this.recovering.delete(informer);
    if (failing) {
      const since = informer.failingSinceMs() ?? this.hooks.now();
      const timer = setTimeout(() => {
        this.timers.delete(informer);
        if (informer.failingSinceMs() === undefined) return;
        this.stale.set(informer, since);
        this.hooks.logger?.warn('Watch failing, instances built from it are marked stale', {
          informer: informer.name,
        });
        this.hooks.restale(informer);
      }, this.hooks.staleAfterMs);
      timer.unref?.();
      this.timers.set(informer, timer);
    } else if (this.stale.has(informer)) {
      // The Stale versions went out at the RVs of their time; the current ones wait for a newer
      // cluster RV: the changes the watch replays next, or the next bookmark.
      this.recovering.add(informer);
      this.hooks.noteProgress();
    }
  }

  /**
   * The recovered informers whose instances may drop the Stale condition at `newest` (the
   * newest RV of the batch about to be applied): all of them once `newest` is past every
   * Stale version served, none before.
   */
  unstaleAt(newest: string): ManagedInformer[] {
    if (this.recovering.size === 0 || !isNewer(newest, this.maxServedRv)) return [];
    const recovered = [...this.recovering];
    for (const informer of recovered) {
      this.stale.delete(informer);
      this.hooks.logger?.info('Watch recovered, instances built from it are current again', {
        informer: informer.name,
      });
    }
    this.recovering.clear();
    if (this.stale.size === 0) this.maxServedRv = '0';
    return recovered;
  }

  /** Whether recovered informers wait for a newer RV. */
  hasRecovering(): boolean {
    return this.recovering.size > 0;
  }

  /** Forgets an informer that stopped (its kind is no longer served). */
  forget(informer: ManagedInformer): void {
    clearTimeout(this.timers.get(informer));
    this.timers.delete(informer);
    this.stale.delete(informer);
    this.recovering.delete(informer);
  }

  stop(): void {
    this.timers.forEach(t => clearTimeout(t));
    this.timers.clear();
  }
}
