import {
  ConflictError,
  InputError,
  NotAllowedError,
  NotFoundError,
  ServiceUnavailableError,
} from '@backstage/errors';
import { KubeRequestError } from '../kube/KubeRequestError';

/**
 * Maps a cluster's answer to the Backstage error the framework serialises with the same meaning:
 * a caller's mistake stays a 4xx, an unreachable cluster is 503, never a 500, and so is a cluster
 * that rejects the backend's own credentials (the user's 403 is only ever their own RBAC).
 */
export function toBackstageError(error: unknown): Error {
  if (!(error instanceof KubeRequestError)) return error as Error;
  // the plugin's own messages name the cluster already; kube-apiserver's Status messages do not
  const message = error.message.includes(`cluster ${error.cluster}`) ? error.message : `${error.cluster}: ${error.message}`;
  // the cluster refused the backend, not the user: nothing the user may or may not do
  if (error.backendCredentials) return new ServiceUnavailableError(message);
  switch (error.statusCode) {
    case 400:
    case 422:
      return new InputError(message);
    case 401:
    case 403:
      return new NotAllowedError(message);
    case 404:
      return new NotFoundError(message);
    case 409:
      return new ConflictError(message);
    default:
      if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
        return new InputError(message);
      }
      return new ServiceUnavailableError(message);
  }
}
