import {
  ApiBlueprint,
  createFrontendPlugin,
  discoveryApiRef,
  fetchApiRef,
  PageBlueprint,
} from '@backstage/frontend-plugin-api';
import {
  EntityCardBlueprint,
  EntityContentBlueprint,
} from '@backstage/plugin-catalog-react/alpha';
import StorageIcon from '@material-ui/icons/Storage';
import { DatabasesClient } from './api/DatabasesClient';
import { databasesApiRef } from './api/types';
import { isDatabasesAvailable } from './isDatabasesAvailable';
import { rootRouteRef } from './routes';

/** @alpha */
export const databasesApi = ApiBlueprint.make({
  params: defineParams =>
    defineParams({
      api: databasesApiRef,
      deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
      factory: ({ discoveryApi, fetchApi }) => new DatabasesClient({ discoveryApi, fetchApi }),
    }),
});

/** The databases page at `/databases`; its title and icon give it a sidebar entry. @alpha */
export const databasesPage = PageBlueprint.make({
  params: {
    path: '/databases',
    title: 'Databases',
    icon: <StorageIcon />,
    routeRef: rootRouteRef as any,
    // The page draws Backstage's Header itself, the same in both frontend systems.
    noHeader: true,
    loader: () => import('./components/DatabasesPage').then(m => <m.DatabasesPage />),
  },
});

/** The component's databases on its overview tab. @alpha */
export const entityDatabasesCard = EntityCardBlueprint.make({
  name: 'databases',
  params: {
    filter: isDatabasesAvailable,
    loader: () => import('./components/EntityDatabasesCard').then(m => <m.EntityDatabasesCard />),
  },
});

/** The "Databases" tab of a component. @alpha */
export const entityDatabasesContent = EntityContentBlueprint.make({
  name: 'databases',
  params: {
    path: '/databases',
    title: 'Databases',
    group: 'deployment',
    filter: isDatabasesAvailable,
    loader: () => import('./components/EntityDatabasesCard').then(m => <m.EntityDatabasesContent />),
  },
});

/**
 * The databases plugin for the new frontend system.
 *
 * @alpha
 */
export default createFrontendPlugin({
  pluginId: 'databases',
  info: { packageJson: () => import('../package.json') },
  extensions: [databasesApi, databasesPage, entityDatabasesCard, entityDatabasesContent],
  routes: { root: rootRouteRef as any },
});
