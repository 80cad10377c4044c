import type { RequestInfo } from '../api/types';
import type { PolicyRule } from './types';

// The matchers of k8s.io/kubernetes/pkg/apis/rbac/v1 (evaluation_helpers.go), as RBAC's
// RuleAllows combines them. "*" is the only wildcard; an empty resourceNames list means any name.

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return rule.verbs.some(v => v === '*' || v === verb);
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return (rule.apiGroups ?? []).some(g => g === '*' || g === group);
}

/**
 * `combined` is `resource` or `resource/subresource`. A rule's `*` is every resource and every
 * subresource; `*\/status` is that subresource of every resource; `pods` alone is not `pods/log`.
 */
export function resourceMatches(
  rule: PolicyRule,
  combined: string,
  subresource: string,
): boolean {
  return (rule.resources ?? []).some(
    r =>
      r === '*' ||
      r === combined ||
      (subresource !== '' && r === `*/${subresource}`),
  );
}

export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

/** `*` is every path; a trailing `*` is a prefix (kube trims every trailing `*`). */
export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  return (rule.nonResourceURLs ?? []).some(
    u =>
      u === '*' ||
      u === path ||
      (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))),
  );
}

/**
 * Whether one rule allows a request (RBAC's RuleAllows). Scope is not the rule's business: the
 * binding decides it (a RoleBinding's rules only reach requests in its namespace).
 */
export function ruleAllows(info: RequestInfo, rule: PolicyRule): boolean {
  if (!info.isResourceRequest)
    return (
      verbMatches(rule, info.verb) && nonResourceURLMatches(rule, info.path)
    );
  const combined = info.subresource
    ? `${info.resource}/${info.subresource}`
    : info.resource;
  return (
    verbMatches(rule, info.verb) &&
    apiGroupMatches(rule, info.apiGroup) &&
    resourceMatches(rule, combined, info.subresource) &&
    resourceNameMatches(rule, info.name)
  );
}
