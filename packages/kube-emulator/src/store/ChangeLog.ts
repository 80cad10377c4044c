import { expiredError } from './storeErrors';
import type { StoreEvent } from './types';

interface Subscriber {
  lastRV: number;
  onEvent: (e: StoreEvent) => void;
}

/**
 * The store's resourceVersion counter, its bounded change history and the watches fed from it
 * (etcd's revision and kube-apiserver's watch cache in one). Events reach every watch in
 * resourceVersion order, also when a watch writes while handling one: that write's event waits
 * in a queue until the current one reached everybody.
 */
export class ChangeLog {
  private rv: number;
  private oldestRv: number;
  private readonly history: StoreEvent[] = [];
  private readonly subscribers = new Set<Subscriber>();
  private readonly queue: StoreEvent[] = [];
  private dispatching = false;

  constructor(
    initialRV: number,
    private readonly historyLimit: number,
    private readonly onSubscriberError: (err: unknown) => void,
  ) {
    this.rv = initialRV;
    this.oldestRv = initialRV;
  }

  /** The resourceVersion of the latest write. */
  current(): number {
    return this.rv;
  }

  /** The oldest resourceVersion a watch may still start from. */
  oldest(): number {
    return this.oldestRv;
  }

  /** Takes the resourceVersion of a new write. */
  next(): number {
    return ++this.rv;
  }

  /** The changes made after `rv` that the history still holds, oldest first. */
  changesSince(rv: number): readonly StoreEvent[] {
    let i = this.history.length;
    while (i > 0 && this.history[i - 1].rv > rv) i--;
    return this.history.slice(i);
  }

  /** Throws 410 Expired for a resourceVersion older than the history holds. */
  assertNotExpired(rv: number): void {
    if (rv < this.oldestRv) throw expiredError(rv, this.oldestRv);
  }

  /**
   * Forgets the history, as an etcd compaction does. The RV moves on by one (etcd's revision
   * does with the write that triggers a compaction), so no client holds the new oldest.
   */
  compact(): void {
    this.history.length = 0;
    this.rv += 1;
    this.oldestRv = this.rv;
  }

  /** The next resourceVersion is `by` larger than it would be, without any event. */
  advance(by: number): void {
    if (!Number.isSafeInteger(by) || by < 0)
      throw new Error(`cannot advance the resourceVersion by ${by}`);
    this.rv += by;
  }

  /** Records a change (its `rv` taken with {@link next}) and delivers it to every watch. */
  append(ev: StoreEvent): void {
    this.history.push(ev);
    if (this.history.length > this.historyLimit) {
      const dropped = this.history.splice(
        0,
        this.history.length - this.historyLimit,
      );
      this.oldestRv = dropped[dropped.length - 1].rv;
    }
    this.queue.push(ev);
    if (this.dispatching) return; // a subscriber wrote while handling an event: keep RV order
    this.dispatching = true;
    try {
      while (this.queue.length) {
        const next = this.queue.shift()!;
        for (const sub of [...this.subscribers]) {
          if (next.rv <= sub.lastRV || !this.subscribers.has(sub)) continue;
          sub.lastRV = next.rv;
          this.deliver(sub, next);
        }
      }
    } finally {
      this.dispatching = false;
    }
  }

  /** Every change after `fromRV` (from now on when undefined), the held history first. */
  watch(
    fromRV: number | undefined,
    onEvent: (e: StoreEvent) => void,
  ): { stop(): void } {
    if (fromRV !== undefined) this.assertNotExpired(fromRV);
    const sub: Subscriber = { lastRV: fromRV ?? this.rv, onEvent };
    if (fromRV !== undefined) {
      for (const ev of this.history) {
        if (ev.rv <= sub.lastRV) continue;
        sub.lastRV = ev.rv;
        this.deliver(sub, ev);
      }
    }
    this.subscribers.add(sub);
    return { stop: () => this.subscribers.delete(sub) };
  }

  private deliver(sub: Subscriber, ev: StoreEvent): void {
    try {
      sub.onEvent({ ...ev, object: structuredClone(ev.object) });
    } catch (err) {
      this.onSubscriberError(err);
    }
  }
}
