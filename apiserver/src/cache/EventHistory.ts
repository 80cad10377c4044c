import { ResourceVersionExpiredError, type InstanceEvent } from './types';
import { rvToBigInt } from './resourceVersion';

/** Bounds of the kept watch history; an event is dropped when either bound is exceeded. */
export interface EventHistoryLimits {
  maxEvents: number;
  maxAgeMs: number;
}

/**
 * The recent InstanceEvents, for watches resumed from a resourceVersion (contract §7.4).
 * Events are appended in non-decreasing RV order. `startRv` is the RV after which every
 * event is still kept: a watch from an RV ≥ startRv can be served, an older one has expired.
 */
export class EventHistory {
  private events: Array<{ event: InstanceEvent; at: number }> = [];
  private head = 0;
  private start = '0';

  constructor(
    private readonly limits: EventHistoryLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Forget everything: the next watch must start at or after `rv` (e.g. after initial sync). */
  reset(rv: string): void {
    this.events = [];
    this.head = 0;
    this.start = rv;
  }

  append(event: InstanceEvent): void {
    this.events.push({ event, at: this.now() });
    this.trim();
  }

  /** The RV after which the history is complete. */
  startRv(): string {
    this.trim();
    return this.start;
  }

  /** Events with RV > `from`, oldest first; throws ResourceVersionExpiredError if not all kept. */
  since(from: string): InstanceEvent[] {
    this.trim();
    const f = rvToBigInt(from);
    if (f < rvToBigInt(this.start)) {
      throw new ResourceVersionExpiredError(from, this.start);
    }
    const out: InstanceEvent[] = [];
    for (let i = this.head; i < this.events.length; i++) {
      const e = this.events[i].event;
      if (rvToBigInt(e.resourceVersion) > f) {
        out.push(e);
      }
    }
    return out;
  }

  get size(): number {
    return this.events.length - this.head;
  }

  private trim(): void {
    const oldestAllowed = this.now() - this.limits.maxAgeMs;
    const dropBefore = () => {
      const kept = this.events.length - this.head;
      const first = this.events[this.head];
      return (
        kept > this.limits.maxEvents || (kept > 0 && first.at < oldestAllowed)
      );
    };
    while (this.head < this.events.length && dropBefore()) {
      const dropped = this.events[this.head++].event.resourceVersion;
      // Events sharing an RV go together, else a watch from that RV would miss the rest.
      while (
        this.head < this.events.length &&
        this.events[this.head].event.resourceVersion === dropped
      ) {
        this.head++;
      }
      this.start = dropped;
    }
    // Compact now and then instead of shifting on every drop: after 1024 dropped events, so the
    // dropped ones (each holding two instances) cannot pile up to a second full window — the soak
    // saw the heap grow by that much between compactions. Copying the kept pointers once per
    // 1024 drops is cheap next to appending them.
    if (this.head >= 1024) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
  }
}
