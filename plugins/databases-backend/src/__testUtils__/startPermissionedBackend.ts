import { httpAuthServiceFactory } from '@backstage/backend-defaults/httpAuth';
import { permissionsServiceFactory } from '@backstage/backend-defaults/permissions';
import type { BackendFeature } from '@backstage/backend-plugin-api';
import { mockServices, startTestBackend } from '@backstage/backend-test-utils';
import catalogPlugin from '@backstage/plugin-catalog-backend';
import permissionPlugin from '@backstage/plugin-permission-backend';
import type { System } from '@internal/e2e';
import { databasesPlugin } from '../plugin';
import { emulatorCluster } from './emulatorCluster';
import { exampleCatalogConfig } from './exampleCatalog';
import { oboActorAuthFactory } from './oboActorAuth';
import { teamUserInfoMock } from './teamIdentityMocks';

/**
 * The real catalog, permission and databases backends against the emulator, permissions
 * enabled with the real permissions client and HTTP auth (the permission backend checks the
 * actor of tokens on behalf of a user), `policyModule` as the policy and the team ownership of
 * teamIdentityMocks. `extra` adds features (the catalog module of our entities, say).
 */
export function startPermissionedBackend(system: System, policyModule: BackendFeature, extra: BackendFeature[] = []) {
  return startTestBackend({
    features: [
      catalogPlugin,
      permissionPlugin,
      policyModule,
      databasesPlugin,
      ...extra,
      permissionsServiceFactory,
      oboActorAuthFactory,
      httpAuthServiceFactory,
      teamUserInfoMock(),
      mockServices.rootConfig.factory({
        data: {
          permission: { enabled: true },
          catalog: exampleCatalogConfig(),
          databases: { clusters: [emulatorCluster(system)] },
        },
      }),
    ],
  });
}
