import type { DatabasesFetchError } from '@internal/plugin-databases-common';

/** The parts of a metav1.Status the plugin reads. */
export interface KubeStatus {
  kind?: string;
  status?: string;
  message?: string;
  reason?: string;
  code?: number;
  details?: unknown;
}

/** A failed call to one cluster: an HTTP error with its Status, or no answer at all. */
export class KubeRequestError extends Error {
  /**
   * The cluster refused the backend itself, not the user it acts for: its credentials were
   * rejected (401), or it may not impersonate (403 on the impersonation). The user can do
   * nothing about it, so it is a 503 for them, not their 403.
   */
  readonly backendCredentials: boolean;

  constructor(
    readonly cluster: string,
    readonly errorType: DatabasesFetchError['errorType'],
    message: string,
    readonly statusCode?: number,
    readonly status?: KubeStatus,
    options: { backendCredentials?: boolean } = {},
  ) {
    super(message);
    this.name = 'KubeRequestError';
    this.backendCredentials = options.backendCredentials ?? false;
  }

  /** No HTTP answer came: the cluster was not reached, did not answer in time, or failed TLS. */
  get unanswered(): boolean {
    return this.statusCode === undefined && ['UNREACHABLE', 'TIMEOUT', 'TLS'].includes(this.errorType);
  }

  /** As an `errors[]` entry of a multi-cluster answer. */
  toFetchError(): DatabasesFetchError {
    return {
      errorType: this.errorType,
      cluster: this.cluster,
      ...(this.statusCode !== undefined ? { statusCode: this.statusCode } : {}),
      message: this.message,
    };
  }
}

/** Classifies an HTTP status the way the Kubernetes plugin's fetch errors do. */
export function errorTypeForStatus(code: number): DatabasesFetchError['errorType'] {
  if (code === 401) return 'UNAUTHORIZED';
  if (code === 403) return 'FORBIDDEN';
  if (code === 504 || code === 408) return 'TIMEOUT';
  if (code === 502 || code === 503) return 'UNREACHABLE';
  return 'BAD_RESPONSE';
}

/** Any thrown value as an `errors[]` entry for `cluster`. */
export function toFetchError(cluster: string, error: unknown): DatabasesFetchError {
  if (error instanceof KubeRequestError) return error.toFetchError();
  return { errorType: 'UNKNOWN', cluster, message: String((error as Error)?.message ?? error) };
}
