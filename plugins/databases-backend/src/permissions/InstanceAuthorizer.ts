import type {
  BackstageCredentials,
  PermissionsRegistryService,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import { createConditionAuthorizer } from '@backstage/plugin-permission-node';
import {
  AuthorizeResult,
  type PolicyDecision,
} from '@backstage/plugin-permission-common';
import type {
  DatabasesInstancePermission,
  PortalInstance,
} from '@internal/plugin-databases-common';
import { databasesInstanceResourceRef } from './rules';

/**
 * Applies Backstage permission decisions to instances in memory: one conditional decision per
 * permission and request, evaluated against each instance with the registered rules.
 */
export class InstanceAuthorizer {
  private readonly apply: (decision: PolicyDecision, resource: PortalInstance | undefined) => boolean;

  constructor(
    private readonly permissions: PermissionsService,
    registry: PermissionsRegistryService,
  ) {
    this.apply = createConditionAuthorizer(
      registry.getPermissionRuleset(databasesInstanceResourceRef),
    );
  }

  /** A predicate saying whether `permission` is granted on a given instance. */
  async predicate(
    permission: DatabasesInstancePermission,
    credentials: BackstageCredentials,
  ): Promise<(resource: PortalInstance) => boolean> {
    const [decision] = await this.permissions.authorizeConditional([{ permission }], { credentials });
    if (decision.result === AuthorizeResult.ALLOW) return () => true;
    if (decision.result === AuthorizeResult.DENY) return () => false;
    return resource => this.apply(decision, resource);
  }

  async allows(
    permission: DatabasesInstancePermission,
    credentials: BackstageCredentials,
    resource: PortalInstance,
  ): Promise<boolean> {
    return (await this.predicate(permission, credentials))(resource);
  }
}
