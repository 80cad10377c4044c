import { z } from 'zod/v3';
import { InputError } from '@backstage/errors';

/** The shapes of the route parameters every route shares, and how a bad one is answered. */
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
export const dnsLabel = z.string().max(63).regex(DNS_LABEL, 'must be a lowercase DNS label');
export const instanceName = z.string().max(253).regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, 'must be a DNS subdomain');

export const clusterParams = z.object({ cluster: dnsLabel });
export const namespaceParams = clusterParams.extend({ namespace: dnsLabel });
export const instanceParams = namespaceParams.extend({ name: instanceName });

/** `value` as `schema` says, or a 400 InputError naming every bad part. */
export function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    const details = result.error.issues
      .map(i => `${i.path.length ? i.path.join('.') : what}: ${i.message}`)
      .join('; ');
    throw new InputError(`invalid ${what}: ${details}`);
  }
  return result.data;
}
