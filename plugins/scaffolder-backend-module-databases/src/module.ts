import { createBackendModule } from '@backstage/backend-plugin-api';
import { scaffolderActionsExtensionPoint } from '@backstage/plugin-scaffolder-node';
// eslint-disable-next-line @backstage/no-mixed-plugin-imports -- the service is the databases backend's own (there is no databases-node library: it is built on the backend's cluster set and permission code)
import { databasesInstancesServiceRef } from '@internal/plugin-databases-backend';
import { createDatabaseInstanceAction } from './actions/createDatabaseInstanceAction';
import { waitForDatabaseInstanceAction } from './actions/waitForDatabaseInstanceAction';

/**
 * The Scaffolder's `databases:instance:create` and `databases:instance:wait` actions:
 * `backend.add(import('@internal/plugin-scaffolder-backend-module-databases'))`.
 */
export const scaffolderModuleDatabases = createBackendModule({
  pluginId: 'scaffolder',
  moduleId: 'databases',
  register(env) {
    env.registerInit({
      deps: { scaffolder: scaffolderActionsExtensionPoint, instances: databasesInstancesServiceRef },
      async init({ scaffolder, instances }) {
        scaffolder.addActions(createDatabaseInstanceAction({ instances }), waitForDatabaseInstanceAction({ instances }));
      },
    });
  },
});
