import { createBackendModule } from '@backstage/backend-plugin-api';
import { catalogEntityReadPermission } from '@backstage/plugin-catalog-common/alpha';
import {
  AuthorizeResult,
  isPermission,
  isResourcePermission,
  type PolicyDecision,
} from '@backstage/plugin-permission-common';
import type {
  PermissionPolicy,
  PolicyQuery,
  PolicyQueryUser,
} from '@backstage/plugin-permission-node';
import { policyExtensionPoint } from '@backstage/plugin-permission-node/alpha';
import {
  createDatabasesInstanceConditionalDecision,
  databasesCatalogAccessServiceRef,
  databasesInstanceConditions,
  databasesInstanceResourceRef,
  type DatabasesCatalogAccess,
} from '@internal/plugin-databases-backend';

/**
 * "Teams manage their own databases": anyone signed in may read (Kubernetes RBAC still filters
 * what each person sees); create, update, delete and connection reads are allowed on instances
 * owned by one of the user's ownership refs. The catalog shows a database entity only to whom
 * Kubernetes RBAC lets get its instance. Other plugins' permissions are allowed.
 */
export class TeamsOwnTheirDatabasesPolicy implements PermissionPolicy {
  constructor(private readonly catalogAccess: DatabasesCatalogAccess) {}

  async handle(request: PolicyQuery, user?: PolicyQueryUser): Promise<PolicyDecision> {
    // the line any app's policy adds so its catalog leaks no database
    if (isPermission(request.permission, catalogEntityReadPermission)) return this.catalogAccess.decision(request.permission, user);
    if (!isResourcePermission(request.permission, databasesInstanceResourceRef.resourceType)) {
      return { result: AuthorizeResult.ALLOW };
    }
    if (!user) return { result: AuthorizeResult.DENY };
    if (request.permission.name === 'databases.instance.read') {
      return { result: AuthorizeResult.ALLOW };
    }
    return createDatabasesInstanceConditionalDecision(
      request.permission,
      databasesInstanceConditions.isOwner({ owners: user.info.ownershipEntityRefs }),
    );
  }
}

/** Installs {@link TeamsOwnTheirDatabasesPolicy} as the permission backend's policy. */
export const permissionModuleTeamsPolicy = createBackendModule({
  pluginId: 'permission',
  moduleId: 'teams-own-their-databases',
  register(env) {
    env.registerInit({
      deps: { policy: policyExtensionPoint, catalogAccess: databasesCatalogAccessServiceRef },
      async init({ policy, catalogAccess }) {
        policy.setPolicy(new TeamsOwnTheirDatabasesPolicy(catalogAccess));
      },
    });
  },
});
