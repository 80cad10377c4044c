/**
 * The rbac.authorization.k8s.io/v1 objects the emulator serves and evaluates, reduced to the
 * fields RBAC authorization reads (k8s.io/api/rbac/v1).
 */

/** The API group of every RBAC object and of User and Group subjects. */
export const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** One rule of a Role or ClusterRole. Every list may be absent on the wire. */
export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** Who a binding grants its role to. */
export interface Subject {
  kind: 'User' | 'Group' | 'ServiceAccount' | string;
  name: string;
  apiGroup?: string;
  /** ServiceAccount only; a RoleBinding defaults it to the binding's namespace. */
  namespace?: string;
}

export interface RoleRef {
  apiGroup: string;
  kind: 'Role' | 'ClusterRole' | string;
  name: string;
}

/** metav1.LabelSelector as used by ClusterRole aggregation. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{
    key: string;
    operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | string;
    values?: string[];
  }>;
}

interface Meta {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  [key: string]: unknown;
}

export interface ClusterRole {
  apiVersion?: string;
  kind?: 'ClusterRole';
  metadata: Meta;
  rules?: PolicyRule[] | null;
  aggregationRule?: { clusterRoleSelectors?: LabelSelector[] } | null;
}

export interface Role {
  apiVersion?: string;
  kind?: 'Role';
  metadata: Meta & { namespace: string };
  rules?: PolicyRule[] | null;
}

export interface ClusterRoleBinding {
  apiVersion?: string;
  kind?: 'ClusterRoleBinding';
  metadata: Meta;
  roleRef: RoleRef;
  subjects?: Subject[] | null;
}

export interface RoleBinding {
  apiVersion?: string;
  kind?: 'RoleBinding';
  metadata: Meta & { namespace: string };
  roleRef: RoleRef;
  subjects?: Subject[] | null;
}

/** Any of the four RBAC kinds. */
export type RbacObject = ClusterRole | Role | ClusterRoleBinding | RoleBinding;

/**
 * Where the rule resolver reads RBAC objects from: the emulator's store (through an index kept
 * by its watch, as kube-apiserver reads them through informers) or a fixed list in unit tests.
 * Missing roles are `undefined`; the resolver reports them as kube does.
 */
export interface RbacObjectSource {
  clusterRoleBindings(): readonly ClusterRoleBinding[];
  roleBindings(namespace: string): readonly RoleBinding[];
  clusterRole(name: string): ClusterRole | undefined;
  role(namespace: string, name: string): Role | undefined;
}
