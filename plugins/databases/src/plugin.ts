import {
  createApiFactory,
  createComponentExtension,
  createPlugin,
  createRoutableExtension,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/core-plugin-api';
import { DatabasesClient } from './api/DatabasesClient';
import { databasesApiRef } from './api/types';
import { rootRouteRef } from './routes';

/**
 * The databases plugin for apps on the legacy frontend system.
 *
 * @public
 */
export const databasesPlugin = createPlugin({
  id: 'databases',
  apis: [
    createApiFactory({
      api: databasesApiRef,
      deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
      factory: ({ discoveryApi, fetchApi }) => new DatabasesClient({ discoveryApi, fetchApi }),
    }),
  ],
  routes: { root: rootRouteRef },
});

/**
 * The databases page (mount it at e.g. `/databases`, with a trailing `/*` route).
 *
 * @public
 */
export const DatabasesPage = databasesPlugin.provide(
  createRoutableExtension({
    name: 'DatabasesPage',
    component: () => import('./components/DatabasesPage').then(m => m.DatabasesPage),
    mountPoint: rootRouteRef,
  }),
);

/**
 * Entity card: the component's databases.
 *
 * @public
 */
export const EntityDatabasesCard = databasesPlugin.provide(
  createComponentExtension({
    name: 'EntityDatabasesCard',
    component: {
      lazy: () => import('./components/EntityDatabasesCard').then(m => m.EntityDatabasesCard),
    },
  }),
);

/**
 * Entity tab content: the component's databases in full detail.
 *
 * @public
 */
export const EntityDatabasesContent = databasesPlugin.provide(
  createComponentExtension({
    name: 'EntityDatabasesContent',
    component: {
      lazy: () => import('./components/EntityDatabasesCard').then(m => m.EntityDatabasesContent),
    },
  }),
);
