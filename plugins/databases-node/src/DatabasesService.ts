import type { BackstageCredentials } from '@backstage/backend-plugin-api';
import type { DatabaseInstance, DatabaseInstanceSpec, EngineSize, PortalInstance } from '@internal/plugin-databases-common';

/** What a new instance is asked for with (the portal's create form, a template's step). */
export interface CreateInstanceInput {
  cluster: string;
  namespace: string;
  name: string;
  /** Owner entity ref, e.g. `group:default/team-a`. */
  owner: string;
  /** A catalog entity the instance belongs to: its `backstage.io/kubernetes-id` labels the instance. It must be in the catalog. */
  entityRef?: string;
  /**
   * The entity may be new (a template creating the component and its database in one run):
   * when it is not in the catalog, its name is the `backstage.io/kubernetes-id`, as the
   * template's catalog-info declares it, instead of a 400.
   */
  entityMayBeNew?: boolean;
  spec: DatabaseInstanceSpec;
}

/** Where one instance is. */
export interface InstanceKey {
  cluster: string;
  namespace: string;
  name: string;
}

/** How {@link DatabasesService.waitUntilReady} waits. */
export interface WaitOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called with the instance first, then on every change of its phase, reason or message. */
  onProgress?(instance: DatabaseInstance): void;
}

/**
 * Databases requested by another backend plugin or module (the Scaffolder's
 * `databases:instance:*` actions) on behalf of a signed-in user: every call is the databases
 * plugin's own route, so the user's Kubernetes RBAC (impersonated), the Backstage policy, the
 * request history and the audit log apply as in the portal. Errors are Backstage errors
 * (NotAllowedError, InputError, NotFoundError, ConflictError) with the portal's words.
 */
export interface DatabasesService {
  /** Creates an instance (or, with `dryRun`, has the cluster validate and preview it). */
  createInstance(credentials: BackstageCredentials, input: CreateInstanceInput, dryRun: boolean): Promise<PortalInstance>;
  /** The size presets the cluster's DatabaseEngine offers for `engine`; undefined when the cluster has no such engine. */
  engineSizes(credentials: BackstageCredentials, cluster: string, engine: string): Promise<EngineSize[] | undefined>;
  /**
   * Resolves with the instance once it is Ready; rejects with its reason when it fails or is
   * deleted, and on timeout with the phase it was in.
   */
  waitUntilReady(credentials: BackstageCredentials, key: InstanceKey, options: WaitOptions): Promise<DatabaseInstance>;
}
