import type { IncomingMessage } from 'node:http';
import type {
  Authorizer,
  Impersonator,
  RequestInfo,
  UserInfo,
} from '../api/types';
import { StoreError } from '../store/types';
import { SYSTEM_AUTHENTICATED } from './EmulatorAuthenticator';

const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';
const EXTRA_PREFIX = 'impersonate-extra-';

/** The impersonation a request asks for (parsed headers, not yet authorized). */
export interface ImpersonationRequest {
  user: string;
  groups: string[];
  uid?: string;
  extra: Record<string, string[]>;
}

/** Repeated header lines as separate values (Node's `headersDistinct`), rebuilt from rawHeaders if needed. */
export function distinctHeaders(
  req: IncomingMessage,
): Record<string, string[]> {
  if (req.headersDistinct)
    return req.headersDistinct as Record<string, string[]>;
  const out: Record<string, string[]> = {};
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    (out[req.rawHeaders[i].toLowerCase()] ??= []).push(req.rawHeaders[i + 1]);
  }
  return out;
}

function decodeKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/**
 * Reads `Impersonate-User`, `Impersonate-Group` (one group per header line, commas kept),
 * `Impersonate-Uid` and `Impersonate-Extra-<key>` (key lower-cased then percent-decoded).
 * `null` when there are none; a 400 when groups, uid or extras come without a user.
 */
export function parseImpersonationHeaders(
  headers: Record<string, string[] | undefined>,
): ImpersonationRequest | null {
  const user = headers['impersonate-user']?.[0];
  const groups = headers['impersonate-group'] ?? [];
  const uid = headers['impersonate-uid']?.[0];
  const extra: Record<string, string[]> = {};
  for (const [name, values] of Object.entries(headers)) {
    if (name.startsWith(EXTRA_PREFIX) && values) {
      (extra[decodeKey(name.slice(EXTRA_PREFIX.length).toLowerCase())] ??=
        []).push(...values);
    }
  }
  if (user === undefined || user === '') {
    if (groups.length || uid !== undefined || Object.keys(extra).length) {
      throw new StoreError(
        400,
        'BadRequest',
        'requested impersonation of groups, uid or extra without impersonating a user',
      );
    }
    return null;
  }
  return { user, groups, ...(uid !== undefined ? { uid } : {}), extra };
}

function attributes(
  resource: string,
  apiGroup: string,
  name: string,
  namespace = '',
  subresource = '',
): RequestInfo {
  return {
    isResourceRequest: true,
    path: '',
    verb: 'impersonate',
    apiGroup,
    apiVersion: '',
    namespace,
    resource,
    subresource,
    name,
    parts: [resource, name],
  };
}

/** kube's 403 for a refused impersonation (`users "bob" is forbidden: User "alice" cannot impersonate …`). */
export function impersonationForbidden(
  actor: UserInfo,
  a: RequestInfo,
  reason?: string,
): StoreError {
  const resource = a.subresource
    ? `${a.resource}/${a.subresource}`
    : a.resource;
  const qualified = a.apiGroup ? `${a.resource}.${a.apiGroup}` : a.resource;
  const scope = a.namespace
    ? `in the namespace "${a.namespace}"`
    : 'at the cluster scope';
  const message =
    `${qualified} "${a.name}" is forbidden: User "${actor.username}" cannot impersonate resource "${resource}" ` +
    `in API group "${a.apiGroup}" ${scope}${reason ? `: ${reason}` : ''}`;
  return new StoreError(403, 'Forbidden', message, {
    name: a.name,
    group: a.apiGroup,
    kind: a.resource,
  });
}

/**
 * kube-apiserver's impersonation filter: every requested user, group, uid and extra value is
 * checked as verb `impersonate` through the authorizer (users/groups/serviceaccounts in the core
 * group, uids and `userextras/<key>` in `authentication.k8s.io`). Impersonating a service account
 * without groups gives it its fixed groups; a non-anonymous result gets `system:authenticated`.
 */
export class HeaderImpersonator implements Impersonator {
  constructor(private readonly authorizer: Authorizer) {}

  apply(req: IncomingMessage, user: UserInfo): UserInfo {
    const request = parseImpersonationHeaders(distinctHeaders(req));
    return request ? this.impersonate(user, request) : user;
  }

  /** Authorizes and builds the impersonated identity (throws a 403 StoreError on refusal). */
  impersonate(actor: UserInfo, request: ImpersonationRequest): UserInfo {
    const checks: RequestInfo[] = [];
    let groups = [...request.groups];
    if (request.user.startsWith(SERVICE_ACCOUNT_PREFIX)) {
      const [namespace, name] = request.user
        .slice(SERVICE_ACCOUNT_PREFIX.length)
        .split(':');
      checks.push(
        attributes('serviceaccounts', '', name ?? '', namespace ?? ''),
      );
      if (groups.length === 0 && namespace)
        groups = [
          'system:serviceaccounts',
          `system:serviceaccounts:${namespace}`,
        ];
    } else {
      checks.push(attributes('users', '', request.user));
    }
    request.groups.forEach(g => checks.push(attributes('groups', '', g)));
    if (request.uid !== undefined)
      checks.push(attributes('uids', 'authentication.k8s.io', request.uid));
    for (const [key, values] of Object.entries(request.extra)) {
      values.forEach(v =>
        checks.push(
          attributes('userextras', 'authentication.k8s.io', v, '', key),
        ),
      );
    }
    for (const check of checks) {
      const decision = this.authorizer.authorize(actor, check);
      if (!decision.allowed)
        throw impersonationForbidden(actor, check, decision.reason);
    }
    if (request.user === 'system:anonymous') {
      if (!groups.includes('system:unauthenticated'))
        groups.push('system:unauthenticated');
    } else if (!groups.includes(SYSTEM_AUTHENTICATED)) {
      groups.push(SYSTEM_AUTHENTICATED);
    }
    return {
      username: request.user,
      groups,
      ...(request.uid !== undefined ? { uid: request.uid } : {}),
      ...(Object.keys(request.extra).length ? { extra: request.extra } : {}),
    };
  }
}
