import { InputError, NotAllowedError } from '@backstage/errors';
import type { BackstageCredentials, BackstageUserPrincipal, UserInfoService } from '@backstage/backend-plugin-api';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import { parseEntityRef, stringifyEntityRef } from '@backstage/catalog-model';
import {
  ANNOTATION_OWNER,
  LABEL_BACKSTAGE_KUBERNETES_ID,
  databasesInstanceCreatePermission,
  databasesInstanceReadPermission,
  type DatabaseInstance,
} from '@internal/plugin-databases-common';
import type { CreateInstanceInput, InstanceKey, WaitOptions } from '@internal/plugin-databases-node';
import { DatabasesService } from '../service/DatabasesService';
import { toBackstageError } from '../service/toBackstageError';
import { impersonationFor, type ImpersonationOptions } from '../kube/impersonationFor';
import type { Impersonation } from '../kube/KubeClusterClient';
import type { InstanceAuthorizer } from '../permissions/InstanceAuthorizer';
import type { ClusterSet } from '../watch/ClusterSet';
import type { InstanceChange } from '../watch/types';

/** A signed-in user as the clusters see them: impersonated, with their entity ref for records. */
export interface InstanceCaller {
  credentials: BackstageCredentials<BackstageUserPrincipal>;
  as: Impersonation;
  /** The user's entity ref (history and audit records). */
  actor: string;
}

/** A create request resolved and ready to send: the instance the cluster will be asked to create. */
export interface PlannedCreate {
  cluster: string;
  instance: DatabaseInstance;
}

/** What {@link InstanceRequests} is built from. */
export interface InstanceRequestsOptions {
  clusters: ClusterSet;
  service: DatabasesService;
  authorizer: InstanceAuthorizer;
  userInfo: UserInfoService;
  catalog: CatalogService;
  impersonation: ImpersonationOptions;
}

/** Phases an instance leaves only when someone changes it: waiting on is waiting in vain. */
const TERMINAL_PHASES = new Set(['Failed', 'Deleting']);

/**
 * Requests about instances made as a signed-in user, with the portal's impersonation and
 * Backstage permissions: the create and the wait of the routes the portal and the databases
 * node library (the Scaffolder's `databases:instance:*` actions) call. The routes audit and
 * record their requests themselves.
 */
export class InstanceRequests {
  constructor(private readonly options: InstanceRequestsOptions) {}

  /** The caller behind user credentials (a service principal is refused: clusters act as people). */
  async caller(credentials: BackstageCredentials): Promise<InstanceCaller> {
    if ((credentials.principal as { type?: string } | undefined)?.type !== 'user') {
      throw new NotAllowedError('databases are requested as a signed-in user, not as a service');
    }
    const user = credentials as BackstageCredentials<BackstageUserPrincipal>;
    const info = await this.options.userInfo.getUserInfo(user);
    return { credentials: user, as: impersonationFor(info, this.options.impersonation), actor: info.userEntityRef };
  }

  /**
   * The instance a create request stands for: the cluster must be configured (404), `entityRef`
   * in the catalog as the user reads it (400). Nothing is sent to the cluster.
   */
  async planCreate(who: InstanceCaller, input: CreateInstanceInput): Promise<PlannedCreate> {
    this.options.service.client(input.cluster);
    let kubernetesId: string | undefined;
    if (input.entityRef) {
      const entity = await this.options.catalog.getEntityByRef(input.entityRef, { credentials: who.credentials });
      if (entity) kubernetesId = entity.metadata.annotations?.[LABEL_BACKSTAGE_KUBERNETES_ID] ?? entity.metadata.name;
      else if (input.entityMayBeNew) kubernetesId = parseEntityRef(input.entityRef).name;
      else throw new InputError(`invalid body: entityRef ${input.entityRef} is not in the catalog`);
    }
    const instance = DatabasesService.buildInstance({
      namespace: input.namespace,
      name: input.name,
      spec: input.spec,
      owner: stringifyEntityRef(parseEntityRef(input.owner)),
      kubernetesId,
    });
    return { cluster: input.cluster, instance };
  }

  /**
   * Creates (or, with `dryRun`, has the cluster validate and preview without storing) a planned
   * instance: refused unless the Backstage policy grants `databases.instance.create` on it, then
   * sent as the user. Errors are the cluster's, as Backstage errors are thrown by the caller.
   */
  async create(who: InstanceCaller, plan: PlannedCreate, dryRun: boolean): Promise<DatabaseInstance> {
    const { cluster, instance } = plan;
    if (!(await this.options.authorizer.allows(databasesInstanceCreatePermission, who.credentials, { cluster, instance }))) {
      const owner = instance.metadata.annotations?.[ANNOTATION_OWNER];
      throw new NotAllowedError(`not allowed to create ${instance.metadata.name} in ${instance.metadata.namespace} owned by ${owner}`);
    }
    return this.options.service.create(who.as, cluster, instance, dryRun);
  }

