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
import { SignInMemo } from '../identity/SignInMemo';

/**
 * Applies Backstage permission decisions to instances in memory: one conditional decision per
 * permission and request, evaluated against each instance with the registered rules.
 */
export class InstanceAuthorizer {
  private readonly apply: (decision: PolicyDecision, resource: PortalInstance | undefined) => boolean;
  private readonly decisions: SignInMemo<PolicyDecision>;

  /**
   * `cached` names the permissions whose decisions are reused per sign-in for `ttlMs` (the read
   * permission that every list, entity page and event stream asks for: each ask is a round trip
   * to the permission backend, which asks the auth backend for the user's ownership again).
   * Writes and connection reads are always asked afresh.
   */
  constructor(
    private readonly permissions: PermissionsService,
    registry: Pick<PermissionsRegistryService, 'getPermissionRuleset'>,
    private readonly cache: { cached: ReadonlyArray<DatabasesInstancePermission>; ttlMs: number; now?: () => number } = { cached: [], ttlMs: 0 },
  ) {
    this.apply = createConditionAuthorizer(
      registry.getPermissionRuleset(databasesInstanceResourceRef),
    );
    this.decisions = new SignInMemo({ ttlMs: cache.ttlMs, now: cache.now });
  }

  private decide(permission: DatabasesInstancePermission, credentials: BackstageCredentials): Promise<PolicyDecision> {
    const ask = async () => (await this.permissions.authorizeConditional([{ permission }], { credentials }))[0];
    if (this.cache.ttlMs <= 0 || !this.cache.cached.some(p => p.name === permission.name)) return ask();
    return this.decisions.get(credentials, permission.name, ask);
  }

  /** A predicate saying whether `permission` is granted on a given instance. */
  async predicate(
    permission: DatabasesInstancePermission,
    credentials: BackstageCredentials,
  ): Promise<(resource: PortalInstance) => boolean> {
    const decision = await this.decide(permission, credentials);
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
