import { randomBytes } from 'node:crypto';
import { badRequest, expired } from './StatusError';

/** What a continue token carries: which snapshot, and where the next page starts. */
export interface ContinueToken {
  /** resourceVersion of the snapshot. */
  rv: string;
  /** Snapshot id. */
  s: string;
  /** Offset of the next item. */
  o: number;
}

interface Snapshot<T> {
  key: string;
  rv: string;
  items: T[];
  expires: number;
}

/** Options of {@link ListSnapshots}. */
export interface ListSnapshotsOptions {
  /** How long a paginated list stays resumable. */
  ttlMs?: number;
  /** At most this many snapshots are kept (oldest dropped first). */
  max?: number;
  now?: () => number;
}

/** Opaque token (base64url JSON) for `metadata.continue`. */
export function encodeContinue(token: ContinueToken): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', ...token })).toString('base64url');
}

/** Decodes a continue token; anything we did not produce is a 400 `invalid continue token`. */
export function decodeContinue(raw: string): ContinueToken {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch (e) {
    throw badRequest(`invalid continue token: ${(e as Error).message}`);
  }
  const t = parsed as Partial<ContinueToken> & { v?: string };
  if (
    !t ||
    t.v !== 'meta.k8s.io/v1' ||
    typeof t.rv !== 'string' ||
    typeof t.s !== 'string' ||
    typeof t.o !== 'number' ||
    !Number.isSafeInteger(t.o) ||
    t.o < 0
  ) {
    throw badRequest('invalid continue token: unknown format');
  }
  return { rv: t.rv, s: t.s, o: t.o };
}

/**
 * Paginated lists are served from a snapshot taken by the first page, so every page has the same
 * resourceVersion and later changes do not shift items between pages ("continue token, exact").
 * Snapshots are in memory: a token used on another replica or after expiry is a 410.
 */
export class ListSnapshots<T> {
  private readonly snapshots = new Map<string, Snapshot<T>>();
  private readonly ttlMs: number;
  private readonly max: number;
  private readonly now: () => number;

  constructor(options: ListSnapshotsOptions = {}) {
    this.ttlMs = options.ttlMs ?? 5 * 60_000;
    this.max = options.max ?? 64;
    this.now = options.now ?? Date.now;
  }

  /** Keeps `items` (already filtered) for `key` (resource + namespace) and returns its id. */
  save(key: string, rv: string, items: T[]): string {
    this.prune();
    while (this.snapshots.size >= this.max) {
      const oldest = this.snapshots.keys().next().value as string;
      this.snapshots.delete(oldest);
    }
    const id = randomBytes(9).toString('base64url');
    this.snapshots.set(id, { key, rv, items, expires: this.now() + this.ttlMs });
    return id;
  }

  /** The snapshot a token points at, or the 410 kube-apiserver gives for expired tokens. */
  resume(token: ContinueToken, key: string): { rv: string; items: T[] } {
    this.prune();
    const snap = this.snapshots.get(token.s);
    if (!snap || snap.rv !== token.rv) {
      throw expired(
        'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.',
      );
    }
    if (snap.key !== key) throw badRequest('invalid continue token: it belongs to another list');
    return snap;
  }

  /** A kept snapshot at exactly `rv` for `key`, if any (serves `resourceVersionMatch=Exact`). */
  findAt(key: string, rv: string): T[] | undefined {
    this.prune();
    for (const s of this.snapshots.values()) if (s.key === key && s.rv === rv) return s.items;
    return undefined;
  }

  private prune(): void {
    const now = this.now();
    for (const [id, s] of this.snapshots) if (s.expires <= now) this.snapshots.delete(id);
  }
}
