import { DATABASE_INSTANCE_KIND, DATABASE_INSTANCE_PLURAL, DATABASES_API_GROUP } from '@internal/plugin-databases-common';
import type { ResourceType } from '../../adapters/types';
import { resourceName } from '../../kube/resourcePath';
import { toStatusError } from '../../kube/toStatusError';
import { notFound, StatusError } from '../StatusError';

const GR = `${DATABASE_INSTANCE_PLURAL}.${DATABASES_API_GROUP}`;

/** What a failed call to kube-apiserver was doing, to word the Status the client gets. */
export interface WriteTarget {
  verb: 'create' | 'patch' | 'delete' | 'get';
  /** The instance name as the client used it. */
  name: string;
  namespace: string;
  /** The Kubernetes type the call was about (the operator kind or core/v1 Secret). */
  type: ResourceType;
}

const details = (name: string) => ({ name, group: DATABASES_API_GROUP, kind: DATABASE_INSTANCE_PLURAL });

/** 409 AlreadyExists for a name some operator object already holds. */
export const alreadyExists = (name: string, holder?: string) =>
  new StatusError(
    409,
    'AlreadyExists',
    `${GR} "${name}" already exists${holder ? `: the name is used by ${holder}` : ''}`,
    details(name),
  );

/** 409 Conflict with kube-apiserver's optimistic-lock message. */
export const conflict = (name: string) =>
  new StatusError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${GR} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    details(name),
  );

/** 409 Conflict for a failed DeleteOptions/uid precondition (kube's wording). */
export const preconditionFailed = (name: string, field: 'UID' | 'ResourceVersion', wanted: string, actual: string) =>
  new StatusError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${GR} "${name}": Precondition failed: ${field} in precondition: ${wanted}, ${field} in object meta: ${actual}`,
    details(name),
  );

/**
 * Turns an error of a call to kube-apiserver into the Status the client of a write gets,
 * never leaking a raw client error:
 * - no answer (refused, timeout) or 5xx ⇒ 503 with Retry-After, the client can retry;
 * - 403 from RBAC ⇒ 403 that says it is the apiserver's own service account that lacks the
 *   permission (the user's was checked already) — other 403s (terminating namespace, quota)
 *   pass through;
 * - 409 ⇒ AlreadyExists (create) or Conflict (others), about the instance;
 * - 404 of the object ⇒ NotFound of the instance; a missing namespace passes through;
 * - 422 ⇒ the operator's API refused the object we built, with its causes.
 */
export function toWriteError(err: unknown, target: WriteTarget): StatusError {
  const status = toStatusError(err);
  const code = status.code;
  const kubeMessage = status.status.message;
  const what = resourceName(target.type);
  if (code === 503 || code >= 500 || code === 429) {
    // a transport failure is already worded; kube-apiserver's own 503 Status comes without our
    // Retry-After header, and clients only retry a 503 that carries one
    if (code === 503 && status.status.reason === 'ServiceUnavailable' && status.headers['Retry-After']) return status;
    const retryAfterSeconds = Math.min(Math.max(status.status.details?.retryAfterSeconds ?? 1, 1), 60);
    return new StatusError(
      503,
      'ServiceUnavailable',
      `kube-apiserver could not ${target.verb} ${what} "${target.name}": ${kubeMessage}`,
      { retryAfterSeconds },
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
  if (code === 403 && /cannot [a-z]+ resource/.test(kubeMessage)) {
    return new StatusError(
      403,
      'Forbidden',
      `${GR} "${target.name}" is forbidden: the dbaas apiserver's service account may not ${target.verb} ${what} in namespace "${target.namespace}" (grant it in the apiserver's RBAC): ${kubeMessage}`,
      details(target.name),
    );
  }
  if (code === 409) {
    return target.verb === 'create' && status.status.reason === 'AlreadyExists'
      ? alreadyExists(target.name, `${target.type.kind}.${target.type.group || 'core'} "${target.name}"`)
      : conflict(target.name);
  }
  if (code === 404 && !/^namespaces "/.test(kubeMessage)) return notFound(DATABASE_INSTANCE_PLURAL, target.name);
  if (code === 422) {
    return new StatusError(
      422,
      'Invalid',
      `${DATABASE_INSTANCE_KIND}.${DATABASES_API_GROUP} "${target.name}" is invalid: the ${target.type.kind} object was refused: ${kubeMessage}`,
      { ...details(target.name), kind: DATABASE_INSTANCE_KIND, ...(status.status.details?.causes ? { causes: status.status.details.causes } : {}) },
    );
  }
  return status;
}
