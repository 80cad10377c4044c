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

/** One `field.Error` of apimachinery: `field: message` in the top-level message. */
export interface StatusCause {
  reason: string;
  message: string;
  field: string;
}

/**
 * 422 Invalid with one cause per bad field; `kind`/`name` name the object, e.g.
 * `ListOptions.meta.k8s.io ""` or `DatabaseInstance.dbaas.platform.dev "x"`. Several causes are
 * wrapped in `[...]` as apimachinery's aggregate error prints them.
 */
export const invalid = (kind: string, group: string, name: string, causes: StatusCause[]) => {
  const joined = causes.map(c => `${c.field}: ${c.message}`).join(', ');
  return new StatusError(
    422,
    'Invalid',
    `${kind}.${group} "${name}" is invalid: ${causes.length > 1 ? `[${joined}]` : joined}`,
    { ...(name ? { name } : {}), group, kind, causes },
  );
};

/** 422 for bad list/watch options (`ListOptions.meta.k8s.io ""`). */
export const invalidListOptions = (causes: StatusCause[]) =>
  invalid('ListOptions', 'meta.k8s.io', '', causes);

/** 405 for a verb a known resource does not implement (apimachinery `NewMethodNotSupported`). */
export const methodNotSupported = (resource: string, action: string) =>
  new StatusError(
    405,
    'MethodNotAllowed',
    `${action} is not supported on resources of kind "${qualified(resource)}"`,
    { group: DATABASES_API_GROUP, kind: resource },
  );

/**
 * 403 with kube-apiserver's message (`forbiddenMessage` + `NewForbidden`). `resource` is empty for
 * non-resource requests, which then read `forbidden: User "x" cannot get path "/p"`.
 */
export const forbidden = (attrs: {
  user: string;
  verb: string;
  isResourceRequest: boolean;
  path: string;
  apiGroup: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  reason?: string;
}) => {
  let why: string;
  if (!attrs.isResourceRequest) {
    why = `User "${attrs.user}" cannot ${attrs.verb} path "${attrs.path}"`;
  } else {
    const res = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
    const where = attrs.namespace
      ? `in the namespace "${attrs.namespace}"`
      : 'at the cluster scope';
    why = `User "${attrs.user}" cannot ${attrs.verb} resource "${res}" in API group "${attrs.apiGroup}" ${where}`;
  }
  if (attrs.reason) why = `${why}: ${attrs.reason}`;
  if (!attrs.isResourceRequest) {
    return new StatusError(403, 'Forbidden', `forbidden: ${why}`, {});
  }
  const gr = attrs.apiGroup ? `${attrs.resource}.${attrs.apiGroup}` : attrs.resource;
  const message = attrs.name ? `${gr} "${attrs.name}" is forbidden: ${why}` : `${gr} is forbidden: ${why}`;
  return new StatusError(403, 'Forbidden', message, {
    ...(attrs.name ? { name: attrs.name } : {}),
    group: attrs.apiGroup,
    kind: attrs.resource,
  });
};

/** 504 when a client asks for a resourceVersion the server has not reached (storage `NewTooLargeResourceVersionError`). */
export const tooLargeResourceVersion = (requested: string, current: string) =>
  new StatusError(
    504,
    'Timeout',
    `Timeout: Too large resource version: ${requested}, current: ${current}`,
    {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
      retryAfterSeconds: 1,
    },
    { 'Retry-After': '1' },
  );

/** 413 for bodies over the limit. */
export const requestEntityTooLarge = (limit: number) =>
  new StatusError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limit}`);

/** 406 when a transform target does not fit the object (PartialObjectMetadata on a list, ...). */
export const notAcceptableMessage = (message: string) => new StatusError(406, 'NotAcceptable', message);
