import { coreServices, createServiceFactory, createServiceRef } from '@backstage/backend-plugin-api';
import { catalogServiceRef } from '@backstage/plugin-catalog-node';
import type { PermissionRuleset } from '@backstage/plugin-permission-node';
import { databasesInstanceReadPermission, type PortalInstance } from '@internal/plugin-databases-common';
import { clusterSetServiceRef } from '../watch/clusterSetServiceRef';
import { DatabasesService } from '../service/DatabasesService';
import { InstanceAuthorizer } from '../permissions/InstanceAuthorizer';
import { databasesInstanceRules, type InstancePredicate } from '../permissions/rules';
import { cachedUserInfo } from '../identity/cachedUserInfo';
import { requestHistoryServiceRef } from '../history/requestHistoryServiceRef';
import { InstanceRequests } from './InstanceRequests';

/** As the databases plugin's (plugin.ts): ownership and read decisions reused for 10 s. */
const USER_INFO_TTL_MS = 10_000;

/**
 * The databases rules by name. Another plugin's permissions registry serves only its own
 * resource types, so a module of another plugin (the Scaffolder's) evaluates the policy's
 * conditional decisions on instances with the rules themselves, as the databases plugin does.
 */
const instanceRuleset: PermissionRuleset<PortalInstance, InstancePredicate> = {
  getRuleByName(name) {
    const rule = Object.values(databasesInstanceRules).find(r => r.name === name);
    if (!rule) throw new Error(`Permission rule '${name}' does not exist for resource type 'databases-instance'`);
    return rule as any;
  },
};

/**
 * {@link InstanceRequests} for a module of another plugin (the Scaffolder's
 * `databases:instance:*` actions): the portal's create and wait, as the user, with the same
 * impersonation, cluster set and Backstage permissions as `/api/databases`. Each create is
 * audited (`instance-create`, by the using plugin's auditor) and, where the databases plugin
 * runs in the same backend, kept in the instance's request history as the portal's are.
 */
export const databasesInstancesServiceRef = createServiceRef<InstanceRequests>({
  id: 'databases.instances',
  scope: 'plugin',
  defaultFactory: async service =>
    createServiceFactory({
      service,
      deps: {
        clusters: clusterSetServiceRef,
        userInfo: coreServices.userInfo,
        permissions: coreServices.permissions,
        catalog: catalogServiceRef,
        auditor: coreServices.auditor,
        history: requestHistoryServiceRef,
      },
      factory({ clusters, userInfo, permissions, catalog, auditor, history }) {
        return new InstanceRequests({
          clusters,
          service: new DatabasesService(clusters),
          authorizer: new InstanceAuthorizer(
            permissions,
            { getPermissionRuleset: () => instanceRuleset as any },
            { cached: [databasesInstanceReadPermission], ttlMs: USER_INFO_TTL_MS },
          ),
          userInfo: cachedUserInfo(userInfo, { ttlMs: USER_INFO_TTL_MS }),
          catalog,
          impersonation: clusters.config.impersonation,
          auditor,
          history,
        });
      },
    }),
});
