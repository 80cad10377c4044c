import type { AuthService, BackstageCredentials, PermissionsService } from '@backstage/backend-plugin-api';
import type { Entity } from '@backstage/catalog-model';
import { catalogEntityReadPermission } from '@backstage/plugin-catalog-common/alpha';
import { AuthorizeResult, type PolicyDecision } from '@backstage/plugin-permission-common';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import { SignInMemo } from '../identity/SignInMemo';

/** Options of {@link EntityReader}. */
export interface EntityReaderOptions {
  catalog: CatalogService;
  permissions: PermissionsService;
  auth: AuthService;
  /** How long a user's catalog read decision is reused (never past their token's expiry). */
  ttlMs: number;
  now?: () => number;
}

/**
 * Reads a catalog entity as the catalog would show it to a user, asking the permission backend
 * once per sign-in instead of once per read.
 *
 * Read as the user, every read is two requests inside the backend: the catalog's, and the one the
 * catalog makes to the permission backend for the user's `catalog.entity.read` decision (each
 * with a token issued and verified, each through the whole HTTP middleware). The decision does
 * not depend on the entity unless it is conditional, so it is asked for here, as the catalog
 * would ask it, and reused for `ttlMs`:
 * - ALLOW: the user may read every entity; the entity is read with the plugin's own credentials.
 * - DENY: the user may read none; the catalog is not asked.
 * - CONDITIONAL: only the catalog can apply the conditions to the entity; it is read as the user.
 * A policy change reaches these reads within `ttlMs`, as it reaches the instance read decision.
 */
export class EntityReader {
  private readonly decisions: SignInMemo<PolicyDecision>;

  constructor(private readonly options: EntityReaderOptions) {
    this.decisions = new SignInMemo({ ttlMs: options.ttlMs, now: options.now });
  }

  /** The entity `ref` with `fields`, or undefined when it does not exist or `credentials` may not read it. */
  async read(ref: string, credentials: BackstageCredentials, fields?: string[]): Promise<Entity | undefined> {
    const { catalog, permissions, auth } = this.options;
    const decision = await this.decisions.get(credentials, catalogEntityReadPermission.name, async () => {
      const [answer] = await permissions.authorizeConditional([{ permission: catalogEntityReadPermission }], { credentials });
      return answer;
    });
    if (decision.result === AuthorizeResult.DENY) return undefined;
    const as = decision.result === AuthorizeResult.ALLOW ? await auth.getOwnServiceCredentials() : credentials;
    const { items } = await catalog.getEntitiesByRefs({ entityRefs: [ref], fields }, { credentials: as });
    return items[0] ?? undefined;
  }
}
