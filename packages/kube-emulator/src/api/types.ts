import type { IncomingMessage, ServerResponse } from 'node:http';

/** The authenticated (and, after impersonation, effective) user of a request. */
export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

/** Request attributes as kube-apiserver derives them (contract §3.1). */
export interface RequestInfo {
  isResourceRequest: boolean;
  path: string;
  verb: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  parts: string[];
}

export interface Authenticator {
  /**
   * Returns the user, `null` when the request carries no credentials this authenticator
   * understands, or throws an Error with `code = 401` when credentials were presented and rejected.
   */
  authenticate(req: IncomingMessage): Promise<UserInfo | null>;
}

export interface AuthorizationDecision {
  allowed: boolean;
  reason?: string;
}

export interface Authorizer {
  authorize(user: UserInfo, info: RequestInfo): AuthorizationDecision;
}

/**
 * Hands a request under `/apis/<group>/<version>` of an APIService to the registered extension
 * server (kube-apiserver's aggregation layer). Returns false when no APIService claims it.
 */
export interface AggregationProxy {
  handles(info: RequestInfo): boolean;
  proxy(
    req: IncomingMessage,
    res: ServerResponse,
    user: UserInfo,
    body: Buffer | undefined,
  ): Promise<void>;
  /** Groups registered by APIServices, merged into `/apis`. */
  groups(): Array<{
    name: string;
    versions: string[];
    preferredVersion: string;
  }>;
  /**
   * The `/openapi/v3` index entries (`apis/<group>/<version>` → `serverRelativeURL`) of available
   * extension servers, fetched as `system:aggregator`, for the server to merge into its own
   * `/openapi/v3` index. The GV documents themselves are proxied (`handles` claims
   * `/openapi/v3/apis/<group>/<version>`).
   */
  openapiV3Paths?(): Record<string, { serverRelativeURL: string }>;
  /** Paths and definitions of available extensions' `/openapi/v2`, merged into the server's own. */
  openapiV2Spec?(): { paths: Record<string, unknown>; definitions: Record<string, unknown> };
}

/**
 * Resolves `Impersonate-User` / `Impersonate-Group` / `Impersonate-Uid` / `Impersonate-Extra-*`
 * headers: checks the `impersonate` verb for the authenticated user (users, groups, uids,
 * userextras/<key>) and returns the effective user, or throws an Error with `code = 403`.
 * Returns `user` unchanged when no impersonation header is present.
 */
export interface Impersonator {
  apply(req: IncomingMessage, user: UserInfo): UserInfo;
}

/**
 * A built-in endpoint served outside the generic object store, e.g. TokenReview and
 * SubjectAccessReview (create-only, never stored).
 */
export interface CustomHandler {
  handles(info: RequestInfo): boolean;
  handle(
    req: IncomingMessage,
    res: ServerResponse,
    user: UserInfo,
    info: RequestInfo,
    body: Buffer | undefined,
  ): Promise<void>;
}
