import { createHash, type X509Certificate } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { serviceUnavailable, unauthorized } from '../server/StatusError';
import {
  identityFromHeaders,
  identityHeaderNames,
} from './identityFromHeaders';
import { peerCertificateChain } from './peerCertificateChain';
import type { RequestHeaderConfigProvider } from './RequestHeaderConfigSource';
import { TtlCache } from './TtlCache';
import { userFromTokenReview, type TokenReviewer } from './TokenReviewer';
import type { Authenticator, UserInfo } from './types';
import { VerificationMemo } from './VerificationMemo';
import { subjectAttribute } from './verifyClientCertificate';

export const ANONYMOUS_USER = 'system:anonymous';
export const UNAUTHENTICATED_GROUP = 'system:unauthenticated';
export const AUTHENTICATED_GROUP = 'system:authenticated';

/** Adds `system:authenticated` as kube's authenticated_group_adder does (contract §2.1). */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (
    user.username === ANONYMOUS_USER ||
    user.groups.includes(AUTHENTICATED_GROUP) ||
    user.groups.includes(UNAUTHENTICATED_GROUP)
  ) {
    return user;
  }
  return { ...user, groups: [...user.groups, AUTHENTICATED_GROUP] };
}

export interface DelegatingAuthenticatorOptions {
  config: RequestHeaderConfigProvider;
  /** Unset: bearer tokens cannot be checked and are rejected with 401. */
  tokenReviewer?: TokenReviewer;
  /** TokenReview cache lifetime for both outcomes (k8s default 10 s). */
  tokenCacheTtlMs?: number;
  tokenCacheMaxEntries?: number;
  now?: () => Date;
  logger?: { warn(msg: string, meta?: object): void };
}

type TokenOutcome = { user?: UserInfo };

/**
 * The delegated authenticator of contract §2.1: front-proxy request headers (only on a
 * verified front-proxy certificate with an allowed CN), direct x509 client certificate,
 * bearer token via TokenReview, anonymous. A presented credential that fails (unverifiable
 * certificate, CN not allowed, rejected or uncheckable token) yields 401 unless a later
 * credential on the same request succeeds — never anonymous.
 */
export class DelegatingAuthenticator implements Authenticator {
  private readonly tokenCache: TtlCache<TokenOutcome>;
  private readonly now: () => Date;
  private readonly verifications = new VerificationMemo();

  constructor(private readonly options: DelegatingAuthenticatorOptions) {
    this.now = options.now ?? (() => new Date());
    this.tokenCache = new TtlCache<TokenOutcome>(
      options.tokenCacheTtlMs ?? 10_000,
      options.tokenCacheMaxEntries ?? 10_000,
      () => this.now().getTime(),
    );
  }

  async authenticate(req: IncomingMessage): Promise<UserInfo> {
    const config = this.options.config.current();
    if (!config) {
      // Serving before the front-proxy CA is known would turn every proxied user anonymous.
      throw serviceUnavailable(
        'authentication configuration is not loaded yet',
      );
    }
    const failures: string[] = [];
    const headerNames = Object.keys(req.headers);
    const carriesIdentityHeaders =
      identityHeaderNames(headerNames, config).length > 0 ||
      headerNames.some(h => h.toLowerCase().startsWith('x-remote-'));
    const chain = peerCertificateChain(req);
    const fromCert =
      chain.length > 0 ? this.fromCertificate(req, chain, failures) : undefined;
    if (carriesIdentityHeaders && !fromCert?.proxied) {
      // Identity headers are only ever meaningful from the aggregator. Anyone else sending them
      // is trying to be someone they are not: refuse outright rather than silently ignoring them.
      this.options.logger?.warn(
        'Identity headers without a verified front-proxy certificate refused',
      );
      throw unauthorized();
    }
    if (fromCert?.user) {
      return withAuthenticatedGroup(fromCert.user);
    }
    const token = bearerToken(req);
    if (token !== undefined) {
      const user = await this.fromToken(token, failures);
      if (user) {
        return withAuthenticatedGroup(user);
      }
    }
    if (failures.length > 0) {
      throw unauthorized();
    }
    return { username: ANONYMOUS_USER, groups: [UNAUTHENTICATED_GROUP] };
  }

  private fromCertificate(
    req: IncomingMessage,
    chain: X509Certificate[],
    failures: string[],
  ): { user?: UserInfo; proxied: boolean } | undefined {
    const config = this.options.config.current()!;
    const now = this.now();
    const proxy = this.verifications.verifyAt(chain, config.requestHeaderCAs, now);
    if (proxy.ok) {
      const cn = subjectAttribute(proxy.leaf.subject, 'CN')[0] ?? '';
      if (config.allowedNames.length > 0 && !config.allowedNames.includes(cn)) {
        failures.push(`x509: subject with cn=${cn} is not in the allowed list`);
      } else {
        const user = identityFromHeaders(req.headersDistinct, config);
        if (user) {
          stripIdentityHeaders(req, config);
          return { user, proxied: true };
        }
        // A verified proxy without a username header: the request-header authenticator
        // does not apply, and the proxy's own certificate is not a user credential.
        return { proxied: true };
      }
    }
    const direct = this.verifications.verifyAt(chain, config.clientCAs, now);
    if (direct.ok) {
      const cn = subjectAttribute(direct.leaf.subject, 'CN')[0] ?? '';
      if (!cn) {
        return undefined;
      }
      return {
        user: { username: cn, groups: subjectAttribute(direct.leaf.subject, 'O') },
        proxied: false,
      };
    }
    if (!proxy.ok) {
      failures.push(`x509: ${direct.reason}`);
    }
    return undefined;
  }

  private async fromToken(
    token: string,
    failures: string[],
  ): Promise<UserInfo | undefined> {
    const reviewer = this.options.tokenReviewer;
    if (!reviewer) {
      failures.push('bearer tokens are not accepted (TokenReview disabled)');
      return undefined;
    }
    const key = createHash('sha256').update(token).digest('hex');
    let outcome = this.tokenCache.get(key);
    if (!outcome) {
      try {
        outcome = { user: userFromTokenReview(await reviewer.review(token)) };
        this.tokenCache.set(key, outcome);
      } catch (err) {
        // Unreachable kube-apiserver: 401 like k8s.io/apiserver, and say so loudly; not cached.
        this.options.logger?.warn('TokenReview failed', {
          error: (err as Error)?.message ?? String(err),
        });
        failures.push('token review failed');
        return undefined;
      }
    }
    if (!outcome.user) {
      failures.push('invalid bearer token');
    }
    return outcome.user;
  }
}

function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (!header) {
    return undefined;
  }
  const [scheme, token, ...rest] = header.trim().split(/\s+/);
  if (scheme.toLowerCase() !== 'bearer' || !token || rest.length > 0) {
    return undefined;
  }
  return token;
}

function stripIdentityHeaders(
  req: IncomingMessage,
  config: Parameters<typeof identityHeaderNames>[1],
): void {
  for (const name of identityHeaderNames(Object.keys(req.headers), config)) {
    delete req.headers[name];
    delete (req.headersDistinct as Record<string, string[]>)[name];
  }
}
