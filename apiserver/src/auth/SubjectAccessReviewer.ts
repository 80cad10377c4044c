import type { KubeConfig } from '@kubernetes/client-node';
import { kubeRequest } from '../kube/kubeRequest';
import {
  DEFAULT_WEBHOOK_BACKOFF,
  retryTransient,
  type RetryBackoff,
} from '../kube/retryTransient';
import type { SubjectAccessReviewSpec } from './subjectAccessReviewSpec';

/** `status` of a SubjectAccessReview. */
export interface SubjectAccessReviewStatus {
  allowed?: boolean;
  denied?: boolean;
  reason?: string;
  evaluationError?: string;
}

/** Asks kube-apiserver whether a user may do something. */
export interface SubjectAccessReviewer {
  review(spec: SubjectAccessReviewSpec): Promise<SubjectAccessReviewStatus>;
}

/**
 * SubjectAccessReviewer posting `authorization.k8s.io/v1` SubjectAccessReviews with the
 * apiserver's own credentials: 10 s timeout, retried on transient errors (contract §3.3).
 */
export class KubeSubjectAccessReviewer implements SubjectAccessReviewer {
  constructor(
    private readonly kc: KubeConfig,
    private readonly options: {
      timeoutMs?: number;
      backoff?: RetryBackoff;
    } = {},
  ) {}

  async review(
    spec: SubjectAccessReviewSpec,
  ): Promise<SubjectAccessReviewStatus> {
    const result = await retryTransient(
      () =>
        kubeRequest(this.kc, {
          method: 'POST',
          path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
          repeatable: true, // a review creates nothing
          body: {
            apiVersion: 'authorization.k8s.io/v1',
            kind: 'SubjectAccessReview',
            spec,
          },
          timeoutMs: this.options.timeoutMs ?? 10_000,
        }),
      this.options.backoff ?? DEFAULT_WEBHOOK_BACKOFF,
    );
    return (result?.status ?? {}) as SubjectAccessReviewStatus;
  }
}
