/**
 * Backstage frontend plugin: request a database, watch it come alive, see a component's databases.
 * The new frontend system's plugin is the default export of `@internal/plugin-databases/alpha`.
 *
 * @packageDocumentation
 */
export {
  databasesPlugin,
  DatabasesPage,
  EntityDatabasesCard,
  EntityDatabasesContent,
} from './plugin';
export { rootRouteRef } from './routes';
export { databasesApiRef } from './api/types';
export type { DatabasesApi, DatabasesEventHandlers, InstanceRef } from './api/types';
export { DatabasesClient } from './api/DatabasesClient';
export { DatabasesApiError } from './api/DatabasesApiError';
export { isDatabasesAvailable } from './isDatabasesAvailable';
export { PhaseChip } from './components/PhaseChip';
