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
 * One RBAC-like rule: the equivalent of a Role/ClusterRole with a single PolicyRule, bound to
 * `users` and `groups`. `namespaces: '*'` is a ClusterRoleBinding (every namespace and the
 * cluster scope); a list is one RoleBinding per namespace (never matches cluster-scoped requests).
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
}
