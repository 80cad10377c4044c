import {
  coreServices,
  createBackendPlugin,
  resolvePackagePath,
} from '@backstage/backend-plugin-api';
import { catalogServiceRef } from '@backstage/plugin-catalog-node';
import { databasesInstanceReadPermission, databasesPermissions } from '@internal/plugin-databases-common';
import { clusterSetServiceRef } from './watch/clusterSetServiceRef';
import { createRouter } from './router';
import { DatabasesService } from './service/DatabasesService';
import { HistoryStore } from './history/HistoryStore';
import { recordTransitions } from './history/recordTransitions';
import { migrateHistory } from './history/migrateHistory';
import { EventsHub } from './events/EventsHub';
import { InstanceAuthorizer } from './permissions/InstanceAuthorizer';
import { databasesInstanceResourceRef, databasesInstanceRules } from './permissions/rules';
import { parseInstanceResourceRef } from '@internal/plugin-databases-common';
import { cachedUserInfo } from './identity/cachedUserInfo';
import { EntityReader } from './catalog/EntityReader';

/**
 * The databases backend plugin: `/api/databases` over every configured cluster, acting as the
 * signed-in user, with permissions, request history, live events and audit records.
 */
/**
 * How long a user's ownership (the groups the cluster is asked to impersonate) and the decisions
 * on reading instances and catalog entities are reused: the cluster's own authorization answers
 * are cached 10 s too.
 */
const USER_INFO_TTL_MS = 10_000;

export const databasesPlugin = createBackendPlugin({
  pluginId: 'databases',
  register(env) {
    env.registerInit({
      deps: {
        logger: coreServices.logger,
        httpRouter: coreServices.httpRouter,
        httpAuth: coreServices.httpAuth,
        auth: coreServices.auth,
        userInfo: coreServices.userInfo,
        permissions: coreServices.permissions,
        permissionsRegistry: coreServices.permissionsRegistry,
        database: coreServices.database,
        auditor: coreServices.auditor,
        lifecycle: coreServices.lifecycle,
        catalog: catalogServiceRef,
        clusters: clusterSetServiceRef,
      },
      async init({
        logger,
        httpRouter,
        httpAuth,
        auth,
        userInfo,
        permissions,
        permissionsRegistry,
        database,
        auditor,
        lifecycle,
        catalog,
        clusters,
      }) {
        const knex = await database.getClient();
        if (!database.migrations?.skip) {
          // replicas starting at once on a new database: migrateHistory retries the race for knex's tables
          await migrateHistory(knex, resolvePackagePath('@internal/plugin-databases-backend', 'migrations'));
        }
        permissionsRegistry.addResourceType({
          resourceRef: databasesInstanceResourceRef,
          permissions: databasesPermissions,
          rules: Object.values(databasesInstanceRules),
          // The permission backend asks for instances by ref when it evaluates conditions
          // elsewhere (e.g. the frontend's usePermission); the shared watch has them.
          getResources: async refs =>
            refs.map(ref => {
              const parsed = parseInstanceResourceRef(ref);
              const instance = parsed && clusters.watcher(parsed.cluster)?.get(parsed.namespace, parsed.name);
              return parsed && instance ? { cluster: parsed.cluster, instance } : undefined;
            }),
        });
        if (clusters.names().length === 0) {
          logger.warn('databases: no clusters configured under databases.clusters; the portal will be empty');
        }
        const history = new HistoryStore(knex);
        const stopRecording = recordTransitions(clusters, history, logger);
        const events = new EventsHub(clusters);
        clusters.start();
        lifecycle.addShutdownHook(() => {
          stopRecording();
          events.close();
        });
        httpRouter.use(
          await createRouter({
            logger,
            httpAuth,
            userInfo: cachedUserInfo(userInfo, { ttlMs: USER_INFO_TTL_MS }),
            auditor,
            catalog,
            entities: new EntityReader({ catalog, permissions, auth, ttlMs: USER_INFO_TTL_MS }),
            clusters,
            service: new DatabasesService(clusters),
            authorizer: new InstanceAuthorizer(permissions, permissionsRegistry, {
              cached: [databasesInstanceReadPermission],
              ttlMs: USER_INFO_TTL_MS,
            }),
            history,
            events,
            impersonation: clusters.config.impersonation,
          }),
        );
        httpRouter.addAuthPolicy({ path: '/health', allow: 'unauthenticated' });
      },
    });
  },
});
