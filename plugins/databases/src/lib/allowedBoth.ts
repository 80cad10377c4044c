/**
 * Whether a button is offered: the portal's permission (Backstage) and what the backend says the
 * cluster's RBAC lets the signed-in user do. An action the backend did not answer for (one it
 * could not check) leaves the permission alone; the request is checked again when it is made.
 */
export const allowedBoth = (permission: { allowed: boolean }, byCluster: boolean | undefined): boolean =>
  permission.allowed && (byCluster ?? true);
