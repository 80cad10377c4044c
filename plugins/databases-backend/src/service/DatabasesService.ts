import { NotFoundError } from '@backstage/errors';
import {
  ANNOTATION_OWNER,
  DATABASE_INSTANCE_DIAGNOSIS_SUBRESOURCE,
  DATABASE_INSTANCE_KIND,
  DATABASES_GROUP_VERSION,
  LABEL_BACKSTAGE_KUBERNETES_ID,
  DATABASE_BACKUP_KIND,
  type DatabaseBackup,
  type DatabaseEngine,
  type DatabaseInstance,
  type DatabaseInstanceConnection,
  type DatabaseInstanceDiagnosis,
  type DatabaseInstanceList,
  type DatabasesFetchError,
  type PortalInstance,
} from '@internal/plugin-databases-common';
import type { ClusterSet } from '../watch/ClusterSet';
import type { Impersonation, KubeClusterClient } from '../kube/KubeClusterClient';
import { KubeRequestError } from '../kube/KubeRequestError';
import { backupPath, ENGINES_PATH, INSTANCES_PATH, instancePath } from '../kube/paths';
import { equalitySelector } from './equalitySelector';
import { backendRbacError } from './backendRbacError';
import { boundedClusterPart } from './boundedClusterPart';
import { notAnsweredSince } from '../kube/ClusterReachability';
import { type EventsOf, InstanceEventsWatch } from '../events/InstanceEventsWatch';
import { BackupsWatch } from '../backups/BackupsWatch';

/** Instances from every asked cluster, and what went wrong where. */
export interface MultiClusterInstances {
  items: PortalInstance[];
  errors: DatabasesFetchError[];
}

/** Where to list. */
export interface ListScope {
  clusters?: string[];
  namespace?: string;
  labelSelector?: string;
}

/** How long a read-access answer is reused (per user, cluster and namespace): RBAC revoked is seen within it. */
const ACCESS_TTL_MS = 10_000;

/**
 * Every call the portal makes to the clusters, each acting as the signed-in user through
 * impersonation, so Kubernetes RBAC applies per person. Knows the API paths; nothing else does.
 */
export class DatabasesService {
  /** Access answers (and questions in flight: 500 streams asking at once make one review). */
  private readonly accessCache = new Map<string, { allowed: Promise<boolean>; until: number }>();

  constructor(private readonly clusters: ClusterSet) {}

  /** The client of a configured cluster, or 404. */
  client(cluster: string): KubeClusterClient {
    const client = this.clusters.client(cluster);
    if (!client) throw new NotFoundError(`cluster "${cluster}" is not configured`);
    return client;
  }

  /**
   * Every asked cluster's instances, each from its own watch cache where it can be (see
   * {@link boundedClusterPart}: a slow or silent cluster is an `errors[]` entry, never a delay of
   * the others' answer).
   */
  async listInstances(as: Impersonation, scope: ListScope): Promise<MultiClusterInstances> {
    const names = scope.clusters ?? this.clusters.names();
    const results = await Promise.all(
      names.map(cluster =>
        boundedClusterPart(this.client(cluster), this.clusters.config.clusterWaitMs, async () =>
          (await this.listOne(cluster, as, scope)).map(instance => ({ cluster, instance })),
        ),
      ),
    );
    return {
      items: results.flatMap(r => r.items),
      errors: results.flatMap(r => r.errors),
    };
  }

  /**
   * One cluster's instances. A watch that has not listed yet is waited for only until
   * `clusterWaitMs` after it started (the backend's first page views); a cluster that has never
   * answered is then not asked again, since its watch's list is still waiting for it.
   */
  private async listOne(cluster: string, as: Impersonation, scope: ListScope): Promise<DatabaseInstance[]> {
    const client = this.client(cluster);
    const watcher = this.clusters.watcher(cluster);
    if (watcher && !watcher.synced) {
      const startedAt = watcher.startedAt ?? Date.now();
      const grace = startedAt + this.clusters.config.clusterWaitMs - Date.now();
      if (grace > 0) await watcher.whenSynced(grace);
      if (!watcher.synced && !client.reachability.everAnswered) {
        throw notAnsweredSince(cluster, startedAt, 'no answer yet to the first list of its instances');
      }
    }
    return (await this.listFromWatch(cluster, as, scope)) ?? (await this.listInCluster(client, as, scope));
  }

  /**
   * The list served from the cluster's shared watch, filtered by what `as` may list (reviews
   * cached like the event stream's), or undefined when the watch cannot answer it: not synced or
   * unhealthy, a selector beyond `key=value`, or a namespace the user may not list (the request
   * to the cluster then gives the usual 403). Listing 10,000 instances from the cluster for every
   * page of the portal took half a second.
   */
  private async listFromWatch(cluster: string, as: Impersonation, scope: ListScope): Promise<DatabaseInstance[] | undefined> {
    const watcher = this.clusters.watcher(cluster);
    const labels = equalitySelector(scope.labelSelector);
    if (!watcher?.ready() || !labels) return undefined;
    let mayRead: (namespace: string) => Promise<boolean>;
    if (scope.namespace) {
      if (!(await this.canRead(as, cluster, scope.namespace, 'list'))) return undefined;
      mayRead = async ns => ns === scope.namespace;
    } else if (await this.canRead(as, cluster, '', 'list')) {
      mayRead = async () => true;
    } else {
      mayRead = ns => this.canRead(as, cluster, ns, 'list');
    }
    const candidates = watcher.withLabels(labels);
    const namespaces = [...new Set(candidates.map(i => i.metadata.namespace ?? ''))];
    const allowed = new Set<string>();
    await Promise.all(namespaces.map(async ns => (await mayRead(ns)) && allowed.add(ns)));
    return candidates.filter(i => allowed.has(i.metadata.namespace ?? ''));
  }

