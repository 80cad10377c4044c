import { createBackendPlugin } from '@backstage/backend-plugin-api';
// eslint-disable-next-line @backstage/no-mixed-plugin-imports -- the service is the databases backend's own (there is no databases-node library: it is built on the backend's cluster set and permission code)
import { databasesInstancesServiceRef, type InstanceRequests } from '@internal/plugin-databases-backend';

/**
 * A plugin that only takes the databases backend's instance service, as a module of any plugin
 * (the Scaffolder's, in the backend) gets it: `instances()` is it once the test backend started.
 */
export function instancesProbe() {
  let instances: InstanceRequests | undefined;
  const feature = createBackendPlugin({
    pluginId: 'probe',
    register(env) {
      env.registerInit({
        deps: { instances: databasesInstancesServiceRef },
        async init(deps) {
          instances = deps.instances;
        },
      });
    },
  });
  return {
    feature,
    instances(): InstanceRequests {
      if (!instances) throw new Error('the test backend has not started the probe plugin');
      return instances;
    },
  };
}
