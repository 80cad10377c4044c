import type { BackstageCredentials } from '@backstage/backend-plugin-api';

/** Options of {@link SignInMemo}. */
export interface SignInMemoOptions {
  /** How long an answer is reused (never past the token's own expiry). */
  ttlMs: number;
  /** Entries kept at most: expired ones go first, then the oldest. */
  maxEntries?: number;
  now?: () => number;
}

/**
 * Answers remembered per user sign-in (the user and the token's expiry) and name, for `ttlMs`:
 * a call in flight is shared, a failure is not kept, and other principals are never remembered.
 */
export class SignInMemo<T> {
  private readonly entries = new Map<string, { until: number; value: Promise<T> }>();

  constructor(private readonly options: SignInMemoOptions) {}

  get(credentials: BackstageCredentials, name: string, compute: () => Promise<T>): Promise<T> {
    const principal = credentials.principal as { type?: string; userEntityRef?: string };
    if (principal?.type !== 'user' || !principal.userEntityRef) return compute();
    const expiresAt = credentials.expiresAt?.getTime();
    const key = `${name}\n${principal.userEntityRef}\n${expiresAt ?? ''}`;
    const now = (this.options.now ?? Date.now)();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value;
    this.entries.delete(key);
    const value = compute();
    this.entries.set(key, { until: Math.min(now + this.options.ttlMs, expiresAt ?? Infinity), value });
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    this.bound(now);
    return value;
  }

  private bound(now: number): void {
    const max = this.options.maxEntries ?? 1000;
    if (this.entries.size <= max) return;
    for (const [k, v] of this.entries) if (v.until <= now) this.entries.delete(k);
    // a Map iterates in insertion order: the first keys are the oldest
    for (const k of this.entries.keys()) {
      if (this.entries.size <= max) break;
      this.entries.delete(k);
    }
  }
}
