import type { Authorizer, CustomHandler } from '../api/types';
import type { ResourceDefinition } from '../store/types';
import {
  createSelfSubjectAccessReviewHandler,
  createSubjectAccessReviewHandler,
} from './SubjectAccessReviewHandler';
import {
  createSelfSubjectRulesReviewHandler,
  type RuleResolver,
} from './SelfSubjectRulesReviewHandler';
import {
  createSelfSubjectReviewHandler,
  createTokenReviewHandler,
  TokenAuthenticator,
} from './TokenReviewHandler';

/** Every review endpoint the emulator serves, ready for `createApiServer({ customHandlers })`. */
export function createAuthHandlers(
  authenticator: TokenAuthenticator,
  authorizer: Authorizer & Partial<RuleResolver>,
): CustomHandler[] {
  return [
    createTokenReviewHandler(authenticator),
    createSelfSubjectReviewHandler(),
    createSubjectAccessReviewHandler(authorizer),
    createSelfSubjectAccessReviewHandler(authorizer),
    // only an authorizer that can list rules serves `kubectl auth can-i --list`
    ...(authorizer.rulesFor
      ? [createSelfSubjectRulesReviewHandler(authorizer as RuleResolver)]
      : []),
  ];
}

function review(
  group: string,
  plural: string,
  kind: string,
): ResourceDefinition {
  return {
    group,
    version: 'v1',
    plural,
    kind,
    listKind: `${kind}List`,
    singular: kind.toLowerCase(),
    namespaced: false,
    statusSubresource: false,
  };
}

/**
 * Discovery descriptions of the review resources (create-only, cluster-scoped), for the server's
 * `/apis/authentication.k8s.io/v1` and `/apis/authorization.k8s.io/v1` documents; kubectl resolves
 * them through discovery (`kubectl auth can-i`). They must advertise only the `create` verb.
 */
export const REVIEW_RESOURCES: ResourceDefinition[] = [
  review('authentication.k8s.io', 'tokenreviews', 'TokenReview'),
  review('authentication.k8s.io', 'selfsubjectreviews', 'SelfSubjectReview'),
  review('authorization.k8s.io', 'subjectaccessreviews', 'SubjectAccessReview'),
  review(
    'authorization.k8s.io',
    'selfsubjectaccessreviews',
    'SelfSubjectAccessReview',
  ),
  review(
    'authorization.k8s.io',
    'selfsubjectrulesreviews',
    'SelfSubjectRulesReview',
  ),
];
