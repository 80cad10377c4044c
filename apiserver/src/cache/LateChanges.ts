import type { KubeObject } from '../adapters/types';
import { maxResourceVersion, rvToBigInt } from './resourceVersion';

/** How long a late change waits for a newer RV before the cluster's RV is read. */
const LATE_WAIT_MS = 1000;
/**
 * Longest a late change waits in all while the cluster's RV stands still. A real control plane
 * writes every 2 s or so (kube-controller-manager's and kube-scheduler's leader leases renew at
 * leader election's 2 s retry period; kubelets' node leases every 10 s), but a single read one
 * second after the change finds it idle about half the time: it is read again each second.
 */
const LATE_MAX_WAIT_MS = 5000;

/** One change an informer delivered, waiting to be applied in resourceVersion order. */
export interface PendingChange {
  rv: string;
  sourceKeys: string[];
  /**
   * The source object as this event delivered it. The informer's cache only holds the newest
   * version, so without it two updates inside one batch window would be served as one and a
   * short phase (a one-pod restart during an upgrade) would never reach watchers. For a
   * related object (a StatefulSet) `key` is its object key; for a source object it is empty
   * (the change's only source key). `obj` undefined: the object was deleted.
   */
  snapshot?: { key: string; obj: KubeObject | undefined };
  /** Sent at the last RV on purpose (instances marked Stale): never held back as late. */
  atLastRv?: boolean;
  /** A late change let go at the last RV after waiting (no newer RV came): see EventFeed.reissue. */
  reissued?: boolean;
}

/**
 * The late changes of the store's batches (see {@link LateChanges.restamp}): those held back
 * for a newer RV, and the timer that lets them go at the last RV on an idle cluster.
 */
export class LateChanges {
  private held: PendingChange[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** The held changes waited long enough: the next batch sends them at the last RV. */
  private release = false;
  /** The cluster's RV read after the wait (see `clusterRv`), newer than what informers told. */
  private readRv: string | undefined;
  private stopped = false;
  /** The last RV served, as the last batch was restamped against (the idle test of `waited`). */
  private lastServed = '0';
  /** How many times the cluster's RV was read for the changes held now. */
  private reads = 0;

  /**
   * `flushSoon` applies a batch (the store's flush), called when held changes may go.
   * `clusterRv` reads the cluster's current resourceVersion (a quorum read): on a real cluster
   * the RV moves every few seconds (leases), long before a watch's bookmark tells an informer,
   * so held changes go out at a new RV and clients never have to list again.
   */
  constructor(
    private readonly flushSoon: () => void,
    private readonly waitMs = LATE_WAIT_MS,
    private readonly clusterRv?: () => Promise<string | undefined>,
    private readonly maxWaitMs = LATE_MAX_WAIT_MS,
  ) {}

  /**
   * Changes that arrive after a newer change of another informer went out ("late": their RV is
   * at most the last one served) cannot go out at their own RV, which is older than what
   * watchers hold, nor at the last served RV: a watcher that got that RV and then resumes from
   * it (history replays RVs strictly greater) would never get them. They wait for a newer
   * cluster RV (a change in this batch, or every informer's progress past it) and go out with
   * it, at most `LATE_WAIT_MS`; then with the cluster's RV read then (read again each
   * `LATE_WAIT_MS` while it has not moved, up to `LATE_MAX_WAIT_MS`), and only on a cluster whose
   * RV has not moved in all that time, at the last RV (a change must not stay invisible for the
   * minute a bookmark can take; clients are told to list again, see EventFeed.reissue).
   */
  restamp(fresh: PendingChange[], lastRv: string, progress: string): PendingChange[] {
    this.lastServed = lastRv;
    const waited = this.held.splice(0);
    const batch = [...waited, ...fresh];
    const last = rvToBigInt(lastRv);
    let newest = rvToBigInt(maxResourceVersion(progress, this.readRv));
    this.readRv = undefined;
    /** The batch's first RV newer than the last one served. */
    let next: bigint | undefined;
    for (const c of batch) {
      const rv = rvToBigInt(c.rv);
      if (rv > newest) newest = rv;
      if (c.rv !== '0' && rv > last && (next === undefined || rv < next)) next = rv;
    }
    const held = new Set(waited);
    const release = this.release;
    this.release = false;
    const out: PendingChange[] = [];
    for (const c of batch) {
      // '0': a change without an RV of its own (re-list, CRD gone) is not late, it is unordered;
      // marking instances Stale during an outage goes out at the last RV on purpose (no newer one)
      if (c.rv === '0' || c.atLastRv || rvToBigInt(c.rv) > last) {
        out.push(c);
        continue;
      }
      if (!held.has(c) && next !== undefined) {
        // It arrived with newer changes: it keeps its own state and takes the batch's first newer
        // RV, so it goes out before them. At the newest RV it would merge into the last state
        // (coalesceByRv) and a short phase (a rollout's Updating) would never reach a watcher.
        out.push({ ...c, rv: next.toString() });
        continue;
      }
      // One that waited is projected from the informers' current objects, not its snapshot:
      // while it waited, a change of its source object may have been projected with the related
      // object's newer state, which the old snapshot would undo (a StatefulSet's 2/3 after 3/3).
      const current = { ...c, snapshot: undefined };
      if (newest > last) {
        out.push({ ...current, rv: newest.toString() });
      } else if (release) {
        out.push({ ...current, reissued: true });
      } else {
        this.held.push(current);
      }
    }
    if (this.held.length === 0) this.reads = 0;
    else if (!this.timer) this.arm();
    return out;
  }

  /** Whether changes are held back for a newer RV. */
  holding(): boolean {
    return this.held.length > 0;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    this.timer = setTimeout(() => void this.waited(), this.waitMs);
    this.timer.unref?.();
  }

  /**
   * A wait is over: read the cluster's RV. Moved past the last RV served: the held changes go out
   * at it. Idle: wait again, until `maxWaitMs` in all. Unreadable (an outage) or idle for that
   * long: they go out at the last RV, and clients list again.
   */
  private async waited(): Promise<void> {
    let read: string | undefined;
    let readable = this.clusterRv !== undefined;
    try {
      read = await this.clusterRv?.();
    } catch {
      readable = false;
    }
    this.timer = undefined;
    if (this.stopped || this.held.length === 0) return;
    const moved = read !== undefined && rvToBigInt(read) > rvToBigInt(this.lastServed);
    this.reads += 1;
    if (readable && !moved && (this.reads + 1) * this.waitMs <= this.maxWaitMs) {
      this.arm();
      return;
    }
    this.readRv = read;
    this.release = true;
    this.flushSoon();
  }
}
