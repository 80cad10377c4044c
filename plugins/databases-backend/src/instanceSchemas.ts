import { z } from 'zod/v3';
import { parseEntityRef } from '@backstage/catalog-model';
import { DATABASE_PHASES } from '@internal/plugin-databases-common';
import { SORT_NAMES } from './service/queryInstances';
import { dnsLabel, instanceName } from './requestSchemas';

// The bodies and queries of the instance routes (router.ts), checked with zod so that every bad
// field is named in the 400.

const entityRef = z.string().min(1).refine(s => {
  try {
    parseEntityRef(s);
    return true;
  } catch {
    return false;
  }
}, 'must be an entity ref like component:default/orders');
const quantity = z.string().regex(/^[0-9]+(\.[0-9]+)?(m|Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$/, 'must be a Kubernetes quantity');
const resourceList = z.object({ cpu: quantity.optional(), memory: quantity.optional() }).strict();
const resources = z.object({ requests: resourceList.optional(), limits: resourceList.optional() }).strict();


export const listQuery = z
  .object({
    cluster: dnsLabel.optional(),
    namespace: dnsLabel.optional(),
    // The engines are the apiserver's (DatabaseEngine), not a list of ours: any name may come.
    engine: dnsLabel.optional(),
    phase: z.enum(DATABASE_PHASES as [string, ...string[]]).optional(),
    owner: entityRef.optional(),
    entity: entityRef.optional(),
    q: z.string().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
    cursor: z.string().max(100).optional(),
    sort: z
      .string()
      .refine(s => SORT_NAMES.includes(s.replace(/^-/, '')), `sort must be one of ${SORT_NAMES.join(', ')} (optionally prefixed with -)`)
      .optional(),
  })
  .strict();

/**
 * `spec.restoreFrom` (restore into the new instance) as the apiserver takes it: a backup, or an
 * instance and a point in time. Only its shape is checked here; which combination an engine
 * allows, whether the backup is Succeeded, whether the time is in the past, are the
 * apiserver's to refuse (422 with every field named), and its words reach the user unchanged.
 */
const restoreFrom = z
  .object({
    backup: instanceName.optional(),
    instance: instanceName.optional(),
    pointInTime: z.string().min(1).max(64).optional(),
  })
  .strict()
  .refine(r => r.backup !== undefined || r.instance !== undefined, 'name a backup, or an instance and a pointInTime');

export const createBody = z
  .object({
    name: instanceName,
    owner: entityRef,
    entityRef: entityRef.optional(),
    entityMayBeNew: z.boolean().optional(),
    dryRun: z.boolean().optional(),
    spec: z
      .object({
        engine: dnsLabel,
        version: z.string().max(64).optional(),
        // Topologies, like engines, are the apiserver's to know (DatabaseEngine).
        topology: dnsLabel.optional(),
        replicas: z.number().int().min(0).max(1000).optional(),
        storage: z.object({ size: quantity.optional(), storageClassName: z.string().max(253).optional() }).strict().optional(),
        resources: resources.optional(),
        deletionProtection: z.boolean().optional(),
        paused: z.boolean().optional(),
        restoreFrom: restoreFrom.optional(),
      })
      .strict(),
  })
  .strict();

export const updateBody = z
  .object({
    version: z.string().max(64).optional(),
    replicas: z.number().int().min(0).max(1000).optional(),
    storage: z.object({ size: quantity.optional() }).strict().optional(),
    resources: resources.optional(),
    deletionProtection: z.boolean().optional(),
    paused: z.boolean().optional(),
    // a member (pod) name
    primary: z.string().min(1).max(253).optional(),
    resourceVersion: z.string().max(64).optional(),
    dryRun: z.boolean().optional(),
  })
  .strict()
  .refine(
    b => ['version', 'replicas', 'storage', 'resources', 'deletionProtection', 'paused', 'primary'].some(k => (b as any)[k] !== undefined),
    'nothing to change: give version, replicas, storage, resources, deletionProtection, paused or primary',
  );

export const entityQuery = z.object({ entityRef }).strict();
// the catalog's own rules for the parts of an entity ref, so a path never makes a ref that parses as another
export const entityParams = z.object({
  kind: z.string().max(63).regex(/^[a-zA-Z][a-zA-Z0-9]*$/, 'must be an entity kind'),
  namespace: z.string().max(63).regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be an entity namespace'),
  name: z.string().max(63).regex(/^([a-zA-Z0-9][-_.a-zA-Z0-9]*)?[a-zA-Z0-9]$/, 'must be an entity name'),
});
