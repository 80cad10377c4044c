import { DATABASES_API_GROUP } from '@internal/plugin-databases-common';

/** A Kubernetes `metav1.Status` body. */
export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, unknown>;
  status: 'Failure' | 'Success';
  message: string;
  reason: string;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    uid?: string;
    causes?: Array<{ reason?: string; message?: string; field?: string }>;
    retryAfterSeconds?: number;
  };
  code: number;
}

/** An error that is a Kubernetes Status; handlers throw these, the last middleware serialises them. */
export class StatusError extends Error {
  readonly status: Status;
  /** Extra response headers (e.g. Retry-After). */
  readonly headers: Record<string, string>;

  constructor(
    code: number,
    reason: string,
    message: string,
    details?: Status['details'],
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'StatusError';
    this.status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message,
      reason,
      ...(details ? { details } : {}),
      code,
    };
    this.headers = headers;
  }

  get code(): number {
    return this.status.code;
  }
}

const qualified = (resource: string) => `${resource}.${DATABASES_API_GROUP}`;

export const notFound = (resource: string, name: string) =>
  new StatusError(404, 'NotFound', `${qualified(resource)} "${name}" not found`, {
    name,
    group: DATABASES_API_GROUP,
    kind: resource,
  });

export const badRequest = (message: string) => new StatusError(400, 'BadRequest', message);

export const unauthorized = () => new StatusError(401, 'Unauthorized', 'Unauthorized');

export const methodNotAllowed = (method = '') =>
  new StatusError(
    405,
    'MethodNotAllowed',
    `the server does not allow this method on the requested resource${method ? ` (${method})` : ''}`,
  );

export const resourceNotFound = () =>
  new StatusError(404, 'NotFound', 'the server could not find the requested resource');

export const notAcceptable = () =>
  new StatusError(
    406,
    'NotAcceptable',
    'only the following media types are accepted: application/json, application/yaml',
  );

export const unsupportedMediaType = (accepted: string[]) =>
  new StatusError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  );

export const expired = (message: string) => new StatusError(410, 'Expired', message);

export const serviceUnavailable = (message: string, retryAfterSeconds = 1) =>
  new StatusError(
    503,
    'ServiceUnavailable',
    message,
    { retryAfterSeconds },
    { 'Retry-After': String(retryAfterSeconds) },
  );

export const internalError = (message: string) =>
  new StatusError(500, 'InternalError', `Internal error occurred: ${message}`);

/**
 * 422 Invalid with one cause per bad field; `kind`/`name` name the object, e.g.
 * `ListOptions.meta.k8s.io ""` or `DatabaseInstance.dbaas.platform.dev "x"`.
 */
export const invalid = (
  kind: string,
  group: string,
  name: string,
  causes: Array<{ reason: string; message: string; field: string }>,
) =>
  new StatusError(
    422,
    'Invalid',
    `${kind}.${group} "${name}" is invalid: ${causes
      .map(c => `${c.field}: ${c.message}`)
      .join(', ')}`,
    { name, group, kind, causes },
  );
