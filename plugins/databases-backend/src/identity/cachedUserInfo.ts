import type { BackstageCredentials, BackstageUserInfo, UserInfoService } from '@backstage/backend-plugin-api';
import { SignInMemo, type SignInMemoOptions } from './SignInMemo';

/**
 * The user info service with a short memory. Backstage's auth backend leaves the ownership claim
 * out of user tokens by default (`auth.omitIdentityTokenOwnershipClaim`), so every
 * `getUserInfo` is an HTTP call to the auth backend's `/v1/userinfo`: one more round trip inside
 * the backend on every request, and a slow one while the catalog is busy. Answers are kept per
 * sign-in for `ttlMs` ({@link SignInMemo}), so a change of group membership reaches the cluster's
 * impersonation headers within `ttlMs`, like the cluster's own authorization caches.
 */
export function cachedUserInfo(inner: UserInfoService, options: SignInMemoOptions): UserInfoService {
  const memo = new SignInMemo<BackstageUserInfo>(options);
  return {
    getUserInfo: (credentials: BackstageCredentials) => memo.get(credentials, 'userinfo', () => inner.getUserInfo(credentials)),
  };
}
