import { ApiException } from '@kubernetes/client-node';
import { StatusError, type Status } from '../server/StatusError';
import { KubeHttpError } from './kubeRequest';

function statusBody(body: unknown): Partial<Status> | undefined {
  let parsed = body;
  if (typeof body === 'string') {
    try {
      parsed = JSON.parse(body);
    } catch {
      return undefined;
    }
  }
  if (
    parsed &&
    typeof parsed === 'object' &&
    (parsed as any).kind === 'Status'
  ) {
    return parsed as Partial<Status>;
  }
  return undefined;
}

const reasonForCode: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  410: 'Expired',
  422: 'Invalid',
  429: 'TooManyRequests',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

/**
 * Maps an error from a call to kube-apiserver to our StatusError. A Status body from
 * kube-apiserver (e.g. an operator's admission webhook refusing a write) is passed through
 * with its code, reason, message and details; a transport failure (no HTTP answer) becomes
 * 503 ServiceUnavailable, since the client did nothing wrong.
 */
export function toStatusError(err: unknown): StatusError {
  if (err instanceof StatusError) {
    return err;
  }
  let code: number | undefined;
  let body: unknown;
  if (err instanceof ApiException) {
    code = err.code;
    body = err.body;
  } else if (err instanceof KubeHttpError) {
    code = err.statusCode;
    body = err.body;
  }
  if (code === undefined || code < 400) {
    const message = err instanceof Error ? err.message : String(err);
    return new StatusError(
      503,
      'ServiceUnavailable',
      `kube-apiserver unreachable: ${message}`,
      {
        retryAfterSeconds: 1,
      },
      { 'Retry-After': '1' },
    );
  }
  const status = statusBody(body);
  const reason =
    status?.reason ||
    reasonForCode[code] ||
    (code >= 500 ? 'InternalError' : 'BadRequest');
  const message = status?.message || `kube-apiserver answered HTTP ${code}`;
  return new StatusError(code, reason, message, status?.details);
}
