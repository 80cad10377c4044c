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
import { ANNOTATION_SCOPE, scopeOf } from './instanceToEntity';

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

  /** `<cluster>:<namespace>` of every namespace with instances the user may read. */
  async visibleScopes(info: BackstageUserInfo): Promise<string[]> {
    const as = impersonationFor(info, this.impersonation);
    const perCluster = await Promise.all(
      this.clusters.names().map(async cluster => {
        const namespaces = [
          ...new Set((this.clusters.watcher(cluster)?.instances() ?? []).map(i => i.metadata.namespace ?? '')),
        ];
        if (namespaces.length === 0) return [];
        if (await this.service.canRead(as, cluster, '', 'get')) return namespaces.map(ns => scopeOf(cluster, ns));
        const allowed = await Promise.all(namespaces.map(ns => this.service.canRead(as, cluster, ns, 'get')));
        return namespaces.filter((_, i) => allowed[i]).map(ns => scopeOf(cluster, ns));
      }),
    );
    return perCluster.flat().sort();
  }

  /**
   * The decision for `catalog.entity.read`: every entity that is not one of ours, and ours in the
   * user's visible scopes. Without a user (a service's own credentials) nothing is filtered.
   */
  async decision(permission: ResourcePermission<'catalog-entity'>, user?: { info: BackstageUserInfo }): Promise<PolicyDecision> {
    if (!user) return { result: AuthorizeResult.ALLOW };
    const scopes = await this.visibleScopes(user.info);
    return {
      result: AuthorizeResult.CONDITIONAL,
      pluginId: 'catalog',
      resourceType: permission.resourceType,
      conditions: {
        anyOf: [
          { not: hasAnnotation({ annotation: ANNOTATION_SCOPE }) },
          ...scopes.map(value => hasAnnotation({ annotation: ANNOTATION_SCOPE, value })),
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
