import type { DatabaseInstanceSpec } from '@internal/plugin-databases-common';
import { parseQuantity } from '../writes/quantity';
import { formatQuantity } from './formatQuantity';
import type { LimitName, PolicyLimits } from './types';

/** How one limit is measured on a spec and printed. */
export interface Measure {
  /**
   * What the spec uses of this limit; undefined when the spec does not say (no CPU request or
   * limit at all), which the limit then refuses rather than counting as zero.
   */
  of(spec: DatabaseInstanceSpec): bigint | undefined;
  /** The limit's value in the same unit as `of`. */
  limit(limits: PolicyLimits): bigint | undefined;
  format(amount: bigint): string;
  /** The limit caps one instance rather than the namespace's sum. */
  perInstance?: boolean;
  /** The spec field a request must set when the limit is in force. */
  field?: string;
}

// Operators run each replica with the same resources and its own volume.
// A count that validation would refuse still must not throw here (BigInt(1.5) does).
const replicasOf = (spec: DatabaseInstanceSpec) => {
  const r = spec.replicas;
  return BigInt(r !== undefined && Number.isSafeInteger(r) && r >= 0 ? r : 1);
};

const count =
  (key: 'instances' | 'replicas' | 'replicasPerInstance') =>
  (limits: PolicyLimits) =>
    limits[key] === undefined ? undefined : BigInt(limits[key]!);

/** Per replica: the request, or the limit when there is no request (what the scheduler would reserve). */
const compute = (resource: 'cpu' | 'memory'): Measure => ({
  of: spec => {
    const q = parseQuantity(
      spec.resources?.requests?.[resource] ??
        spec.resources?.limits?.[resource],
    );
    return q ? q.nanos * replicasOf(spec) : undefined;
  },
  limit: limits => limits[resource]?.nanos,
  format: n => formatQuantity(n, resource === 'cpu' ? 'decimal' : 'binary'),
  field: `resources.requests.${resource}`,
});

/** Every limit a rule can set, in the order they are checked and reported. */
export const MEASURES: Record<LimitName, Measure> = {
  instances: {
    of: () => 1n,
    limit: count('instances'),
    format: String,
  },
  replicas: { of: replicasOf, limit: count('replicas'), format: String },
  replicasPerInstance: {
    of: replicasOf,
    limit: count('replicasPerInstance'),
    format: String,
    perInstance: true,
  },
  cpu: compute('cpu'),
  memory: compute('memory'),
  storage: {
    of: spec => {
      const q = parseQuantity(spec.storage?.size);
      return q ? q.nanos * replicasOf(spec) : undefined;
    },
    limit: limits => limits.storage?.nanos,
    format: n => formatQuantity(n, 'binary'),
    field: 'storage.size',
  },
};