  private async listInCluster(
    client: KubeClusterClient,
    as: Impersonation,
    scope: ListScope,
  ): Promise<DatabaseInstance[]> {
    const query = { labelSelector: scope.labelSelector };
    if (scope.namespace) {
      const list = await client.request<DatabaseInstanceList>({
        path: instancePath(scope.namespace),
        query,
        as,
      });
      return list.items;
    }
    try {
      const list = await client.request<DatabaseInstanceList>({ path: INSTANCES_PATH, query, as });
      return list.items;
    } catch (e) {
      // the user's 403 narrows the list to their namespaces; the backend's (it may not impersonate) ends it
      if (!(e instanceof KubeRequestError) || e.statusCode !== 403 || e.backendCredentials) throw e;
    }
    // Most users may list only some namespaces: ask each one as the user and keep what RBAC
    // lets through. The namespace names come from the backend's own identity.
    const namespaces = await client
      .request<{ items: Array<{ metadata: { name: string } }> }>({ path: '/api/v1/namespaces' })
      .catch(e => {
        throw backendRbacError(client.cluster.name, e, 'list namespaces', this.clusters.watcher(client.cluster.name)?.health());
      });
    const lists = await Promise.all(
      namespaces.items.map(async ns => {
        try {
          const list = await client.request<DatabaseInstanceList>({
            path: instancePath(ns.metadata.name),
            query,
            as,
          });
          return list.items;
        } catch (e) {
          if (e instanceof KubeRequestError && !e.backendCredentials && (e.statusCode === 403 || e.statusCode === 404)) return [];
          throw e;
        }
      }),
    );
    return lists.flat();
  }

  async getInstance(as: Impersonation, cluster: string, namespace: string, name: string): Promise<DatabaseInstance> {
    return this.client(cluster).request<DatabaseInstance>({ path: instancePath(namespace, name), as });
  }

  async listEngines(as: Impersonation, cluster: string): Promise<DatabaseEngine[]> {
    const list = await this.client(cluster).request<{ items: DatabaseEngine[] }>({ path: ENGINES_PATH, as });
    return list.items;
  }

  /** Builds the DatabaseInstance a portal request stands for. */
  static buildInstance(input: {
    namespace: string;
    name: string;
    spec: DatabaseInstance['spec'];
    owner: string;
    kubernetesId?: string;
  }): DatabaseInstance {
    return {
      apiVersion: DATABASES_GROUP_VERSION as DatabaseInstance['apiVersion'],
      kind: DATABASE_INSTANCE_KIND as DatabaseInstance['kind'],
      metadata: {
        name: input.name,
        namespace: input.namespace,
        ...(input.kubernetesId ? { labels: { [LABEL_BACKSTAGE_KUBERNETES_ID]: input.kubernetesId } } : {}),
        annotations: { [ANNOTATION_OWNER]: input.owner },
      },
      spec: input.spec,
    };
  }

  async create(as: Impersonation, cluster: string, instance: DatabaseInstance, dryRun: boolean): Promise<DatabaseInstance> {
    return this.client(cluster).request<DatabaseInstance>({
      method: 'POST',
      path: instancePath(instance.metadata.namespace!),
      query: { dryRun: dryRun ? 'All' : undefined },
      body: instance,
      as,
    });
  }

  async patch(
    as: Impersonation,
    cluster: string,
    namespace: string,
    name: string,
    patch: Record<string, unknown>,
    dryRun: boolean,
  ): Promise<DatabaseInstance> {
    return this.client(cluster).request<DatabaseInstance>({
      method: 'PATCH',
      path: instancePath(namespace, name),
      query: { dryRun: dryRun ? 'All' : undefined },
      body: patch,
      contentType: 'application/merge-patch+json',
      as,
    });
  }

  async delete(as: Impersonation, cluster: string, namespace: string, name: string): Promise<unknown> {
    return this.client(cluster).request<unknown>({ method: 'DELETE', path: instancePath(namespace, name), as });
  }

  async connection(as: Impersonation, cluster: string, namespace: string, name: string): Promise<DatabaseInstanceConnection> {
    return this.client(cluster).request<DatabaseInstanceConnection>({
      path: instancePath(namespace, name, 'connection'),
      as,
    });
  }

  /**
   * The Kubernetes events of one instance (the apiserver mirrors its operator's onto it), as
   * `kubectl describe` reads them: as the user, by the instance's kind, name and uid; newest last.
   */
  instanceEvents(as: Impersonation, cluster: string, of: EventsOf): InstanceEventsWatch {
    return new InstanceEventsWatch(this.client(cluster), as, of);
  }

