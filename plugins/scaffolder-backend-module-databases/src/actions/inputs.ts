import { InputError } from '@backstage/errors';
import { parseEntityRef } from '@backstage/catalog-model';
import type { z as zod } from 'zod/v3';

type Z = typeof zod;

// The portal's own rules for these fields (plugins/databases-backend/src/router.ts).
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;
const QUANTITY = /^[0-9]+(\.[0-9]+)?(m|Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$/;

const isEntityRef = (s: string) => {
  try {
    parseEntityRef(s);
    return true;
  } catch {
    return false;
  }
};

const dnsLabel = (z: Z) => z.string().max(63).regex(DNS_LABEL, 'must be a lowercase DNS label');
const entityRef = (z: Z) => z.string().min(1).refine(isEntityRef, 'must be an entity ref like component:default/orders');

/** Where an instance is: the cluster (a name under `databases.clusters`), its namespace and name. */
export const instanceKeyFields = {
  cluster: (z: Z) => dnsLabel(z).describe('Cluster, as named under databases.clusters in app-config'),
  namespace: (z: Z) => dnsLabel(z).describe('Kubernetes namespace of the instance'),
  name: (z: Z) =>
    z.string().max(253).regex(DNS_SUBDOMAIN, 'must be a DNS subdomain').describe('Name of the DatabaseInstance'),
};

/** The input of `databases:instance:create`. */
export const createInputSchema = (z: Z) =>
  z
    .object({
      ...mapFields(z, instanceKeyFields),
      engine: dnsLabel(z).describe('Engine, as the cluster\'s DatabaseEngines name them (postgresql, mariadb, redis...)'),
      topology: dnsLabel(z).optional().describe('Topology the engine offers (standalone, replication...); the engine\'s default if unset'),
      version: z.string().max(64).optional().describe('Engine version; the engine\'s default if unset'),
      size: z
        .string()
        .max(63)
        .optional()
        .describe('Size preset of the engine (its DatabaseEngine\'s sizes, e.g. small): storage and resources'),
      storage: z.string().regex(QUANTITY, 'must be a Kubernetes quantity').optional().describe('Storage size (e.g. 5Gi); overrides the size preset\'s'),
      owner: entityRef(z).describe('Owner entity ref, e.g. group:default/team-a'),
      component: entityRef(z)
        .optional()
        .describe('Component the database belongs to: its backstage.io/kubernetes-id labels the instance (the component may be new, created by the same template)'),
    })
    .strict();

/** The input of `databases:instance:wait`. */
export const waitInputSchema = (z: Z) =>
  z
    .object({
      ...mapFields(z, instanceKeyFields),
      timeoutSeconds: z
        .number()
        .int()
        .min(1)
        .max(3600)
        .default(600)
        .describe('How long to wait for Ready before the step fails (default 600)'),
    })
    .strict();

function mapFields<T extends Record<string, (z: Z) => zod.ZodTypeAny>>(z: Z, fields: T): { [K in keyof T]: ReturnType<T[K]> } {
  return Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f(z)])) as any;
}

/**
 * The input parsed with its schema, or an InputError naming every problem with its field, as
 * the portal's routes answer (`invalid input: name: must be a DNS subdomain`). The scaffolder
 * checks the JSON schema before a step runs; this is the same check for a direct caller and
 * the only one for the refinements JSON schema cannot express.
 */
export function parseInput<T>(schema: zod.ZodType<T, any, any>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    const details = result.error.issues.map(i => `${i.path.length ? i.path.join('.') : 'input'}: ${i.message}`).join('; ');
    throw new InputError(`invalid input: ${details}`);
  }
  return result.data;
}

/** The instance's page in the portal (plugins/databases' route). */
export function instancePageUrl(key: { cluster: string; namespace: string; name: string }): string {
  const e = encodeURIComponent;
  return `/databases/${e(key.cluster)}/${e(key.namespace)}/${e(key.name)}`;
}
