import type { RbacObject } from '../rbac/types';

/** One user known to the emulator (authenticates with a bearer token or a client certificate). */
export interface AuthUser {
  name: string;
  uid?: string;
  groups: string[];
  tokens: string[];
  /** A client certificate with this CN authenticates as this user (groups = these + the cert's O). */
  certCN?: string;
}

/** A service account whose tokens authenticate as `system:serviceaccount:<namespace>:<name>`. */
export interface AuthServiceAccount {
  namespace: string;
  name: string;
  tokens: string[];
}

/**
 * One rule of the auth file's shorthand: a Role/ClusterRole with a single PolicyRule, bound to
 * `users` and `groups`. The emulator turns it into those objects (rbac/authRulesToRbacObjects):
 * `namespaces: '*'` is a ClusterRole with a ClusterRoleBinding (every namespace and the cluster
 * scope); a list is a Role and RoleBinding in each namespace (never cluster-scoped requests).
 */
export interface PolicyRule {
  name: string;
  users: string[];
  groups: string[];
  namespaces: string[] | '*';
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
  nonResourceURLs: string[];
}

/** The parsed, validated content of an auth YAML file (see `parseAuthConfig`). */
export interface AuthConfig {
  users: AuthUser[];
  serviceAccounts: AuthServiceAccount[];
  /** Rules with `impersonate:` shorthands already expanded. */
  rules: PolicyRule[];
  /** rbac.authorization.k8s.io/v1 objects to create (the store validates their content). */
  rbac: RbacObject[];
}
