import { createBackendModule } from '@backstage/backend-plugin-api';
import { scaffolderActionsExtensionPoint } from '@backstage/plugin-scaffolder-node';
import { databasesServiceRef } from '@internal/plugin-databases-node';
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
      deps: { scaffolder: scaffolderActionsExtensionPoint, instances: databasesServiceRef },
      async init({ scaffolder, instances }) {
        scaffolder.addActions(createDatabaseInstanceAction({ instances }), waitForDatabaseInstanceAction({ instances }));
      },
    });
  },
});