  /** What is wrong with one instance: the apiserver's `diagnosis` subresource, asked as the user. */
  async diagnosis(as: Impersonation, cluster: string, namespace: string, name: string): Promise<DatabaseInstanceDiagnosis> {
    return this.client(cluster).request<DatabaseInstanceDiagnosis>({
      path: instancePath(namespace, name, DATABASE_INSTANCE_DIAGNOSIS_SUBRESOURCE),
      as,
    });
  }

  /**
   * One instance's backups as `as` may list them: always asked of the cluster (never a cache of
   * the backend's), selected by `spec.instanceRef.name` there. Followed live by
   * {@link BackupsWatch.follow}.
   */
  instanceBackups(as: Impersonation, cluster: string, namespace: string, instance: string): BackupsWatch {
    return new BackupsWatch(this.client(cluster), as, { namespace, instance });
  }

  async getBackup(as: Impersonation, cluster: string, namespace: string, name: string): Promise<DatabaseBackup> {
    return this.client(cluster).request<DatabaseBackup>({ path: backupPath(namespace, name), as });
  }

  /**
   * Backs `instance` up now, as `as`: a DatabaseBackup named `name`, or `generateName` plus the
   * apiserver's suffix (the apiserver writes the operator's object).
   */
  async createBackup(
    as: Impersonation,
    cluster: string,
    namespace: string,
    backup: ({ name: string } | { generateName: string }) & { instance: string; method?: string },
    dryRun: boolean,
  ): Promise<DatabaseBackup> {
    const naming = 'name' in backup ? { name: backup.name } : { generateName: backup.generateName };
    return this.client(cluster).request<DatabaseBackup>({
      method: 'POST',
      path: backupPath(namespace),
      query: { dryRun: dryRun ? 'All' : undefined },
      body: {
        apiVersion: DATABASES_GROUP_VERSION,
        kind: DATABASE_BACKUP_KIND,
        metadata: { ...naming, namespace },
        spec: { instanceRef: { name: backup.instance }, ...(backup.method ? { method: backup.method } : {}) },
      },
      as,
    });
  }

  /** Deletes a backup object as `as`; resolves with the apiserver's warnings (the stored data is kept). */
  async deleteBackup(as: Impersonation, cluster: string, namespace: string, name: string): Promise<string[]> {
    const warnings: string[] = [];
    await this.client(cluster).request<unknown>({ method: 'DELETE', path: backupPath(namespace, name), as, warnings });
    return warnings;
  }

  /**
   * May `as` get (or list) databaseinstances in `namespace` ('' = in every namespace), or do
   * `verb` on `of.resource` there? Asked with a SelfSubjectAccessReview made as the user (what
   * `kubectl auth can-i` does), cached briefly and shared while in flight; used to filter the
   * shared watch, and to offer only the actions the cluster would let through.
   */
  async canRead(
    as: Impersonation,
    cluster: string,
    namespace: string,
    verb: 'get' | 'list' | 'patch' | 'delete' | 'create' = 'get',
    of: { subresource?: 'connection'; name?: string; resource?: 'databasebackups' | 'databasebackupschedules' } = {},
  ): Promise<boolean> {
    const key = `${cluster}\u0000${namespace}\u0000${verb}\u0000${of.resource ?? ''}\u0000${of.subresource ?? ''}\u0000${of.name ?? ''}\u0000${as.user}\u0000${as.groups.join(',')}`;
    const now = Date.now();
    const hit = this.accessCache.get(key);
    if (hit && hit.until > now) {
      try {
        return await hit.allowed;
      } catch {
        // the shared question failed: ask for this caller alone, as if nobody had asked
        return this.review(as, cluster, namespace, verb, of).catch(() => false);
      }
    }
    if (this.accessCache.size > 10_000) this.accessCache.clear();
    const allowed = this.review(as, cluster, namespace, verb, of);
    this.accessCache.set(key, { allowed, until: now + ACCESS_TTL_MS });
    try {
      return await allowed;
    } catch {
      // Unknown is treated as no (an event is never shown to someone we could not check), and
      // not remembered: the next question asks again.
      if (this.accessCache.get(key)?.allowed === allowed) this.accessCache.delete(key);
      return false;
    }
  }

  private async review(
    as: Impersonation,
    cluster: string,
    namespace: string,
    verb: string,
    of: { subresource?: string; name?: string; resource?: string },
  ): Promise<boolean> {
    const review = await this.client(cluster).request<{ status?: { allowed?: boolean } }>({
      method: 'POST',
      path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
      repeatable: true, // a review creates nothing
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: {
          resourceAttributes: {
            namespace,
            verb,
            group: DATABASES_GROUP_VERSION.split('/')[0],
            resource: of.resource ?? INSTANCES_PATH.split('/').pop(),
            ...(of.subresource ? { subresource: of.subresource } : {}),
            ...(of.name ? { name: of.name } : {}),
          },
        },
      },
      as,
    });
    return review.status?.allowed === true;
  }
}

