import { coreServices, createServiceFactory, createServiceRef } from '@backstage/backend-plugin-api';
import { readDatabasesConfig } from '../config/readDatabasesConfig';
import { clusterSetServiceRef } from '../watch/clusterSetServiceRef';
import { DatabasesCatalogAccess } from './DatabasesCatalogAccess';

/**
 * The process-wide {@link DatabasesCatalogAccess}, for an app's permission policy module:
 * `deps: { catalogAccess: databasesCatalogAccessServiceRef }`, then in the policy
 * `if (isPermission(request.permission, catalogEntityReadPermission)) return catalogAccess.decision(request.permission, user);`
 */
export const databasesCatalogAccessServiceRef = createServiceRef<DatabasesCatalogAccess>({
  id: 'databases.catalog-access',
  scope: 'root',
  defaultFactory: async service =>
    createServiceFactory({
      service,
      deps: { config: coreServices.rootConfig, clusters: clusterSetServiceRef },
      factory({ config, clusters }) {
        // the watches feed the namespaces to ask about; starting them twice is a no-op
        clusters.start();
        return new DatabasesCatalogAccess(clusters, readDatabasesConfig(config).impersonation);
      },
    }),
});
