import { mockServices } from '@backstage/backend-test-utils';
import { AuthorizeResult, type PolicyDecision } from '@backstage/plugin-permission-common';
import { createDatabasesInstanceConditionalDecision, databasesInstanceConditions } from '../permissions/rules';

/** Catalog ownership of the test users (what `userInfo` answers); anyone else owns only themselves. */
export const OWNERSHIP: Record<string, string[]> = {
  'user:default/alice': ['user:default/alice', 'group:default/team-a'],
  'user:default/bob': ['user:default/bob', 'group:default/team-b'],
  'user:default/carol': ['user:default/carol', 'group:default/platform'],
  'user:default/dave': ['user:default/dave'],
};

/**
 * "Teams manage their own databases": everyone reads, owners write, carol is denied everything
 * but read. Other plugins' permissions (the catalog's) are allowed, as in packages/backend.
 */
export function teamPolicy(name: string, userEntityRef: string): PolicyDecision {
  if (!name.startsWith('databases.')) return { result: AuthorizeResult.ALLOW };
  if (name === 'databases.instance.read') return { result: AuthorizeResult.ALLOW };
  if (userEntityRef === 'user:default/carol') return { result: AuthorizeResult.DENY };
  return createDatabasesInstanceConditionalDecision(
    { type: 'resource', name, attributes: {}, resourceType: 'databases-instance' } as any,
    databasesInstanceConditions.isOwner({ owners: OWNERSHIP[userEntityRef] ?? [userEntityRef] }),
  );
}

/** The `userInfo` service of a test backend, answering from OWNERSHIP. */
export function teamUserInfoMock() {
  return mockServices.userInfo.mock({
    getUserInfo: async (c: any) => ({
      userEntityRef: c.principal.userEntityRef,
      ownershipEntityRefs: OWNERSHIP[c.principal.userEntityRef] ?? [c.principal.userEntityRef],
    }),
  }).factory;
}

/** The `userInfo` and `permissions` services of a test backend, answering from OWNERSHIP and teamPolicy. */
export function teamIdentityMocks() {
  return [
    teamUserInfoMock(),
    mockServices.permissions.mock({
      authorizeConditional: async (queries: any[], opts: any) => queries.map(q => teamPolicy(q.permission.name, opts.credentials.principal.userEntityRef)),
      authorize: async (queries: any[], opts: any) =>
        queries.map(q => ({
          result: teamPolicy(q.permission.name, opts.credentials.principal.userEntityRef).result === AuthorizeResult.ALLOW ? AuthorizeResult.ALLOW : AuthorizeResult.DENY,
        })),
    }).factory,
  ];
}
