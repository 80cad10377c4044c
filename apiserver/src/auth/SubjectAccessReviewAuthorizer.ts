import { subjectAccessReviewSpec } from './subjectAccessReviewSpec';
import type {
  SubjectAccessReviewer,
  SubjectAccessReviewStatus,
} from './SubjectAccessReviewer';
import { TtlCache } from './TtlCache';
import type {
  AuthorizationDecision,
  Authorizer,
  RequestInfo,
  UserInfo,
} from './types';

/** Paths kubelet probes hit; never depend on authorization (contract §3.2, exact matches). */
export const ALWAYS_ALLOWED_PATHS: readonly string[] = [
  '/healthz',
  '/readyz',
  '/livez',
];
export const MASTERS_GROUP = 'system:masters';
/** k8s caps the cache key size; identities with huge extras are not worth caching. */
const MAX_CACHE_KEY_LENGTH = 10_000;

export interface SubjectAccessReviewAuthorizerOptions {
  reviewer: SubjectAccessReviewer;
  /** Lifetime of cached allow and deny decisions (k8s default 10 s each). */
  cacheTtlMs?: number;
  cacheMaxEntries?: number;
  now?: () => number;
  logger?: { warn(msg: string, meta?: object): void };
}

/** Decision for a SAR status, exactly as kube's webhook authorizer maps it (contract §3.3). */
export function decisionFromStatus(
  status: SubjectAccessReviewStatus,
): AuthorizationDecision {
  const reason = status.reason || undefined;
  if (status.denied) {
    return { allowed: false, ...(reason ? { reason } : {}) };
  }
  if (status.allowed) {
    return { allowed: true, ...(reason ? { reason } : {}) };
  }
  // No opinion: there is no other authorizer behind us, so it is a deny.
  const why = reason ?? status.evaluationError;
  return { allowed: false, ...(why ? { reason: why } : {}) };
}

/**
 * Delegated authorization: every request becomes a SubjectAccessReview to kube-apiserver,
 * except the probe paths and `system:masters`. Allow and deny are cached briefly keyed by the
 * whole spec; failures (timeouts, 5xx after retries) deny and are not cached.
 */
export class SubjectAccessReviewAuthorizer implements Authorizer {
  private readonly cache: TtlCache<AuthorizationDecision>;

  constructor(private readonly options: SubjectAccessReviewAuthorizerOptions) {
    this.cache = new TtlCache<AuthorizationDecision>(
      options.cacheTtlMs ?? 10_000,
      options.cacheMaxEntries ?? 10_000,
      options.now,
    );
  }

  async authorize(
    user: UserInfo,
    info: RequestInfo,
  ): Promise<AuthorizationDecision> {
    if (!info.isResourceRequest && ALWAYS_ALLOWED_PATHS.includes(info.path)) {
      return { allowed: true };
    }
    if (user.groups.includes(MASTERS_GROUP)) {
      return { allowed: true };
    }
    const spec = subjectAccessReviewSpec(user, info);
    const key = JSON.stringify(spec);
    const cacheable = key.length <= MAX_CACHE_KEY_LENGTH;
    const cached = cacheable ? this.cache.get(key) : undefined;
    if (cached) {
      return cached;
    }
    let decision: AuthorizationDecision;
    try {
      decision = decisionFromStatus(await this.options.reviewer.review(spec));
    } catch (err) {
      this.options.logger?.warn('SubjectAccessReview failed', {
        user: user.username,
        error: (err as Error)?.message ?? String(err),
      });
      return {
        allowed: false,
        reason: 'the authorization check could not be completed',
      };
    }
    if (cacheable) {
      this.cache.set(key, decision);
    }
    return decision;
  }
}
