import type { RequestInfo, UserInfo } from '../../api/types';

/** A resource request's attributes, as kube-apiserver's RequestInfo resolver yields them. */
export function resourceRequest(
  verb: string,
  apiGroup: string,
  resource: string,
  opts: { namespace?: string; name?: string; subresource?: string } = {},
): RequestInfo {
  return {
    isResourceRequest: true,
    path: '',
    verb,
    apiGroup,
    apiVersion: 'v1',
    namespace: opts.namespace ?? '',
    resource,
    subresource: opts.subresource ?? '',
    name: opts.name ?? '',
    parts: [],
  };
}

export function nonResourceRequest(verb: string, path: string): RequestInfo {
  return {
    isResourceRequest: false,
    path,
    verb,
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    parts: [],
  };
}

export function userInfo(username: string, ...groups: string[]): UserInfo {
  return { username, groups };
}
