import type { PolicyChecker, PolicyRequest } from '../server/mutate/PolicyChecker';
import type { StatusError } from '../server/StatusError';
import { checkPolicy } from './checkPolicy';
import type { NamespaceLabels } from './NamespaceLabels';
import type { PolicySource } from './PolicySource';
import { toStatusError } from './toStatusError';

/**
 * The write path's policy check backed by the platform team's ConfigMap: the policy in force
 * (503 until one has loaded, so nothing slips through unchecked) and the namespace's labels
 * for selector rules.
 */
export class ConfigMapPolicyChecker implements PolicyChecker {
  constructor(
    private readonly source: Pick<PolicySource, 'require'>,
    private readonly labels: NamespaceLabels,
  ) {}

  check(request: PolicyRequest): StatusError | undefined {
    const violation = checkPolicy({
      namespace: request.namespace,
      namespaceLabels: this.labels.get(request.namespace) ?? {},
      name: request.name,
      request: request.spec,
      previous: request.previousSpec,
      current: [...request.current],
      policy: this.source.require(),
    });
    return violation ? toStatusError(violation) : undefined;
  }
}
