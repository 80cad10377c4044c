import type { DatabaseInstance, DatabaseInstanceSpec } from '@internal/plugin-databases-common';
import type { UserInfo } from '../../auth/types';
import type { StatusError } from '../StatusError';

/** What a create or update asks for, as the policy sees it. */
export interface PolicyRequest {
  namespace: string;
  name: string;
  /** The defaulted, validated spec the instance would have. */
  spec: DatabaseInstanceSpec;
  /** The spec before an update (only the increase counts against limits); absent on create. */
  previousSpec?: DatabaseInstanceSpec;
  user: UserInfo;
  /** Instances already in the namespace (for an update, including the one being changed). */
  current: readonly DatabaseInstance[];
}

/**
 * The platform team's limits (the policy ConfigMap). Answers the 403 Forbidden StatusError a
 * request that exceeds them gets, or undefined when it is allowed.
 */
export interface PolicyChecker {
  check(request: PolicyRequest): StatusError | undefined | Promise<StatusError | undefined>;
}

/** No policy configured: everything is allowed. */
export const noPolicy: PolicyChecker = { check: () => undefined };
