import type { KubeObject, ResourceType } from '../adapters/types';

/** The core/v1 Secret type. */
export const SECRETS: ResourceType = { group: '', version: 'v1', plural: 'secrets', kind: 'Secret' };

/** Options of a delete sent to kube-apiserver. */
export interface KubeDeleteOptions {
  propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
  /** Only delete the object with this uid (what the garbage collector does). */
  preconditions?: { uid?: string; resourceVersion?: string };
}

/**
 * Writes to kube-apiserver with the apiserver's own credentials: operator objects and the
 * Secrets they need. Every call fails fast (short timeouts) and rejects with the client's
 * error (KubeHttpError, ApiException or a socket error), which `toWriteError` turns into a Status.
 * Implementations never log object bodies: Secrets pass through here.
 */
export interface KubeWriter {
  /** Creates `obj` (its apiVersion/kind/namespace say where) and resolves the stored object. */
  create(type: ResourceType, obj: KubeObject): Promise<KubeObject>;
  /**
   * JSON merge patch of one object. A `metadata.resourceVersion` in the patch is the
   * optimistic-concurrency precondition: kube-apiserver answers 409 when the object changed
   * since. Patching (rather than PUT) leaves what the caller's copy lacks untouched.
   * `subresource: 'status'` patches the status (CRDs with the status subresource ignore it on
   * the object itself).
   */
  mergePatch(type: ResourceType, namespace: string, name: string, patch: unknown, subresource?: 'status'): Promise<KubeObject>;
  /**
   * Deletes one object. Resolves the object as kube-apiserver returned it (still present with a
   * deletionTimestamp while finalizers run), or undefined when it answered with a Status.
   */
  delete(type: ResourceType, namespace: string, name: string, options?: KubeDeleteOptions): Promise<KubeObject | undefined>;
  /** Reads one object fresh from kube-apiserver (never cached); undefined when it does not exist. */
  get(type: ResourceType, namespace: string, name: string): Promise<KubeObject | undefined>;
  /**
   * Lists the objects of one namespace matching a label selector, fresh (never cached), at most
   * `limit` of them: for per-request reads about one instance (its pods and claims).
   */
  list(type: ResourceType, namespace: string, labels: Record<string, string>, limit: number): Promise<KubeObject[]>;
}
