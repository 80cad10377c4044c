import {
  DATABASE_INSTANCE_PLURAL,
  DATABASES_API_GROUP,
} from '@internal/plugin-databases-common';
import { StatusError } from '../server/StatusError';
import type { PolicyViolation } from './types';

/**
 * The 403 Forbidden a policy refusal is answered with, worded as kube-apiserver words a
 * ResourceQuota refusal: `databaseinstances.dbaas.platform.dev "orders-db" is forbidden:
 * exceeded policy: team-a-quota, requested: storage=10Gi, used: storage=45Gi, limited: storage=50Gi`.
 */
export function toStatusError(violation: PolicyViolation): StatusError {
  const resource = `${DATABASE_INSTANCE_PLURAL}.${DATABASES_API_GROUP}`;
  const subject = violation.name ? `${resource} "${violation.name}"` : resource;
  return new StatusError(
    403,
    'Forbidden',
    `${subject} is forbidden: ${violation.message}`,
    {
      ...(violation.name ? { name: violation.name } : {}),
      group: DATABASES_API_GROUP,
      kind: DATABASE_INSTANCE_PLURAL,
    },
  );
}
