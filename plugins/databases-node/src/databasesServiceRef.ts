import { coreServices, createServiceFactory, createServiceRef } from '@backstage/backend-plugin-api';
import { DatabasesClient } from './DatabasesClient';
import type { DatabasesService } from './DatabasesService';

/**
 * The databases plugin's service for other backend plugins and modules (the Scaffolder's
 * `databases:instance:*` actions): by default a {@link DatabasesClient} of `/api/databases`,
 * acting on behalf of the user whose credentials each call carries.
 */
export const databasesServiceRef = createServiceRef<DatabasesService>({
  id: 'databases.client',
  defaultFactory: async service =>
    createServiceFactory({
      service,
      deps: { discovery: coreServices.discovery, auth: coreServices.auth },
      factory: ({ discovery, auth }) => new DatabasesClient({ discovery, auth }),
    }),
});
