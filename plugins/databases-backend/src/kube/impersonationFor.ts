import type { BackstageUserInfo } from '@backstage/backend-plugin-api';
import type { Impersonation } from './KubeClusterClient';

/** Prefixes from `databases.impersonation`. */
export interface ImpersonationOptions {
  userPrefix: string;
  groupPrefix: string;
}

/**
 * The documented mapping from a Backstage identity to a Kubernetes one:
 * `Impersonate-User: <userPrefix><user entity ref>` (e.g. `user:default/alice`) and one
 * `Impersonate-Group: <groupPrefix><ref>` per ownership entity ref other than the user itself
 * (e.g. `group:default/team-a`). RBAC bindings name those strings.
 */
export function impersonationFor(
  info: BackstageUserInfo,
  options: ImpersonationOptions,
): Impersonation {
  const groups = [
    ...new Set(
      info.ownershipEntityRefs
        .filter(ref => ref !== info.userEntityRef)
        .map(ref => `${options.groupPrefix}${ref}`),
    ),
  ].sort();
  return { user: `${options.userPrefix}${info.userEntityRef}`, groups };
}
