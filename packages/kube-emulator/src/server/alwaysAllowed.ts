import type { RequestInfo, UserInfo } from '../api/types';

const PUBLIC_PATHS = new Set([
  '/healthz',
  '/livez',
  '/readyz',
  '/version',
  '/version/',
]);
const DISCOVERY_PATH = /^\/(api|apis|openapi)(\/.*)?$/;

/** Authorization kube's default RBAC grants without rules (system:discovery, system:public-info-viewer) plus system:masters. */
export function alwaysAllowed(user: UserInfo, info: RequestInfo): boolean {
  if (user.groups.includes('system:masters')) return true;
  if (info.isResourceRequest) return false;
  if (PUBLIC_PATHS.has(info.path)) return true;
  return (
    user.groups.includes('system:authenticated') &&
    DISCOVERY_PATH.test(info.path)
  );
}
