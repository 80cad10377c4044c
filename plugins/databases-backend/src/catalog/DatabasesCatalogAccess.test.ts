import { describe, expect, it } from '@jest/globals';
import { catalogConditions, createCatalogConditionalDecision } from '@backstage/plugin-catalog-backend/alpha';
import { catalogEntityReadPermission } from '@backstage/plugin-catalog-common/alpha';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { DatabasesCatalogAccess } from './DatabasesCatalogAccess';
import { ANNOTATION_CLUSTER, ANNOTATION_SCOPE } from './instanceToEntity';

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
    expect(await access.visibility(info)).toEqual(new Map<string, true | string[]>([['dev', ['dev:team-a']], ['prod', true]]));
    expect(asked.sort()).toEqual([
      'oidc:user:default/alice group:default/team-a dev:',
      'oidc:user:default/alice group:default/team-a dev:team-a',
      'oidc:user:default/alice group:default/team-a dev:team-b',
      'oidc:user:default/alice group:default/team-a prod:',
    ]);
  });

  it('builds the decision catalogConditions would build: a whole cluster by its annotation, else each namespace', async () => {
    const access = new DatabasesCatalogAccess(clusters({ dev: ['team-a', 'team-b'], prod: ['team-a'] }), { userPrefix: '', groupPrefix: '' }, {
      canRead: async (_as, c, ns) => (c === 'prod' ? ns === '' : ns === 'team-a'),
    });
    expect(await access.decision(catalogEntityReadPermission, { info })).toEqual(
      createCatalogConditionalDecision(catalogEntityReadPermission, {
        anyOf: [
          { not: catalogConditions.hasAnnotation({ annotation: ANNOTATION_SCOPE }) },
          catalogConditions.hasAnnotation({ annotation: ANNOTATION_SCOPE, value: 'dev:team-a' }),
          catalogConditions.hasAnnotation({ annotation: ANNOTATION_CLUSTER, value: 'prod' }),
        ],
      }),
    );
  });

  it('allows outright who may read every cluster whole, and leaves a service\'s own reads alone', async () => {
    const access = new DatabasesCatalogAccess(clusters({ dev: ['team-a'], prod: ['team-b'] }), { userPrefix: '', groupPrefix: '' }, { canRead: async (_as, _c, ns) => ns === '' });
    expect(await access.decision(catalogEntityReadPermission, { info })).toEqual({ result: AuthorizeResult.ALLOW });
    expect(await access.decision(catalogEntityReadPermission)).toEqual({ result: AuthorizeResult.ALLOW });
  });

  it('lets nobody without any grant see a database entity', async () => {
    const access = new DatabasesCatalogAccess(clusters({ dev: ['team-a'] }), { userPrefix: '', groupPrefix: '' }, { canRead: async () => false });
    expect(await access.decision(catalogEntityReadPermission, { info })).toEqual(
      createCatalogConditionalDecision(catalogEntityReadPermission, {
        anyOf: [{ not: catalogConditions.hasAnnotation({ annotation: ANNOTATION_SCOPE }) }],
      }),
    );
  });
});
