import type {
  Authorizer,
  CustomHandler,
  RequestInfo,
  UserInfo,
} from '../api/types';
import { invalidReview, reviewHandler } from './reviewHandler';

const GROUP = 'authorization.k8s.io';

type Attributes = Record<string, unknown>;

function str(o: Attributes, key: string): string {
  return typeof o[key] === 'string' ? (o[key] as string) : '';
}

function stringList(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((v): v is string => typeof v === 'string')
    : [];
}

function extraMap(value: unknown): Record<string, string[]> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return undefined;
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(value)) out[k] = stringList(v);
  return out;
}

/**
 * The request attributes of an access review spec, as kube's SubjectAccessReview REST storage
 * builds `authorizer.Attributes` (ResourceAttributesFrom / NonResourceAttributesFrom).
 */
export function reviewAttributes(
  kind: string,
  spec: Record<string, unknown>,
): RequestInfo {
  const resource = spec.resourceAttributes as Attributes | undefined;
  const nonResource = spec.nonResourceAttributes as Attributes | undefined;
  if (!!resource === !!nonResource) {
    throw invalidReview(
      kind,
      GROUP,
      'spec.resourceAttributes',
      null,
      'exactly one of nonResourceAttributes or resourceAttributes must be specified',
    );
  }
  if (nonResource) {
    const path = str(nonResource, 'path');
    return {
      isResourceRequest: false,
      path,
      verb: str(nonResource, 'verb'),
      apiGroup: '',
      apiVersion: '',
      namespace: '',
      resource: '',
      subresource: '',
      name: '',
      parts: path.split('/').filter(Boolean),
    };
  }
  const r = resource as Attributes;
  return {
    isResourceRequest: true,
    path: '',
    verb: str(r, 'verb'),
    apiGroup: str(r, 'group'),
    apiVersion: str(r, 'version'),
    namespace: str(r, 'namespace'),
    resource: str(r, 'resource'),
    subresource: str(r, 'subresource'),
    name: str(r, 'name'),
    parts: [str(r, 'resource'), str(r, 'name')].filter(Boolean),
  };
}

function decide(
  authorizer: Authorizer,
  user: UserInfo,
  info: RequestInfo,
): Record<string, unknown> {
  const decision = authorizer.authorize(user, info);
  return {
    allowed: decision.allowed,
    ...(decision.reason ? { reason: decision.reason } : {}),
  };
}

/**
 * `POST /apis/authorization.k8s.io/v1/subjectaccessreviews`: evaluates `spec.resourceAttributes`
 * or `spec.nonResourceAttributes` for `spec.user`/`groups`/`uid`/`extra` with the emulator's
 * authorizer (what an extension apiserver's delegated authorization calls).
 */
export function createSubjectAccessReviewHandler(
  authorizer: Authorizer,
): CustomHandler {
  const kind = 'SubjectAccessReview';
  return reviewHandler({
    group: GROUP,
    resource: 'subjectaccessreviews',
    kind,
    evaluate: review => {
      const spec = review.spec as Record<string, unknown>;
      const info = reviewAttributes(kind, spec);
      const user = typeof spec.user === 'string' ? spec.user : '';
      const groups = stringList(spec.groups);
      if (user === '' && groups.length === 0) {
        throw invalidReview(
          kind,
          GROUP,
          'spec.user',
          '',
          'at least one of user or group must be specified',
        );
      }
      const extra = extraMap(spec.extra);
      return decide(
        authorizer,
        {
          username: user,
          groups,
          ...(typeof spec.uid === 'string' ? { uid: spec.uid } : {}),
          ...(extra ? { extra } : {}),
        },
        info,
      );
    },
  });
}

/**
 * `POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews` (`kubectl auth can-i`): the same
 * evaluation for the calling user.
 */
export function createSelfSubjectAccessReviewHandler(
  authorizer: Authorizer,
): CustomHandler {
  const kind = 'SelfSubjectAccessReview';
  return reviewHandler({
    group: GROUP,
    resource: 'selfsubjectaccessreviews',
    kind,
    evaluate: (review, caller) =>
      decide(
        authorizer,
        caller,
        reviewAttributes(kind, review.spec as Record<string, unknown>),
      ),
  });
}
