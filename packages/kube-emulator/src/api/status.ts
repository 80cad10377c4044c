import type { ServerResponse } from 'node:http';
import { StoreError } from '../store/types';

/** A `metav1.Status` body. */
export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, unknown>;
  status: 'Failure' | 'Success';
  message?: string;
  reason?: string;
  details?: Record<string, unknown>;
  code: number;
}

/** Turns any thrown value into a Status: StoreErrors keep their code, `{code: 401|403}` errors from auth become Unauthorized/Forbidden, the rest is a 500. */
export function toStatus(err: unknown): Status {
  if (err instanceof StoreError) {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: err.message,
      reason: err.reason,
      ...(err.details ? { details: err.details } : {}),
      code: err.code,
    };
  }
  const e = err as { code?: unknown; message?: string } | undefined;
  if (e && e.code === 401) return failure(401, 'Unauthorized', 'Unauthorized');
  if (e && e.code === 403)
    return failure(403, 'Forbidden', e.message ?? 'forbidden');
  return failure(
    500,
    'InternalError',
    `Internal error occurred: ${e?.message ?? String(err)}`,
    {
      causes: [{ message: e?.message ?? String(err) }],
    },
  );
}

/** A Failure Status. */
export function failure(
  code: number,
  reason: string,
  message: string,
  details?: Record<string, unknown>,
): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    ...(details ? { details } : {}),
    code,
  };
}

/** Writes a JSON body with the headers k8s.io/apiserver's filters add. */
export function writeJson(
  res: ServerResponse,
  code: number,
  body: unknown,
  contentType = 'application/json',
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(code, {
    'Content-Type': contentType,
    'Cache-Control': 'no-cache, private',
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(res.req?.method === 'HEAD' ? undefined : text);
}

/** Writes an error as a Status with the HTTP code it carries. */
export function writeError(res: ServerResponse, err: unknown): void {
  const status = toStatus(err);
  const headers: Record<string, string> = {};
  const retry = (status.details as { retryAfterSeconds?: number } | undefined)
    ?.retryAfterSeconds;
  if (retry) headers['Retry-After'] = String(retry);
  writeJson(res, status.code, status, 'application/json', headers);
}

/** Shorthands for the errors the HTTP layer raises itself. */
export const errors = {
  badRequest: (message: string) => new StoreError(400, 'BadRequest', message),
  notFoundPath: () =>
    new StoreError(
      404,
      'NotFound',
      'the server could not find the requested resource',
    ),
  methodNotAllowed: (verb: string, qualified: string) =>
    new StoreError(
      405,
      'MethodNotAllowed',
      `${verb} is not supported on resources of kind "${qualified}"`,
      { kind: qualified },
    ),
  notAcceptable: () =>
    new StoreError(
      406,
      'NotAcceptable',
      'only the following media types are accepted: application/json, application/yaml',
    ),
  unsupportedMediaType: (accepted: string[]) =>
    new StoreError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
    ),
  tooLarge: (limit: number) =>
    new StoreError(
      413,
      'RequestEntityTooLarge',
      `Request entity too large: limit is ${limit}`,
    ),
  invalidOptions: (
    kind: string,
    field: string,
    reason: string,
    detail: string,
  ) =>
    new StoreError(
      422,
      'Invalid',
      `${kind}.meta.k8s.io "" is invalid: ${field}: ${detail}`,
      {
        group: 'meta.k8s.io',
        kind,
        causes: [{ reason, message: detail, field }],
      },
    ),
  tooLargeRV: (rv: number, current: number) =>
    new StoreError(
      504,
      'Timeout',
      `Timeout: Too large resource version: ${rv}, current: ${current}`,
      {
        causes: [
          {
            reason: 'ResourceVersionTooLarge',
            message: 'Too large resource version',
          },
        ],
        retryAfterSeconds: 1,
      },
    ),
};
