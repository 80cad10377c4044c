import { KubeRequestError } from '../kube/KubeRequestError';

/** Where the platform team finds the RBAC the backend needs as itself. */
export const BACKEND_RBAC_HINT =
  "give the backend's service account the ClusterRole of deploy/backstage (docs/install.md, \"Backstage\")";

/** kube-apiserver's RBAC refusal (`… is forbidden: User "…" cannot …`), as the watch reports it. */
const FORBIDDEN = /\bis forbidden: User\b/;

/**
 * The error of a request the backend sends as itself (not as the user it acts for) that the
 * cluster's RBAC refused, reworded to name what the backend lacks, since kube-apiserver's own
 * `namespaces is forbidden` reads like the user's problem and hides the usual cause: no
 * deploy/backstage at all, so the shared watch of databaseinstances fails too (`watch`, its
 * health, says so). It is the backend's refusal, not the user's: a 503 for them, as when its
 * credentials are rejected. Anything but a 403 is returned as it is.
 */
export function backendRbacError(
  cluster: string,
  error: unknown,
  lacks: string,
  watch?: { healthy: boolean; message?: string },
): unknown {
  if (!(error instanceof KubeRequestError) || error.statusCode !== 403 || error.backendCredentials) return error;
  const watchRefused = watch && !watch.healthy && watch.message && FORBIDDEN.test(watch.message);
  const what = watchRefused ? `${lacks}, and its watch of every DatabaseInstance is refused too (${watch.message})` : lacks;
  return new KubeRequestError(
    cluster,
    'FORBIDDEN',
    `the backend's own RBAC in cluster ${cluster} does not let it ${what}: ${BACKEND_RBAC_HINT}. The cluster said: ${error.message}`,
    403,
    error.status,
    { backendCredentials: true },
  );
}
