import {
  coreServices,
  createServiceFactory,
  createServiceRef,
} from '@backstage/backend-plugin-api';
import { readDatabasesConfig } from '../config/readDatabasesConfig';
import { ClusterSet } from './ClusterSet';

/**
 * The process-wide {@link ClusterSet} (one watch per cluster), shared by the databases plugin
 * and the catalog module. Bad `databases` config fails backend start-up here, naming the key.
 */
export const clusterSetServiceRef = createServiceRef<ClusterSet>({
  id: 'databases.clusters',
  scope: 'root',
  defaultFactory: async service =>
    createServiceFactory({
      service,
      deps: {
        config: coreServices.rootConfig,
        logger: coreServices.rootLogger,
        lifecycle: coreServices.rootLifecycle,
      },
      factory({ config, logger, lifecycle }) {
        const set = new ClusterSet(
          readDatabasesConfig(config),
          logger.child({ plugin: 'databases' }),
        );
        lifecycle.addShutdownHook(() => set.stop());
        return set;
      },
    }),
});
