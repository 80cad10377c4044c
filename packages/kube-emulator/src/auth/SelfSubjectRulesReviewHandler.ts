import type { CustomHandler, UserInfo } from '../api/types';
import type { PolicyRule } from '../rbac/types';
import { StoreError } from '../store/types';
import type { RulesForResult } from './RbacAuthorizer';
import { reviewHandler } from './reviewHandler';

/** What can list a user's rules in a namespace (the RBAC authorizer). */
export interface RuleResolver {
  rulesFor(user: UserInfo, namespace: string): RulesForResult;
}

const resourceRule = (r: PolicyRule) => ({
  verbs: r.verbs,
  ...(r.apiGroups?.length ? { apiGroups: r.apiGroups } : {}),
  ...(r.resources?.length ? { resources: r.resources } : {}),
  ...(r.resourceNames?.length ? { resourceNames: r.resourceNames } : {}),
});

const nonResourceRule = (r: PolicyRule) => ({
  verbs: r.verbs,
  nonResourceURLs: r.nonResourceURLs,
});

/**
 * `POST /apis/authorization.k8s.io/v1/selfsubjectrulesreviews` (`kubectl auth can-i --list`):
 * the caller's rules in `spec.namespace`, from every ClusterRoleBinding and that namespace's
 * RoleBindings, as kube-apiserver's REST storage reports them (a missing namespace is a 400;
 * `system:masters` shows its cluster-admin binding's rules, since that group's bypass is not a rule).
 */
export function createSelfSubjectRulesReviewHandler(
  resolver: RuleResolver,
): CustomHandler {
  return reviewHandler({
    group: 'authorization.k8s.io',
    resource: 'selfsubjectrulesreviews',
    kind: 'SelfSubjectRulesReview',
    evaluate: (review, caller) => {
      const spec = review.spec as Record<string, unknown>;
      const namespace =
        typeof spec.namespace === 'string' ? spec.namespace : '';
      if (!namespace)
        throw new StoreError(400, 'BadRequest', 'no namespace on request');
      const rules = resolver.rulesFor(caller, namespace);
      return {
        resourceRules: rules.resourceRules.map(resourceRule),
        nonResourceRules: rules.nonResourceRules.map(nonResourceRule),
        incomplete: false,
        ...(rules.evaluationError
          ? { evaluationError: rules.evaluationError }
          : {}),
      };
    },
  });
}
