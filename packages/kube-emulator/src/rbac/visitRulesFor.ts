import type { UserInfo } from '../api/types';
import type { PolicyRule, RbacObjectSource, RoleRef, Subject } from './types';

const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';

/** Receives each applying rule with the binding it came from, or an error; false stops the visit. */
export type RuleVisitor = (
  source: string | undefined,
  rule: PolicyRule | undefined,
  error: Error | undefined,
) => boolean;

/** kube's NotFound message for a role a binding names (the lister's error text). */
function notFound(kind: 'role' | 'clusterrole', name: string): Error {
  return new Error(`${kind}.rbac.authorization.k8s.io "${name}" not found`);
}

/** The rules a binding's roleRef stands for, or the error kube would report. */
export function roleReferenceRules(
  objects: RbacObjectSource,
  roleRef: RoleRef,
  bindingNamespace: string,
): PolicyRule[] | Error {
  switch (roleRef.kind) {
    case 'Role': {
      const role = objects.role(bindingNamespace, roleRef.name);
      return role ? (role.rules ?? []) : notFound('role', roleRef.name);
    }
    case 'ClusterRole': {
      const role = objects.clusterRole(roleRef.name);
      return role ? (role.rules ?? []) : notFound('clusterrole', roleRef.name);
    }
    default:
      return new Error(`unsupported role reference kind: "${roleRef.kind}"`);
  }
}

/** Whether a subject names this user (appliesToUser); SA subjects default to the binding's namespace. */
export function subjectAppliesTo(
  user: UserInfo,
  subject: Subject,
  bindingNamespace: string,
): boolean {
  switch (subject.kind) {
    case 'User':
      return user.username === subject.name;
    case 'Group':
      return user.groups.includes(subject.name);
    case 'ServiceAccount': {
      const namespace = subject.namespace || bindingNamespace;
      if (!namespace) return false;
      return (
        user.username ===
        `${SERVICE_ACCOUNT_PREFIX}${namespace}:${subject.name}`
      );
    }
    default:
      return false;
  }
}

function describeSubject(subject: Subject, bindingNamespace: string): string {
  if (subject.kind === 'ServiceAccount')
    return `${subject.kind} "${subject.name}/${subject.namespace || bindingNamespace}"`;
  return `${subject.kind} "${subject.name}"`;
}

/**
 * Calls `visit` with each rule that applies to `user` in `namespace` and with each error met
 * resolving them, as kube's DefaultRuleResolver.VisitRulesFor: every ClusterRoleBinding first,
 * then, for a namespaced request only, the RoleBindings of that namespace. A cluster-scoped
 * request (namespace "") never reaches a RoleBinding, so a RoleBinding to a ClusterRole grants
 * the role's rules in its namespace only.
 */
export function visitRulesFor(
  objects: RbacObjectSource,
  user: UserInfo,
  namespace: string,
  visit: RuleVisitor,
): void {
  for (const binding of objects.clusterRoleBindings()) {
    const subject = (binding.subjects ?? []).find(s =>
      subjectAppliesTo(user, s, ''),
    );
    if (!subject) continue;
    const rules = roleReferenceRules(objects, binding.roleRef, '');
    if (rules instanceof Error) {
      if (!visit(undefined, undefined, rules)) return;
      continue;
    }
    const source = `ClusterRoleBinding "${binding.metadata.name}" of ${binding.roleRef.kind} "${binding.roleRef.name}" to ${describeSubject(subject, '')}`;
    for (const rule of rules) if (!visit(source, rule, undefined)) return;
  }
  if (!namespace) return;
  for (const binding of objects.roleBindings(namespace)) {
    const subject = (binding.subjects ?? []).find(s =>
      subjectAppliesTo(user, s, namespace),
    );
    if (!subject) continue;
    const rules = roleReferenceRules(objects, binding.roleRef, namespace);
    if (rules instanceof Error) {
      if (!visit(undefined, undefined, rules)) return;
      continue;
    }
    const source = `RoleBinding "${binding.metadata.name}/${namespace}" of ${binding.roleRef.kind} "${binding.roleRef.name}" to ${describeSubject(subject, namespace)}`;
    for (const rule of rules) if (!visit(source, rule, undefined)) return;
  }
}

/** kube's utilerrors.NewAggregate(...).Error(): one message as is, several deduplicated in brackets. */
export function aggregateErrorMessage(errors: Error[]): string {
  const messages = [...new Set(errors.map(e => e.message))];
  return messages.length === 1 ? messages[0] : `[${messages.join(', ')}]`;
}

/** Every rule that applies to `user` in `namespace`, and the resolution errors (kube's RulesFor). */
export function rulesFor(
  objects: RbacObjectSource,
  user: UserInfo,
  namespace: string,
): { rules: PolicyRule[]; errors: Error[] } {
  const rules: PolicyRule[] = [];
  const errors: Error[] = [];
  visitRulesFor(objects, user, namespace, (_source, rule, error) => {
    if (rule) rules.push(rule);
    if (error) errors.push(error);
    return true;
  });
  return { rules, errors };
}
