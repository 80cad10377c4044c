import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Authenticator, UserInfo } from '../api/types';
import { StoreError } from '../store/types';
import type { AuthConfig } from './types';
import {
  parsePemBundle,
  peerCertificateChain,
  verifyClientCertificate,
} from './verifyClientCertificate';

/** Group every authenticated user gets (kube's AuthenticatedGroupAdder). */
export const SYSTEM_AUTHENTICATED = 'system:authenticated';

/** The 401 every rejected credential gets (no detail, as kube-apiserver). */
export function unauthorizedError(): StoreError {
  return new StoreError(401, 'Unauthorized', 'Unauthorized');
}

/** Adds `system:authenticated` unless present (or the user is anonymous). */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (
    user.username === 'system:anonymous' ||
    user.groups.includes(SYSTEM_AUTHENTICATED) ||
    user.groups.includes('system:unauthenticated')
  ) {
    return user;
  }
  return { ...user, groups: [...user.groups, SYSTEM_AUTHENTICATED] };
}

/** Stable uid for identities that have none configured (same name ⇒ same uid across runs). */
function stableUid(name: string): string {
  const h = createHash('sha256').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** The identity of a service account, as kube-apiserver's service-account authenticator builds it. */
export function serviceAccountUser(
  namespace: string,
  name: string,
  extra?: Record<string, string[]>,
): UserInfo {
  const username = `system:serviceaccount:${namespace}:${name}`;
  return {
    username,
    uid: stableUid(username),
    groups: [
      'system:serviceaccounts',
      `system:serviceaccounts:${namespace}`,
      SYSTEM_AUTHENTICATED,
    ],
    ...(extra ? { extra } : {}),
  };
}

/** Options of {@link EmulatorAuthenticator}. */
export interface EmulatorAuthenticatorOptions {
  /** PEM bundle of CAs for x509 client certificates (`client-ca-file`). */
  clientCaPem: string | string[];
  /** Users and service accounts with their tokens. */
  config?: Pick<AuthConfig, 'users' | 'serviceAccounts'>;
  /** Clock, for tests. */
  now?: () => Date;
}

/**
 * kube-apiserver's authenticator chain for the emulator: a client certificate verified against
 * the client CA (user = CN, groups = O), then a bearer token (static user tokens, service-account
 * tokens from the config, and tokens minted by {@link EmulatorAuthenticator.issueServiceAccountToken}).
 * A certificate or token that is presented but not accepted is a 401 unless another credential
 * succeeds; no credentials at all ⇒ `null` (anonymous).
 */
export class EmulatorAuthenticator implements Authenticator {
  private readonly clientCAs;
  private readonly tokens = new Map<string, UserInfo>();
  private readonly byCertCN = new Map<string, UserInfo>();
  private readonly now: () => Date;
  private readonly tokenSecret = randomBytes(32);

  constructor(options: EmulatorAuthenticatorOptions) {
    this.clientCAs = parsePemBundle(options.clientCaPem);
    this.now = options.now ?? (() => new Date());
    for (const u of options.config?.users ?? []) {
      const user = withAuthenticatedGroup({
        username: u.name,
        uid: u.uid ?? stableUid(u.name),
        groups: [...u.groups],
      });
      u.tokens.forEach(t => this.tokens.set(t, user));
      if (u.certCN) this.byCertCN.set(u.certCN, user);
    }
    for (const sa of options.config?.serviceAccounts ?? []) {
      sa.tokens.forEach(t =>
        this.tokens.set(t, serviceAccountUser(sa.namespace, sa.name)),
      );
    }
  }

  async authenticate(req: IncomingMessage): Promise<UserInfo | null> {
    let certificateRejected = false;
    const chain = peerCertificateChain(req);
    if (chain.length > 0) {
      const result = verifyClientCertificate(chain, this.clientCAs, this.now());
      if (result.ok)
        return this.userFromCertificate(
          result.commonName,
          result.organizations,
        );
      certificateRejected = true; // a token may still authenticate the request, as in kube's union authenticator
    }
    const token = bearerToken(req);
    if (token !== undefined) {
      const user = this.authenticateToken(token);
      if (user) return user;
      throw unauthorizedError();
    }
    if (certificateRejected) throw unauthorizedError();
    return null;
  }

  /** The user a bearer token belongs to, or `null` (used by TokenReview). */
  authenticateToken(token: string): UserInfo | null {
    return this.tokens.get(token) ?? null;
  }

  /** Registers an extra bearer token for `user` (e.g. a demo user added at run time). */
  addToken(token: string, user: UserInfo): void {
    this.tokens.set(token, withAuthenticatedGroup(user));
  }

  /**
   * Stops accepting `token` (401 from now on), as kube-apiserver stops accepting a bound
   * service-account token once it expires or its pod is gone: rotation tests rotate with
   * {@link issueServiceAccountToken} and revoke the old token with this.
   */
  revokeToken(token: string): void {
    this.tokens.delete(token);
  }

  /**
   * Mints a JWT-shaped token for a service account, valid for this authenticator's lifetime;
   * the identity carries a `credential-id` extra as bound service-account tokens do.
   */
  issueServiceAccountToken(namespace: string, name: string): string {
    const jti = randomUUID();
    const b64 = (o: unknown) =>
      Buffer.from(JSON.stringify(o)).toString('base64url');
    const header = b64({ alg: 'HS256', typ: 'JWT' });
    const payload = b64({
      iss: 'https://kubernetes.default.svc.cluster.local',
      sub: `system:serviceaccount:${namespace}:${name}`,
      jti,
      iat: Math.floor(this.now().getTime() / 1000),
    });
    const signature = createHmac('sha256', this.tokenSecret)
      .update(`${header}.${payload}`)
      .digest('base64url');
    const token = `${header}.${payload}.${signature}`;
    this.tokens.set(
      token,
      serviceAccountUser(namespace, name, {
        'authentication.kubernetes.io/credential-id': [`JTI=${jti}`],
      }),
    );
    return token;
  }

  private userFromCertificate(
    commonName: string,
    organizations: string[],
  ): UserInfo {
    const known = this.byCertCN.get(commonName);
    if (known) {
      const groups = [...new Set([...organizations, ...known.groups])];
      return withAuthenticatedGroup({
        ...known,
        groups: groups.filter(g => g !== SYSTEM_AUTHENTICATED),
      });
    }
    return withAuthenticatedGroup({
      username: commonName,
      groups: organizations,
    });
  }
}

/** The token of an `Authorization: Bearer <token>` header; `undefined` for any other or no scheme. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const match = /^bearer\s+(.+)$/i.exec(header.trim());
  // kube's bearer authenticator ignores an empty token rather than rejecting it
  return match ? match[1].trim() || undefined : undefined;
}
