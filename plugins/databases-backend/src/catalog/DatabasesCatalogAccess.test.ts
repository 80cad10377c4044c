import { describe, expect, it } from '@jest/globals';
import { catalogConditions, createCatalogConditionalDecision } from '@backstage/plugin-catalog-backend/alpha';
import { catalogEntityReadPermission } from '@backstage/plugin-catalog-common/alpha';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { DatabasesCatalogAccess } from './DatabasesCatalogAccess';
import { ANNOTATION_SCOPE } from './instanceToEntity';

const clusters = (byCluster: Record<string, string[]>) =>
  ({
    names: () => Object.keys(byCluster),
    watcher: (c: string) => ({ instances: () => byCluster[c].map(namespace => ({ metadata: { namespace } })) }),
  }) as any;
const info = { userEntityRef: 'user:default/alice', ownershipEntityRefs: ['user:default/alice', 'group:default/team-a'] };

describe('DatabasesCatalogAccess', () => {
  it('asks, as the user, per namespace with instances, unless the user may get in every namespace', async () => {
    const asked: string[] = [];
    const access = new DatabasesCatalogAccess(clusters({ dev: ['team-a', 'team-b', 'team-a'], prod: ['team-a'] }), { userPrefix: 'oidc:', groupPrefix: '' }, {
      canRead: async (as, cluster, namespace) => {
        asked.push(`${as.user} ${as.groups.join(',')} ${cluster}:${namespace}`);
        return cluster === 'prod' ? namespace === '' : namespace === 'team-a';
      },
    });
    expect(await access.visibleScopes(info)).toEqual(['dev:team-a', 'prod:team-a']);
    expect(asked.sort()).toEqual([
      'oidc:user:default/alice group:default/team-a dev:',
      'oidc:user:default/alice group:default/team-a dev:team-a',
      'oidc:user:default/alice group:default/team-a dev:team-b',
      'oidc:user:default/alice group:default/team-a prod:',
    ]);
  });

  it('builds the decision catalogConditions would build, and leaves a service\'s own reads alone', async () => {
    const access = new DatabasesCatalogAccess(clusters({ dev: ['team-a'] }), { userPrefix: '', groupPrefix: '' }, { canRead: async (_as, _c, ns) => ns === 'team-a' });
    expect(await access.decision(catalogEntityReadPermission, { info })).toEqual(
      createCatalogConditionalDecision(catalogEntityReadPermission, {
        anyOf: [
          { not: catalogConditions.hasAnnotation({ annotation: ANNOTATION_SCOPE }) },
          catalogConditions.hasAnnotation({ annotation: ANNOTATION_SCOPE, value: 'dev:team-a' }),
        ],
      }),
    );
    expect(await access.decision(catalogEntityReadPermission)).toEqual({ result: AuthorizeResult.ALLOW });
  });
});