  /**
   * Resolves with the instance once it is Ready; rejects with its reason when it fails (or is
   * deleted), and on timeout with the phase it was in. The user must be able to read it (as
   * Kubernetes and the Backstage policy say, asked once); its changes then come from the
   * backend's shared watch of the cluster, not from polling.
   */
  async waitUntilReady(credentials: BackstageCredentials, key: InstanceKey, options: WaitOptions): Promise<DatabaseInstance> {
    const who = await this.caller(credentials);
    const { clusters, service, authorizer } = this.options;
    service.client(key.cluster);
    clusters.start(); // a no-op in the databases plugin's process, which started them
    let latest: DatabaseInstance | undefined;
    return new Promise<DatabaseInstance>((resolve, reject) => {
      let settled = false;
      let lastSeen = '';
      let unsubscribe = () => {};
      const cleanups: Array<() => void> = [];
      const finish = (error: Error | undefined, instance?: DatabaseInstance) => {
        if (settled) return;
        settled = true;
        unsubscribe();
        cleanups.forEach(c => c());
        if (error) reject(error);
        else resolve(instance!);
      };
      const consider = (instance: DatabaseInstance) => {
        latest = instance;
        const status = instance.status;
        const seen = `${status?.phase ?? ''}\u0000${status?.reason ?? ''}\u0000${status?.message ?? ''}`;
        if (seen !== lastSeen) {
          lastSeen = seen;
          options.onProgress?.(instance);
        }
        if (instance.metadata.deletionTimestamp) {
          finish(new Error(`${key.name} is being deleted${reasonOf(instance)}`));
        } else if (status?.phase === 'Ready') {
          finish(undefined, instance);
        } else if (status?.phase && TERMINAL_PHASES.has(status.phase)) {
          finish(new Error(`${key.name} is ${status.phase}${reasonOf(instance)}`));
        }
      };
      let pending: InstanceChange[] | undefined = [];
      unsubscribe = clusters.subscribe({
        onInstance: change => {
          const m = change.instance.metadata;
          if (change.cluster !== key.cluster || m.namespace !== key.namespace || m.name !== key.name) return;
          if (pending) {
            pending.push(change);
            return;
          }
          if (change.type === 'DELETED') finish(new Error(`${key.name} was deleted before it was Ready`));
          else consider(change.instance);
        },
      });
      const timer = setTimeout(() => {
        const phase = latest?.status?.phase ?? 'no phase yet';
        finish(new Error(`${key.name} was not Ready within ${Math.round(options.timeoutMs / 1000)} s: it is ${phase}${latest ? reasonOf(latest) : ''}`));
      }, options.timeoutMs);
      cleanups.push(() => clearTimeout(timer));
      const onAbort = () => finish(new Error(`waiting for ${key.name} was cancelled`));
      if (options.signal?.aborted) onAbort();
      options.signal?.addEventListener('abort', onAbort);
      cleanups.push(() => options.signal?.removeEventListener('abort', onAbort));

      (async () => {
        const instance = await service.getInstance(who.as, key.cluster, key.namespace, key.name);
        if (!(await authorizer.allows(databasesInstanceReadPermission, who.credentials, { cluster: key.cluster, instance }))) {
          throw new NotAllowedError(`not allowed to read ${key.name}`);
        }
        // the read as the user came first; changes the watch saw meanwhile may be newer
        const queued = pending ?? [];
        pending = undefined;
        consider(instance);
        for (const change of queued) {
          if (newer(change.instance, instance)) {
            if (change.type === 'DELETED') finish(new Error(`${key.name} was deleted before it was Ready`));
            else consider(change.instance);
          }
        }
      })().catch(e => finish(toBackstageError(e)));
    });
  }
}

function reasonOf(instance: DatabaseInstance): string {
  const s = instance.status;
  if (!s?.reason && !s?.message) return '';
  return `: ${[s.reason, s.message].filter(Boolean).join(': ')}`;
}

/** resourceVersions are opaque, but one cluster's are integers in practice; unknown counts as newer. */
function newer(a: DatabaseInstance, b: DatabaseInstance): boolean {
  const x = Number(a.metadata.resourceVersion);
  const y = Number(b.metadata.resourceVersion);
  return !(Number.isFinite(x) && Number.isFinite(y)) || x > y;
}
