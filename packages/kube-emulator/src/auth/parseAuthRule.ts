import type { Checker } from './authConfigChecker';
import type { PolicyRule } from './types';

const RULE_KEYS = [
  'name',
  'users',
  'groups',
  'namespaces',
  'verbs',
  'apiGroups',
  'resources',
  'resourceNames',
  'nonResourceURLs',
  'impersonate',
];
const IMPERSONATE_KEYS = [
  'users',
  'groups',
  'uids',
  'serviceAccounts',
  'userExtras',
];

function namesOrAll(names: string[]): string[] {
  // RBAC has no wildcard resourceName: "any name" is an empty resourceNames list.
  return names.includes('*') ? [] : names;
}

function impersonateRules(
  c: Checker,
  value: unknown,
  at: string,
  base: Pick<PolicyRule, 'name' | 'users' | 'groups'>,
): PolicyRule[] {
  const o = c.object(value, at, IMPERSONATE_KEYS);
  if (!o) return [];
  const rule = (
    apiGroup: string,
    resource: string,
    names: string[],
    namespaces: string[] | '*' = '*',
  ): PolicyRule => ({
    ...base,
    namespaces,
    verbs: ['impersonate'],
    apiGroups: [apiGroup],
    resources: [resource],
    resourceNames: namesOrAll(names),
    nonResourceURLs: [],
  });
  const out: PolicyRule[] = [];
  const users = c.strings(o.users, `${at}.users`);
  if (users.length) out.push(rule('', 'users', users));
  const groups = c.strings(o.groups, `${at}.groups`);
  if (groups.length) out.push(rule('', 'groups', groups));
  const uids = c.strings(o.uids, `${at}.uids`);
  if (uids.length) out.push(rule('authentication.k8s.io', 'uids', uids));
  c.strings(o.serviceAccounts, `${at}.serviceAccounts`).forEach((ref, i) => {
    if (ref === '*') {
      out.push(rule('', 'serviceaccounts', []));
      return;
    }
    const [namespace, name, extra] = ref.split('/');
    if (!namespace || !name || extra !== undefined) {
      c.problems.push(
        `${at}.serviceAccounts[${i}]: must be "<namespace>/<name>", "<namespace>/*" or "*"`,
      );
      return;
    }
    out.push(
      rule('', 'serviceaccounts', name === '*' ? [] : [name], [namespace]),
    );
  });
  if (o.userExtras !== undefined) {
    const extras = c.object(
      o.userExtras,
      `${at}.userExtras`,
      Object.keys(c.isObject(o.userExtras) ? o.userExtras : {}),
    );
    for (const [key, values] of Object.entries(extras ?? {})) {
      out.push(
        rule(
          'authentication.k8s.io',
          `userextras/${key}`,
          c.strings(values, `${at}.userExtras.${key}`, { required: true }),
        ),
      );
    }
  }
  if (out.length === 0)
    c.problems.push(
      `${at}: must grant at least one of ${IMPERSONATE_KEYS.join(', ')}`,
    );
  return out;
}

export function parseRule(c: Checker, value: unknown, at: string): PolicyRule[] {
  const o = c.object(value, at, RULE_KEYS);
  if (!o) return [];
  const name = c.string(o.name, `${at}.name`, true) ?? '';
  const users = c.strings(o.users, `${at}.users`);
  const groups = c.strings(o.groups, `${at}.groups`);
  if (users.length === 0 && groups.length === 0)
    c.problems.push(`${at}: needs at least one of users, groups`);
  const base = { name, users, groups };

  let namespaces: string[] | '*' = '*';
  if (o.namespaces !== undefined && o.namespaces !== '*') {
    namespaces = c.strings(o.namespaces, `${at}.namespaces`, {
      required: true,
    });
    if (namespaces.includes('*')) namespaces = '*';
  }

  const hasImpersonate = o.impersonate !== undefined;
  const hasGrant = [
    'verbs',
    'apiGroups',
    'resources',
    'resourceNames',
    'nonResourceURLs',
  ].some(k => o[k] !== undefined);
  if (hasImpersonate && (hasGrant || o.namespaces !== undefined)) {
    c.problems.push(
      `${at}.impersonate: cannot be combined with verbs, apiGroups, resources, resourceNames, nonResourceURLs or namespaces in one rule`,
    );
    return [];
  }
  if (hasImpersonate)
    return impersonateRules(c, o.impersonate, `${at}.impersonate`, base);

  const verbs = c.strings(o.verbs, `${at}.verbs`, { required: true });
  const nonResourceURLs = c.strings(o.nonResourceURLs, `${at}.nonResourceURLs`);
  const resources = c.strings(o.resources, `${at}.resources`);
  const apiGroups = c.strings(o.apiGroups, `${at}.apiGroups`, {
    allowEmptyItems: true,
  });
  const resourceNames = c.strings(o.resourceNames, `${at}.resourceNames`);
  if (nonResourceURLs.length > 0) {
    if (resources.length || apiGroups.length || resourceNames.length) {
      c.problems.push(
        `${at}.nonResourceURLs: cannot be combined with apiGroups, resources or resourceNames`,
      );
    }
    if (o.namespaces !== undefined && namespaces !== '*') {
      c.problems.push(
        `${at}.namespaces: nonResourceURLs rules are cluster-wide; remove namespaces`,
      );
    }
    nonResourceURLs.forEach((url, i) => {
      if (url !== '*' && !url.startsWith('/'))
        c.problems.push(
          `${at}.nonResourceURLs[${i}]: must start with "/" or be "*"`,
        );
      if (url.indexOf('*') !== -1 && url.indexOf('*') !== url.length - 1) {
        c.problems.push(
          `${at}.nonResourceURLs[${i}]: "*" is only allowed at the end`,
        );
      }
    });
  } else {
    if (resources.length === 0)
      c.problems.push(
        `${at}: needs resources (with apiGroups) or nonResourceURLs`,
      );
    if (o.apiGroups === undefined)
      c.problems.push(
        `${at}.apiGroups: is required with resources (use "" for the core group)`,
      );
  }
  return [
    {
      ...base,
      namespaces,
      verbs,
      apiGroups,
      resources,
      resourceNames,
      nonResourceURLs,
    },
  ];
}
