import type { IncomingMessage } from 'node:http';

/** An authenticated identity (contract §2). */
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
  labelSelector?: string;
  fieldSelector?: string;
}

export interface Authenticator {
  /**
   * Resolves the caller: front-proxy headers (only on a verified front-proxy client certificate),
   * direct client certificate, bearer token (TokenReview), else anonymous. Throws a StatusError
   * 401 when credentials were presented and rejected.
   */
  authenticate(req: IncomingMessage): Promise<UserInfo>;
}

export interface AuthorizationDecision {
  allowed: boolean;
  /** Reason from the SubjectAccessReview, appended to the 403 message. */
  reason?: string;
}

export interface Authorizer {
  authorize(user: UserInfo, info: RequestInfo): Promise<AuthorizationDecision>;
}
