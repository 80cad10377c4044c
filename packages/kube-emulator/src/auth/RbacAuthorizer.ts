import type {
  AuthorizationDecision,
  Authorizer,
  RequestInfo,
  UserInfo,
} from '../api/types';
import type { AuthConfig, PolicyRule } from './types';

/** The group kube-apiserver allows everything, without consulting RBAC. */
export const SYSTEM_MASTERS = 'system:masters';

const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';

function rule(
  partial: Partial<PolicyRule> & Pick<PolicyRule, 'name' | 'verbs'>,
): PolicyRule {
  return {
    users: [],
    groups: [],
    namespaces: '*',
    apiGroups: [],
    resources: [],
    resourceNames: [],
    nonResourceURLs: [],
    ...partial,
  };
}

/**
 * The subset of kube-apiserver's bootstrap policy every cluster has (roles system:discovery,
 * system:public-info-viewer, system:basic-user): without it kubectl cannot even discover APIs.
 */
export const BOOTSTRAP_RULES: PolicyRule[] = [
  rule({
    name: 'system:discovery',
    groups: ['system:authenticated'],
    verbs: ['get'],
    nonResourceURLs: [
      '/api',
      '/api/*',
      '/apis',
      '/apis/*',
      '/healthz',
      '/livez',
      '/readyz',
      '/openapi',
      '/openapi/*',
      '/version',
      '/version/',
    ],
  }),
  rule({
    name: 'system:public-info-viewer',
    groups: ['system:authenticated', 'system:unauthenticated'],
    verbs: ['get'],
    nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'],
  }),
  rule({
    name: 'system:basic-user',
    groups: ['system:authenticated'],
    verbs: ['create'],
    apiGroups: ['authorization.k8s.io'],
    resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
  }),
  rule({
    name: 'system:basic-user',
    groups: ['system:authenticated'],
    verbs: ['create'],
    apiGroups: ['authentication.k8s.io'],
    resources: ['selfsubjectreviews'],
  }),
];

function includesOrStar(list: string[], value: string): boolean {
  return list.includes('*') || list.includes(value);
}

function resourceMatches(
  rules: string[],
  resource: string,
  subresource: string,
): boolean {
  const combined = subresource ? `${resource}/${subresource}` : resource;
  return rules.some(
    r =>
      r === '*' ||
      r === combined ||
      (subresource !== '' && r === `*/${subresource}`),
  );
}

function urlMatches(rules: string[], path: string): boolean {
  return rules.some(
    r =>
      r === '*' ||
      r === path ||
      (r.endsWith('*') && path.startsWith(r.slice(0, -1))),
  );
}

/** Pure rule match, as RBAC's `RuleAllows` plus the binding's namespace. */
export function ruleAllows(r: PolicyRule, info: RequestInfo): boolean {
  if (!includesOrStar(r.verbs, info.verb)) return false;
  if (!info.isResourceRequest)
    return (
      r.nonResourceURLs.length > 0 && urlMatches(r.nonResourceURLs, info.path)
    );
  if (r.resources.length === 0) return false;
  if (
    r.namespaces !== '*' &&
    (info.namespace === '' || !r.namespaces.includes(info.namespace))
  )
    return false;
  return (
    includesOrStar(r.apiGroups, info.apiGroup) &&
    resourceMatches(r.resources, info.resource, info.subresource) &&
    (r.resourceNames.length === 0 || r.resourceNames.includes(info.name))
  );
}

function describeSubject(kind: 'User' | 'Group', name: string): string {
  if (kind === 'User' && name.startsWith(SERVICE_ACCOUNT_PREFIX)) {
    const [namespace, sa] = name
      .slice(SERVICE_ACCOUNT_PREFIX.length)
      .split(':');
    return `ServiceAccount "${sa}/${namespace}"`;
  }
  return `${kind} "${name}"`;
}

function allowedReason(
  r: PolicyRule,
  info: RequestInfo,
  subject: string,
): string {
  if (r.namespaces === '*')
    return `RBAC: allowed by ClusterRoleBinding "${r.name}" of ClusterRole "${r.name}" to ${subject}`;
  return `RBAC: allowed by RoleBinding "${r.name}/${info.namespace}" of Role "${r.name}" to ${subject}`;
}

/** Options of {@link RbacAuthorizer}. */
export interface RbacAuthorizerOptions {
  rules: PolicyRule[];
  /** Add {@link BOOTSTRAP_RULES} (default true), as every real cluster has them. */
  bootstrapRules?: boolean;
}

/**
 * Authorizes like kube-apiserver's `Node,RBAC` chain reduced to RBAC: `system:masters` may do
 * everything; otherwise the first rule bound to the user (by name) or one of its groups that
 * matches allows, with RBAC's reason text. No match is a deny with an empty reason (RBAC's "no
 * opinion", which kube-apiserver turns into a 403).
 */
export class RbacAuthorizer implements Authorizer {
  private readonly rules: PolicyRule[];

  constructor(options: RbacAuthorizerOptions) {
    this.rules = [
      ...(options.bootstrapRules === false ? [] : BOOTSTRAP_RULES),
      ...options.rules,
    ];
  }

  /** Builds the authorizer from a parsed auth file. */
  static fromConfig(
    config: AuthConfig,
    options: Omit<RbacAuthorizerOptions, 'rules'> = {},
  ): RbacAuthorizer {
    return new RbacAuthorizer({ ...options, rules: config.rules });
  }

  authorize(user: UserInfo, info: RequestInfo): AuthorizationDecision {
    if (user.groups.includes(SYSTEM_MASTERS))
      return { allowed: true, reason: '' };
    for (const r of this.rules) {
      const subject = r.users.includes(user.username)
        ? describeSubject('User', user.username)
        : (() => {
            const group = user.groups.find(g => r.groups.includes(g));
            return group === undefined
              ? undefined
              : describeSubject('Group', group);
          })();
      if (subject && ruleAllows(r, info))
        return { allowed: true, reason: allowedReason(r, info, subject) };
    }
    return { allowed: false, reason: '' };
  }
}
