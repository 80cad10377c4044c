import type { CustomHandler, UserInfo } from '../api/types';
import { StoreError } from '../store/types';
import { reviewHandler } from './reviewHandler';

/** The audience kube-apiserver's own tokens carry, used when a TokenReview names none. */
export const DEFAULT_TOKEN_AUDIENCE =
  'https://kubernetes.default.svc.cluster.local';

/** Something that can tell whose a bearer token is (the {@link EmulatorAuthenticator}). */
export interface TokenAuthenticator {
  authenticateToken(token: string): UserInfo | null;
}

/**
 * `POST /apis/authentication.k8s.io/v1/tokenreviews`: what delegated authentication (an extension
 * apiserver's bearer-token path) calls. A known token gives `authenticated: true` with the user
 * (groups include system:authenticated); an unknown one `authenticated: false` with an error.
 */
export function createTokenReviewHandler(
  authenticator: TokenAuthenticator,
): CustomHandler {
  return reviewHandler({
    group: 'authentication.k8s.io',
    resource: 'tokenreviews',
    kind: 'TokenReview',
    evaluate: review => {
      const spec = review.spec as { token?: unknown; audiences?: unknown };
      if (typeof spec.token !== 'string' || spec.token === '') {
        throw new StoreError(
          400,
          'BadRequest',
          'token is required for TokenReview in authentication',
        );
      }
      const requested = Array.isArray(spec.audiences)
        ? spec.audiences.filter((a): a is string => typeof a === 'string')
        : [];
      if (requested.length > 0 && !requested.includes(DEFAULT_TOKEN_AUDIENCE)) {
        return {
          authenticated: false,
          user: {},
          error: 'token audiences are invalid for the target audiences',
        };
      }
      const user = authenticator.authenticateToken(spec.token);
      if (!user)
        return {
          authenticated: false,
          user: {},
          error: 'invalid bearer token',
        };
      return {
        authenticated: true,
        user: {
          username: user.username,
          ...(user.uid ? { uid: user.uid } : {}),
          groups: user.groups,
          ...(user.extra && Object.keys(user.extra).length
            ? { extra: user.extra }
            : {}),
        },
        audiences: [DEFAULT_TOKEN_AUDIENCE],
      };
    },
  });
}

/**
 * `POST /apis/authentication.k8s.io/v1/selfsubjectreviews` (`kubectl auth whoami`): the caller's
 * own identity, after impersonation.
 */
export function createSelfSubjectReviewHandler(): CustomHandler {
  return reviewHandler({
    group: 'authentication.k8s.io',
    resource: 'selfsubjectreviews',
    kind: 'SelfSubjectReview',
    specRequired: false,
    evaluate: (_review, caller) => ({
      userInfo: {
        username: caller.username,
        ...(caller.uid ? { uid: caller.uid } : {}),
        groups: caller.groups,
        ...(caller.extra && Object.keys(caller.extra).length
          ? { extra: caller.extra }
          : {}),
      },
    }),
  });
}
