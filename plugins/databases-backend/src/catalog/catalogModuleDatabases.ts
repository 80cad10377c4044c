import { coreServices, createBackendModule } from '@backstage/backend-plugin-api';
import { catalogProcessingExtensionPoint } from '@backstage/plugin-catalog-node';
import { clusterSetServiceRef } from '../watch/clusterSetServiceRef';
import { DatabaseInstanceEntityProvider } from './DatabaseInstanceEntityProvider';

/** Catalog module: every DatabaseInstance as a `Resource` entity of type `database`. */
export const catalogModuleDatabases = createBackendModule({
  pluginId: 'catalog',
  moduleId: 'databases-instances',
  register(env) {
    env.registerInit({
      deps: {
        catalog: catalogProcessingExtensionPoint,
        clusters: clusterSetServiceRef,
        logger: coreServices.logger,
        lifecycle: coreServices.lifecycle,
      },
      async init({ catalog, clusters, logger, lifecycle }) {
        const provider = new DatabaseInstanceEntityProvider(clusters, logger);
        catalog.addEntityProvider(provider);
        lifecycle.addShutdownHook(() => provider.close());
      },
    });
  },
});
