import type { BackstageUserInfo } from '@backstage/backend-plugin-api';
import {
  AuthorizeResult,
  type PermissionCondition,
  type PolicyDecision,
  type ResourcePermission,
} from '@backstage/plugin-permission-common';
import { impersonationFor, type ImpersonationOptions } from '../kube/impersonationFor';
import { DatabasesService } from '../service/DatabasesService';
import type { ClusterSet } from '../watch/ClusterSet';
import { ANNOTATION_CLUSTER, ANNOTATION_SCOPE, scopeOf } from './instanceToEntity';

/**
 * Which database entities of the catalog a user may read: those in a namespace where the user's
 * Kubernetes RBAC allows `get` on databaseinstances (a SelfSubjectAccessReview as the user, the
 * decision and cache the plugin's routes use). A permission policy turns it into a conditional
 * decision the catalog applies in its own queries, so lists, searches and by-name reads agree.
 */
export class DatabasesCatalogAccess {
  constructor(
    private readonly clusters: Pick<ClusterSet, 'names' | 'watcher'>,
    private readonly impersonation: ImpersonationOptions,
    private readonly service: Pick<DatabasesService, 'canRead'> = new DatabasesService(clusters as ClusterSet),
  ) {}

  /**
   * Per cluster, `true` where the user may get instances in every namespace, else the
   * `<cluster>:<namespace>` scopes of the namespaces with instances the user may read.
   */
  async visibility(info: BackstageUserInfo): Promise<Map<string, true | string[]>> {
    const as = impersonationFor(info, this.impersonation);
    const perCluster = await Promise.all(
      this.clusters.names().map(async (cluster): Promise<[string, true | string[]]> => {
        // asked first: a cluster-wide reader's answer needs no namespace (nor a pass over every instance)
        if (await this.service.canRead(as, cluster, '', 'get')) return [cluster, true];
        const namespaces = [
          ...new Set((this.clusters.watcher(cluster)?.instances() ?? []).map(i => i.metadata.namespace ?? '')),
        ];
        const allowed = await Promise.all(namespaces.map(ns => this.service.canRead(as, cluster, ns, 'get')));
        return [cluster, namespaces.filter((_, i) => allowed[i]).map(ns => scopeOf(cluster, ns))];
      }),
    );
    return new Map(perCluster);
  }

  /**
   * The decision for `catalog.entity.read`: every entity that is not one of ours, ours of the
   * clusters the user may read whole, and ours in the user's visible scopes elsewhere. Allowed
   * outright when every cluster may be read whole (the catalog then filters nothing: one
   * condition per namespace made every catalog query of such a user twice as slow). Without a
   * user (a service's own credentials) nothing is filtered.
   */
  async decision(permission: ResourcePermission<'catalog-entity'>, user?: { info: BackstageUserInfo }): Promise<PolicyDecision> {
    if (!user) return { result: AuthorizeResult.ALLOW };
    const visibility = [...(await this.visibility(user.info))];
    if (visibility.every(([, seen]) => seen === true)) return { result: AuthorizeResult.ALLOW };
    return {
      result: AuthorizeResult.CONDITIONAL,
      pluginId: 'catalog',
      resourceType: permission.resourceType,
      conditions: {
        anyOf: [
          { not: hasAnnotation({ annotation: ANNOTATION_SCOPE }) },
          ...visibility.flatMap(([cluster, seen]) =>
            seen === true
              ? [hasAnnotation({ annotation: ANNOTATION_CLUSTER, value: cluster })]
              : seen.map(value => hasAnnotation({ annotation: ANNOTATION_SCOPE, value })),
          ),
        ],
      },
    };
  }
}

/**
 * The catalog's own HAS_ANNOTATION rule (what `catalogConditions.hasAnnotation` of
 * @backstage/plugin-catalog-backend/alpha builds), so the plugin does not depend on the catalog
 * backend: the catalog turns it into a filter of its entity queries.
 */
function hasAnnotation(params: { annotation: string; value?: string }): PermissionCondition<'catalog-entity'> {
  return { rule: 'HAS_ANNOTATION', resourceType: 'catalog-entity', params };
}
