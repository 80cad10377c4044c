import type { KubeConfig } from '@kubernetes/client-node';
import { kubeRequest } from '../kube/kubeRequest';
import {
  DEFAULT_WEBHOOK_BACKOFF,
  retryTransient,
  type RetryBackoff,
} from '../kube/retryTransient';
import type { UserInfo } from './types';

/** `status` of a TokenReview. */
export interface TokenReviewStatus {
  authenticated?: boolean;
  user?: {
    username?: string;
    uid?: string;
    groups?: string[];
    extra?: Record<string, string[]>;
  };
  audiences?: string[];
  error?: string;
}

/** Asks kube-apiserver whether a bearer token is valid. */
export interface TokenReviewer {
  review(token: string): Promise<TokenReviewStatus>;
}

/**
 * TokenReviewer posting `authentication.k8s.io/v1` TokenReviews with the apiserver's own
 * credentials (contract §2.5): no audiences (kube-apiserver's own), 10 s timeout, retried on
 * transient errors with the webhook back-off.
 */
export class KubeTokenReviewer implements TokenReviewer {
  constructor(
    private readonly kc: KubeConfig,
    private readonly options: {
      timeoutMs?: number;
      backoff?: RetryBackoff;
    } = {},
  ) {}

  async review(token: string): Promise<TokenReviewStatus> {
    const body = {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      spec: { token },
    };
    const result = await retryTransient(
      () =>
        kubeRequest(this.kc, {
          method: 'POST',
          path: '/apis/authentication.k8s.io/v1/tokenreviews',
          repeatable: true, // a review creates nothing
          body,
          timeoutMs: this.options.timeoutMs ?? 10_000,
        }),
      this.options.backoff ?? DEFAULT_WEBHOOK_BACKOFF,
    );
    return (result?.status ?? {}) as TokenReviewStatus;
  }
}

/** The identity a successful TokenReview returned, or undefined if it did not authenticate. */
export function userFromTokenReview(
  status: TokenReviewStatus,
): UserInfo | undefined {
  if (!status.authenticated || !status.user?.username) {
    return undefined;
  }
  const { username, uid, groups, extra } = status.user;
  return {
    username,
    ...(uid ? { uid } : {}),
    groups: groups ?? [],
    ...(extra && Object.keys(extra).length ? { extra } : {}),
  };
}
