import { StoreError } from '../store/types';
import type { RequestInfo, UserInfo } from './types';

/**
 * The 403 kube-apiserver returns when authorization denies a request (k8s.io/apiserver
 * responsewriters.forbiddenMessage + apierrors.NewForbidden), with the authorizer's reason appended.
 */
export function forbiddenError(
  user: UserInfo,
  info: RequestInfo,
  reason?: string,
): StoreError {
  let message: string;
  if (!info.isResourceRequest) {
    message = `User "${user.username}" cannot ${info.verb} path "${info.path}"`;
  } else {
    const resource = info.subresource
      ? `${info.resource}/${info.subresource}`
      : info.resource;
    const scope = info.namespace
      ? `in the namespace "${info.namespace}"`
      : 'at the cluster scope';
    message = `User "${user.username}" cannot ${info.verb} resource "${resource}" in API group "${info.apiGroup}" ${scope}`;
  }
  if (reason) message += `: ${reason}`;
  if (!info.isResourceRequest)
    return new StoreError(403, 'Forbidden', `forbidden: ${message}`, {});
  const gr = info.apiGroup
    ? `${info.resource}.${info.apiGroup}`
    : info.resource;
  const prefix = info.name ? `${gr} "${info.name}"` : gr;
  return new StoreError(
    403,
    'Forbidden',
    `${prefix} is forbidden: ${message}`,
    {
      ...(info.name ? { name: info.name } : {}),
      group: info.apiGroup,
      kind: info.resource,
    },
  );
}
