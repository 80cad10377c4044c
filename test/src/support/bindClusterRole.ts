import type { KubeEmulator } from '@internal/kube-emulator';

const ROLE_BINDINGS = { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'rolebindings' };

/** A RoleBinding of one of the cluster's ClusterRoles to a user or group, in one namespace. */
export interface ClusterRoleGrant {
  /** The binding's name: say who gets what (`alice-connection-reader`). */
  name: string;
  namespace: string;
  clusterRole: string;
  user?: string;
  group?: string;
}

/**
 * Binds a ClusterRole in a namespace as an admin would (`kubectl create rolebinding <name>
 * --clusterrole=<role> --user=<user> -n <namespace>`), for a test that needs a permission the
 * demo's people do not have, so that the test names the role granting it. Returns the undo.
 */
export function bindClusterRole(emulator: KubeEmulator, grant: ClusterRoleGrant): () => void {
  const subjects = [
    ...(grant.user ? [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: grant.user }] : []),
    ...(grant.group ? [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: grant.group }] : []),
  ];
  emulator.store.create(ROLE_BINDINGS, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: grant.name, namespace: grant.namespace },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: grant.clusterRole },
    subjects,
  });
  return () => {
    if (emulator.store.get(ROLE_BINDINGS, grant.namespace, grant.name))
      emulator.store.delete(ROLE_BINDINGS, grant.namespace, grant.name);
  };
}
