import { createBackendPlugin } from '@backstage/backend-plugin-api';
import { databasesServiceRef, type DatabasesService } from '@internal/plugin-databases-node';

/**
 * A plugin that only takes the databases service of the node library, as a module of any other
 * plugin (the Scaffolder's) gets it: `instances()` is it once the test backend started.
 */
export function instancesProbe() {
  let instances: DatabasesService | undefined;
  const feature = createBackendPlugin({
    pluginId: 'probe',
    register(env) {
      env.registerInit({
        deps: { instances: databasesServiceRef },
        async init(deps) {
          instances = deps.instances;
        },
      });
    },
  });
  return {
    feature,
    instances(): DatabasesService {
      if (!instances) throw new Error('the test backend has not started the probe plugin');
      return instances;
    },
  };
}
