import type { PolicyRule as AuthRule } from '../auth/types';
import {
  RBAC_GROUP,
  type ClusterRole,
  type ClusterRoleBinding,
  type PolicyRule,
  type RbacObject,
  type Role,
  type RoleBinding,
  type Subject,
} from './types';

const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';

/** A user name of the form system:serviceaccount:<ns>:<name> is bound as the ServiceAccount it is. */
function subjectsOf(rule: AuthRule): Subject[] {
  const users = rule.users.map((name): Subject => {
    if (name.startsWith(SERVICE_ACCOUNT_PREFIX)) {
      const [namespace, sa] = name
        .slice(SERVICE_ACCOUNT_PREFIX.length)
        .split(':');
      if (namespace && sa)
        return { kind: 'ServiceAccount', name: sa, namespace };
    }
    return { kind: 'User', apiGroup: RBAC_GROUP, name };
  });
  const groups = rule.groups.map((name): Subject => ({
    kind: 'Group',
    apiGroup: RBAC_GROUP,
    name,
  }));
  return [...users, ...groups];
}

function policyRule(rule: AuthRule): PolicyRule {
  const out: PolicyRule = { verbs: [...rule.verbs] };
  if (rule.nonResourceURLs.length) {
    out.nonResourceURLs = [...rule.nonResourceURLs];
    return out;
  }
  out.apiGroups = [...rule.apiGroups];
  out.resources = [...rule.resources];
  if (rule.resourceNames.length) out.resourceNames = [...rule.resourceNames];
  return out;
}

const sameSubjects = (a: Subject[], b: Subject[]) =>
  JSON.stringify(a) === JSON.stringify(b);

/**
 * The auth file's `rules:` shorthand as the RBAC objects an admin would write for it: each rule
 * name becomes a ClusterRole with a ClusterRoleBinding (`namespaces` absent or "*"), or a Role
 * with a RoleBinding in each listed namespace, all named after the rule, so that RBAC's reasons
 * ("allowed by ClusterRoleBinding "x" of ClusterRole "x" …") name it. Entries sharing a name and
 * scope are one role with several rules; their subjects must then agree.
 */
export function authRulesToRbacObjects(
  rules: readonly AuthRule[],
): RbacObject[] {
  const clusterRoles = new Map<
    string,
    { role: ClusterRole; binding: ClusterRoleBinding }
  >();
  const roles = new Map<string, { role: Role; binding: RoleBinding }>();
  for (const rule of rules) {
    const subjects = subjectsOf(rule);
    const roleRule = policyRule(rule);
    const roleRef = (kind: 'Role' | 'ClusterRole') => ({
      apiGroup: RBAC_GROUP,
      kind,
      name: rule.name,
    });
    const check = (existing: Subject[] | null | undefined, where: string) => {
      if (!sameSubjects(existing ?? [], subjects))
        throw new Error(
          `rules named "${rule.name}"${where} bind different users or groups; give them different names`,
        );
    };
    if (rule.namespaces === '*') {
      const found = clusterRoles.get(rule.name);
      if (found) {
        check(found.binding.subjects, '');
        found.role.rules!.push(roleRule);
        continue;
      }
      clusterRoles.set(rule.name, {
        role: {
          apiVersion: `${RBAC_GROUP}/v1`,
          kind: 'ClusterRole',
          metadata: { name: rule.name },
          rules: [roleRule],
        },
        binding: {
          apiVersion: `${RBAC_GROUP}/v1`,
          kind: 'ClusterRoleBinding',
          metadata: { name: rule.name },
          roleRef: roleRef('ClusterRole'),
          subjects,
        },
      });
      continue;
    }
    for (const namespace of rule.namespaces) {
      const k = `${namespace}/${rule.name}`;
      const found = roles.get(k);
      if (found) {
        check(found.binding.subjects, ` in ${namespace}`);
        found.role.rules!.push(roleRule);
        continue;
      }
      roles.set(k, {
        role: {
          apiVersion: `${RBAC_GROUP}/v1`,
          kind: 'Role',
          metadata: { name: rule.name, namespace },
          rules: [roleRule],
        },
        binding: {
          apiVersion: `${RBAC_GROUP}/v1`,
          kind: 'RoleBinding',
          metadata: { name: rule.name, namespace },
          roleRef: roleRef('Role'),
          subjects,
        },
      });
    }
  }
  return [...clusterRoles.values(), ...roles.values()].flatMap(
    ({ role, binding }) => [role, binding],
  );
}
