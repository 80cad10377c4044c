import type {
  AuthorizationDecision,
  Authorizer,
  RequestInfo,
  UserInfo,
} from '../api/types';
import { authRulesToRbacObjects } from '../rbac/authRulesToRbacObjects';
import { bootstrapPolicy } from '../rbac/bootstrapPolicy';
import { RbacObjectIndex } from '../rbac/RbacObjectIndex';
import { ruleAllows } from '../rbac/ruleAllows';
import type { PolicyRule, RbacObject, RbacObjectSource } from '../rbac/types';
import {
  aggregateErrorMessage,
  rulesFor,
  visitRulesFor,
} from '../rbac/visitRulesFor';
import type { AuthConfig } from './types';

/** The group kube-apiserver allows everything, without consulting RBAC. */
export const SYSTEM_MASTERS = 'system:masters';

/** What a SelfSubjectRulesReview reports (kube's RBACAuthorizer.RulesFor). */
export interface RulesForResult {
  resourceRules: PolicyRule[];
  nonResourceRules: PolicyRule[];
  /** Resolution errors (a binding to a missing role), as one message; empty when none. */
  evaluationError: string;
}

/** Options of {@link RbacAuthorizer.fromConfig}. */
export interface RbacAuthorizerOptions {
  /** Serve kube's bootstrap roles as every cluster has them (default true). */
  bootstrapPolicy?: boolean;
}

/**
 * kube-apiserver's authorization chain reduced to what the emulator needs: the privileged-group
 * authorizer (`system:masters` may do everything, without RBAC), then RBAC over
 * rbac.authorization.k8s.io/v1 objects, evaluated as plugin/pkg/auth/authorizer/rbac does. The
 * first rule of any applying binding that allows decides, with RBAC's reason; otherwise it is a
 * deny whose reason lists the roles bindings named but that do not exist (RBAC's "no opinion",
 * which kube-apiserver turns into a 403).
 */
export class RbacAuthorizer implements Authorizer {
  constructor(private readonly objects: RbacObjectSource) {}

  /**
   * A fixed policy, not backed by a store: the bootstrap roles plus an auth file's `rules:`
   * shorthand and any RBAC objects (unit tests of the authentication pieces).
   */
  static fromConfig(
    config: Pick<AuthConfig, 'rules'>,
    options: RbacAuthorizerOptions & { objects?: RbacObject[] } = {},
  ): RbacAuthorizer {
    return new RbacAuthorizer(
      RbacObjectIndex.of([
        ...(options.bootstrapPolicy === false ? [] : bootstrapPolicy()),
        ...authRulesToRbacObjects(config.rules),
        ...(options.objects ?? []),
      ]),
    );
  }

  authorize(user: UserInfo, info: RequestInfo): AuthorizationDecision {
    if (user.groups.includes(SYSTEM_MASTERS))
      return { allowed: true, reason: '' };
    let reason = '';
    const errors: Error[] = [];
    visitRulesFor(this.objects, user, info.namespace, (source, rule, error) => {
      if (rule && ruleAllows(info, rule)) {
        reason = `RBAC: allowed by ${source}`;
        return false;
      }
      if (error) errors.push(error);
      return true;
    });
    if (reason) return { allowed: true, reason };
    return {
      allowed: false,
      reason: errors.length ? `RBAC: ${aggregateErrorMessage(errors)}` : '',
    };
  }

  /** Every rule `user` has in `namespace`, split as a SelfSubjectRulesReview reports them. */
  rulesFor(user: UserInfo, namespace: string): RulesForResult {
    const { rules, errors } = rulesFor(this.objects, user, namespace);
    return {
      resourceRules: rules.filter(r => (r.resources ?? []).length > 0),
      nonResourceRules: rules.filter(r => (r.nonResourceURLs ?? []).length > 0),
      evaluationError: errors.length ? aggregateErrorMessage(errors) : '',
    };
  }
}
