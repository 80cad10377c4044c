import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import type { RbacObject } from '../rbac/types';
import { Checker } from './authConfigChecker';
import { parseRule } from './parseAuthRule';
import type {
  AuthConfig,
  AuthServiceAccount,
  AuthUser,
} from './types';

/** Thrown for an invalid auth file; `problems` lists every bad key, each as `<path>: <problem>`. */
export class AuthConfigError extends Error {
  constructor(
    readonly problems: string[],
    source = 'auth config',
  ) {
    super(`invalid ${source}:\n  ${problems.join('\n  ')}`);
    this.name = 'AuthConfigError';
  }
}


const USER_KEYS = ['name', 'uid', 'groups', 'tokens', 'certCN'];
const SERVICE_ACCOUNT_KEYS = ['namespace', 'name', 'tokens'];
function parseUser(
  c: Checker,
  value: unknown,
  at: string,
): AuthUser | undefined {
  const o = c.object(value, at, USER_KEYS);
  if (!o) return undefined;
  const name = c.string(o.name, `${at}.name`, true);
  const uid = c.string(o.uid, `${at}.uid`, false);
  const certCN = c.string(o.certCN, `${at}.certCN`, false);
  const groups = c.strings(o.groups, `${at}.groups`);
  const tokens = c.strings(o.tokens, `${at}.tokens`);
  if (!name) return undefined;
  return {
    name,
    groups,
    tokens,
    ...(uid ? { uid } : {}),
    ...(certCN ? { certCN } : {}),
  };
}

function parseServiceAccount(
  c: Checker,
  value: unknown,
  at: string,
): AuthServiceAccount | undefined {
  const o = c.object(value, at, SERVICE_ACCOUNT_KEYS);
  if (!o) return undefined;
  const namespace = c.string(o.namespace, `${at}.namespace`, true);
  const name = c.string(o.name, `${at}.name`, true);
  const tokens = c.strings(o.tokens, `${at}.tokens`);
  return namespace && name ? { namespace, name, tokens } : undefined;
}

const RBAC_KINDS = ['ClusterRole', 'Role', 'ClusterRoleBinding', 'RoleBinding'];

/** Only the envelope: what a role or binding may contain is the store's validation (kube's). */
function parseRbacObject(
  c: Checker,
  value: unknown,
  at: string,
): RbacObject | undefined {
  if (!c.isObject(value)) {
    c.problems.push(`${at}: must be a mapping`);
    return undefined;
  }
  if (value.apiVersion !== 'rbac.authorization.k8s.io/v1')
    c.problems.push(`${at}.apiVersion: must be rbac.authorization.k8s.io/v1`);
  if (!RBAC_KINDS.includes(value.kind as string))
    c.problems.push(`${at}.kind: must be one of ${RBAC_KINDS.join(', ')}`);
  const meta = value.metadata;
  if (!c.isObject(meta) || typeof meta.name !== 'string' || !meta.name)
    c.problems.push(`${at}.metadata.name: is required`);
  return value as unknown as RbacObject;
}

