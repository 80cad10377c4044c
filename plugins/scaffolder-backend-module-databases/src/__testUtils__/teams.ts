import { mockServices } from '@backstage/backend-test-utils';
import { AuthorizeResult, type PolicyDecision } from '@backstage/plugin-permission-common';
// eslint-disable-next-line @backstage/no-mixed-plugin-imports -- the tests run the databases backend, whose policy helpers these are
import {
  createDatabasesInstanceConditionalDecision,
  databasesInstanceConditions,
} from '@internal/plugin-databases-backend';
import type { System } from '@internal/e2e';

/** Catalog ownership of the test users (what `userInfo` answers); anyone else owns only themselves. */
const OWNERSHIP: Record<string, string[]> = {
  'user:default/alice': ['user:default/alice', 'group:default/team-a'],
  'user:default/bob': ['user:default/bob', 'group:default/team-b'],
};

/**
 * "Teams manage their own databases" (the databases backend's tests and packages/backend):
 * everyone reads, owners create; every other plugin's permission (the Scaffolder's, the
 * catalog's) is allowed.
 */
function teamPolicy(name: string, user: string): PolicyDecision {
  if (!name.startsWith('databases.') || name === 'databases.instance.read') return { result: AuthorizeResult.ALLOW };
  return createDatabasesInstanceConditionalDecision(
    { type: 'resource', name, attributes: {}, resourceType: 'databases-instance' } as any,
    databasesInstanceConditions.isOwner({ owners: OWNERSHIP[user] ?? [user] }),
  );
}

/** The `userInfo` and `permissions` services of a test backend: OWNERSHIP and teamPolicy. */
export function teamIdentityMocks() {
  return [
    mockServices.userInfo.mock({
      getUserInfo: async (c: any) => ({
        userEntityRef: c.principal.userEntityRef,
        ownershipEntityRefs: OWNERSHIP[c.principal.userEntityRef] ?? [c.principal.userEntityRef],
      }),
    }).factory,
    mockServices.permissions.mock({
      authorizeConditional: async (queries: any[], opts: any) =>
        queries.map(q => teamPolicy(q.permission.name, opts.credentials.principal.userEntityRef)),
      authorize: async (queries: any[], opts: any) =>
        queries.map(q => ({
          result:
            teamPolicy(q.permission.name, opts.credentials.principal.userEntityRef).result === AuthorizeResult.ALLOW
              ? AuthorizeResult.ALLOW
              : AuthorizeResult.DENY,
        })),
    }).factory,
  ];
}

/** `databases` config over the emulator of `system` (cluster `local`, the backend's service account token). */
export const databasesConfig = (system: System) => ({
  clusters: [
    {
      name: 'local',
      url: system.emulator.url,
      caData: system.emulator.certs.clusterCa.certPem,
      authProvider: 'serviceAccount',
      serviceAccountToken: 'backstage-backend-token',
    },
  ],
});

/** The catalog Component `orders` of team-a (the demo's team-a databases carry its kubernetes-id). */
export const ORDERS_COMPONENT = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name: 'orders', namespace: 'default', annotations: { 'backstage.io/kubernetes-id': 'orders' } },
  spec: { type: 'service', owner: 'group:default/team-a', lifecycle: 'production' },
};
