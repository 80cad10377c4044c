import type { PendingChange } from './LateChanges';

/**
 * The changes informers delivered since the last batch, and the timer that applies them
 * together `windowMs` after the first (informers of different types deliver independently, so
 * their events interleave; a batch is applied in resourceVersion order).
 */
export class ChangeQueue {
  private pending: PendingChange[] = [];
  private timer: NodeJS.Timeout | undefined;

  /** `apply` applies a batch (the store's flush): it takes the queued changes. */
  constructor(
    private readonly apply: () => void,
    private readonly windowMs: number,
  ) {}

  /** A change at `rv` (none: '0') to the instances of `sourceKeys`; see PendingChange. */
  add(
    rv: string | undefined,
    sourceKeys: string[],
    snapshot?: PendingChange['snapshot'],
    atLastRv = false,
  ): void {
    this.pending.push({ rv: rv ?? '0', sourceKeys, snapshot, atLastRv });
    this.schedule();
  }

  /** Applies a batch in `windowMs`, unless one is due already. */
  schedule(): void {
    if (!this.timer) {
      this.timer = setTimeout(() => this.apply(), this.windowMs);
      this.timer.unref?.();
    }
  }

  /** Whether a batch is due. */
  scheduled(): boolean {
    return this.timer !== undefined;
  }

  isEmpty(): boolean {
    return this.pending.length === 0;
  }

  /** The changes of the batch being applied; the next change starts a new batch. */
  take(): PendingChange[] {
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    return batch;
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
