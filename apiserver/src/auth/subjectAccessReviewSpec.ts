import type { RequestInfo, UserInfo } from './types';

/** `spec` of an `authorization.k8s.io/v1` SubjectAccessReview. */
export interface SubjectAccessReviewSpec {
  resourceAttributes?: {
    namespace?: string;
    verb: string;
    group?: string;
    version?: string;
    resource?: string;
    subresource?: string;
    name?: string;
  };
  nonResourceAttributes?: { path: string; verb: string };
  user: string;
  groups?: string[];
  extra?: Record<string, string[]>;
  uid?: string;
}

/**
 * The SubjectAccessReview spec kube's webhook authorizer sends for a request (contract §3.3):
 * empty attributes omitted, `version` included, and the identity exactly as authenticated.
 * Field order is fixed so that the JSON can serve as a cache key.
 */
export function subjectAccessReviewSpec(
  user: UserInfo,
  info: RequestInfo,
): SubjectAccessReviewSpec {
  const spec: SubjectAccessReviewSpec = { user: user.username };
  if (info.isResourceRequest) {
    const attrs: Record<string, string> = {};
    for (const [key, value] of [
      ['namespace', info.namespace],
      ['verb', info.verb],
      ['group', info.apiGroup],
      ['version', info.apiVersion],
      ['resource', info.resource],
      ['subresource', info.subresource],
      ['name', info.name],
    ] as const) {
      if (value) {
        attrs[key] = value;
      }
    }
    spec.resourceAttributes =
      attrs as unknown as SubjectAccessReviewSpec['resourceAttributes'];
  } else {
    spec.nonResourceAttributes = { path: info.path, verb: info.verb };
  }
  // Rebuilt so the attributes come first, as kube sends them (the JSON is also the cache key).
  return {
    ...(spec.resourceAttributes
      ? { resourceAttributes: spec.resourceAttributes }
      : {}),
    ...(spec.nonResourceAttributes
      ? { nonResourceAttributes: spec.nonResourceAttributes }
      : {}),
    user: user.username,
    ...(user.groups.length ? { groups: [...user.groups] } : {}),
    ...(user.extra && Object.keys(user.extra).length
      ? { extra: user.extra }
      : {}),
    ...(user.uid ? { uid: user.uid } : {}),
  };
}