/**
 * Parses and validates the emulator's auth file. Format (every key optional unless noted):
 *
 * ```yaml
 * users:                      # bearer-token and client-certificate users
 *   - name: alice             # required; the Kubernetes user name
 *     uid: "1001"
 *     groups: [team-a]        # system:authenticated is always added
 *     tokens: [alice-token]   # Authorization: Bearer alice-token
 *     certCN: alice           # a client cert with this CN is this user
 * serviceAccounts:            # system:serviceaccount:<namespace>:<name>, groups system:serviceaccounts(:<ns>)
 *   - { namespace: dbaas-system, name: apiserver, tokens: [apiserver-token] }
 * rules:                      # one Role/ClusterRole rule + its binding each
 *   - name: team-a-edit       # required; shown in SubjectAccessReview reasons
 *     users: [alice]          # at least one of users / groups
 *     groups: [team-a]
 *     namespaces: [team-a]    # list = RoleBindings; "*" or absent = ClusterRoleBinding
 *     verbs: [get, list, watch, create, update, patch, delete]   # "*" = all
 *     apiGroups: [dbaas.platform.dev]                              # "" = core, "*" = all
 *     resources: [databaseinstances, databaseinstances/status]   # "*" = all; "*\/status" = that subresource of all
 *     resourceNames: [orders-db]                                   # optional
 *   - name: discovery
 *     groups: [system:authenticated]
 *     verbs: [get]
 *     nonResourceURLs: [/apis, /apis/*]                           # trailing * = prefix
 *   - name: backstage-impersonation
 *     users: [system:serviceaccount:backstage:backend]
 *     impersonate:            # the impersonate verb; "*" = any name
 *       users: ["*"]
 *       groups: ["*"]
 *       uids: ["*"]
 *       serviceAccounts: [team-a/*]
 *       userExtras: { scopes: ["*"] }
 * rbac:                       # RBAC objects as kubectl would apply them
 *   - apiVersion: rbac.authorization.k8s.io/v1
 *     kind: RoleBinding       # one in a namespace that does not exist yet is made when it is created
 *     metadata: { name: team-a-view, namespace: team-a }
 *     roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view }
 *     subjects: [{ apiGroup: rbac.authorization.k8s.io, kind: Group, name: team-a }]
 * ```
 * Throws {@link AuthConfigError} naming every bad key.
 */
export function parseAuthConfig(
  text: string,
  source = 'auth config',
): AuthConfig {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    throw new AuthConfigError(
      [`not valid YAML: ${(e as Error).message}`],
      source,
    );
  }
  const c = new Checker();
  if (doc === null || doc === undefined) doc = {};
  const root = c.object(doc, '$', [
    'users',
    'serviceAccounts',
    'rules',
    'rbac',
  ]);
  const users = c
    .list(root?.users, 'users')
    .map((u, i) => parseUser(c, u, `users[${i}]`))
    .filter((u): u is AuthUser => !!u);
  const serviceAccounts = c
    .list(root?.serviceAccounts, 'serviceAccounts')
    .map((s, i) => parseServiceAccount(c, s, `serviceAccounts[${i}]`))
    .filter((s): s is AuthServiceAccount => !!s);
  const rules = c
    .list(root?.rules, 'rules')
    .flatMap((r, i) => parseRule(c, r, `rules[${i}]`));
  const rbac = c
    .list(root?.rbac, 'rbac')
    .map((o, i) => parseRbacObject(c, o, `rbac[${i}]`))
    .filter((o): o is RbacObject => !!o);

  const seenTokens = new Map<string, string>();
  const noteTokens = (tokens: string[], at: string) =>
    tokens.forEach((t, i) => {
      const other = seenTokens.get(t);
      if (other)
        c.problems.push(`${at}.tokens[${i}]: token already used by ${other}`);
      seenTokens.set(t, at);
    });
  users.forEach((u, i) => noteTokens(u.tokens, `users[${i}]`));
  serviceAccounts.forEach((s, i) =>
    noteTokens(s.tokens, `serviceAccounts[${i}]`),
  );

  if (c.problems.length > 0) throw new AuthConfigError(c.problems, source);
  return { users, serviceAccounts, rules, rbac };
}

/** Reads and parses an auth YAML file (see {@link parseAuthConfig}). */
export async function loadAuthConfig(file: string): Promise<AuthConfig> {
  return parseAuthConfig(await readFile(file, 'utf8'), file);
}

// The emulator runs from source (package main is src/index.ts), so the file is found beside it.
// eslint-disable-next-line no-restricted-syntax
const SOURCE_DIR = __dirname;

/** The auth file shipped for the demo: admin, alice (team-a), bob (team-b), carol (viewer), the apiserver and Backstage service accounts, the people's bindings. */
export const DEFAULT_AUTH_CONFIG_PATH = path.resolve(
  SOURCE_DIR,
  '../../rbac/default.yaml',
);
