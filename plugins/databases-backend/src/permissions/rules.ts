import { z } from 'zod/v3';
import {
  createConditionExports,
  createPermissionResourceRef,
  createPermissionRule,
} from '@backstage/plugin-permission-node';
import {
  ANNOTATION_OWNER,
  DATABASES_INSTANCE_RESOURCE_TYPE,
  type PortalInstance,
} from '@internal/plugin-databases-common';

/** Conditions become in-memory predicates over instances (there is no database query to build). */
export type InstancePredicate = (resource: PortalInstance) => boolean;

/** The permission framework's handle on the `databases-instance` resource type. */
export const databasesInstanceResourceRef = createPermissionResourceRef<
  PortalInstance,
  InstancePredicate
>().with({ pluginId: 'databases', resourceType: DATABASES_INSTANCE_RESOURCE_TYPE });

/** Owner entity ref of an instance (`dbaas.platform.dev/owner` annotation). */
export const ownerOf = (r: PortalInstance): string | undefined =>
  r.instance.metadata.annotations?.[ANNOTATION_OWNER];

const isOwner = createPermissionRule({
  name: 'IS_OWNER',
  description: 'Allow instances owned by one of the given entity refs (e.g. the user\'s groups)',
  resourceRef: databasesInstanceResourceRef,
  paramsSchema: z.object({
    owners: z.array(z.string()).describe('Owner entity refs, e.g. group:default/team-a'),
  }),
  apply: (r, { owners }) => {
    const owner = ownerOf(r);
    return owner !== undefined && owners.includes(owner);
  },
  toQuery: ({ owners }) => r => {
    const owner = ownerOf(r);
    return owner !== undefined && owners.includes(owner);
  },
});

const isInNamespace = createPermissionRule({
  name: 'IS_IN_NAMESPACE',
  description: 'Allow instances in the given namespaces',
  resourceRef: databasesInstanceResourceRef,
  paramsSchema: z.object({ namespaces: z.array(z.string()) }),
  apply: (r, { namespaces }) => namespaces.includes(r.instance.metadata.namespace ?? ''),
  toQuery: ({ namespaces }) => r => namespaces.includes(r.instance.metadata.namespace ?? ''),
});

const isInCluster = createPermissionRule({
  name: 'IS_IN_CLUSTER',
  description: 'Allow instances in the given clusters (names from databases.clusters)',
  resourceRef: databasesInstanceResourceRef,
  paramsSchema: z.object({ clusters: z.array(z.string()) }),
  apply: (r, { clusters }) => clusters.includes(r.cluster),
  toQuery: ({ clusters }) => r => clusters.includes(r.cluster),
});

const hasEngine = createPermissionRule({
  name: 'HAS_ENGINE',
  description: 'Allow instances of the given engines (names as DatabaseEngine lists them, e.g. mariadb, postgresql)',
  resourceRef: databasesInstanceResourceRef,
  paramsSchema: z.object({ engines: z.array(z.string()) }),
  apply: (r, { engines }) => engines.includes(r.instance.spec.engine),
  toQuery: ({ engines }) => r => engines.includes(r.instance.spec.engine),
});

/** The conditional rules of the databases permissions. */
export const databasesInstanceRules = { isOwner, isInNamespace, isInCluster, hasEngine };

/**
 * For permission policies: `databasesInstanceConditions.isOwner({ owners })` and
 * `createDatabasesInstanceConditionalDecision(permission, conditions)`.
 */
export const {
  conditions: databasesInstanceConditions,
  createConditionalDecision: createDatabasesInstanceConditionalDecision,
} = createConditionExports({
  resourceRef: databasesInstanceResourceRef,
  rules: databasesInstanceRules,
});
