import type { BackstageCredentials, BackstageUserInfo, UserInfoService } from '@backstage/backend-plugin-api';

/** Options of {@link cachedUserInfo}. */
export interface CachedUserInfoOptions {
  /** How long an answer is reused (never past the token's own expiry). */
  ttlMs: number;
  /** Entries kept at most; the oldest go first. */
  maxEntries?: number;
  now?: () => number;
}

/**
 * The user info service with a short memory. Backstage's auth backend leaves the ownership claim
 * out of user tokens by default (`auth.omitIdentityTokenOwnershipClaim`), so every
 * `getUserInfo` is an HTTP call to the auth backend's `/v1/userinfo`: one more round trip inside
 * the backend on every request, and a slow one while the catalog is busy. Answers are keyed by
 * the user and the token's expiry (one sign-in), reused for `ttlMs`; calls in flight are shared;
 * failures are not kept. A change of group membership therefore reaches the cluster's
 * impersonation headers within `ttlMs`, like the cluster's own authorization caches.
 */
export function cachedUserInfo(inner: UserInfoService, options: CachedUserInfoOptions): UserInfoService {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 1000;
  const entries = new Map<string, { until: number; info: Promise<BackstageUserInfo> }>();
  return {
    async getUserInfo(credentials: BackstageCredentials): Promise<BackstageUserInfo> {
      const principal = credentials.principal as { type?: string; userEntityRef?: string };
      // only users have info; let the service give its own error for anything else
      if (principal?.type !== 'user' || !principal.userEntityRef) return inner.getUserInfo(credentials);
      const expiresAt = credentials.expiresAt?.getTime();
      const key = `${principal.userEntityRef}\n${expiresAt ?? ''}`;
      const t = now();
      const hit = entries.get(key);
      if (hit && hit.until > t) return hit.info;
      entries.delete(key);
      const info = inner.getUserInfo(credentials);
      const until = Math.min(t + options.ttlMs, expiresAt ?? Infinity);
      entries.set(key, { until, info });
      info.catch(() => {
        if (entries.get(key)?.info === info) entries.delete(key);
      });
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      return info;
    },
  };
}
