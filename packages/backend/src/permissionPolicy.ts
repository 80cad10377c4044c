import { createBackendModule } from '@backstage/backend-plugin-api';
import {
  AuthorizeResult,
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
  databasesInstanceConditions,
  databasesInstanceResourceRef,
} from '@internal/plugin-databases-backend';

/**
 * "Teams manage their own databases": anyone signed in may read (Kubernetes RBAC still filters
 * what each person sees); create, update, delete and connection reads are allowed on instances
 * owned by one of the user's ownership refs. Other plugins' permissions are allowed.
 */
export class TeamsOwnTheirDatabasesPolicy implements PermissionPolicy {
  async handle(request: PolicyQuery, user?: PolicyQueryUser): Promise<PolicyDecision> {
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
      deps: { policy: policyExtensionPoint },
      async init({ policy }) {
        policy.setPolicy(new TeamsOwnTheirDatabasesPolicy());
      },
    });
  },
});
