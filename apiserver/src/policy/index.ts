export type {
  ExceededLimit,
  LabelSelector,
  LabelSelectorRequirement,
  LimitName,
  Policy,
  PolicyLimits,
  PolicyRule,
  PolicyViolation,
} from './types';
export {
  parsePolicy,
  policyFromConfigMap,
  POLICY_KEY,
  type PolicyParseResult,
} from './parsePolicy';
export { checkPolicy, ruleApplies, type PolicyCheckInput } from './checkPolicy';
export { toStatusError } from './toStatusError';
export {
  PolicySource,
  type PolicyLogger,
  type PolicyReader,
  type PolicySourceOptions,
} from './PolicySource';
export { kubePolicyReader } from './kubePolicyReader';
export { kubePolicyConfigMapWatch, PolicyConfigMapWatch } from './PolicyConfigMapWatch';
export {
  InformerNamespaceLabels,
  kubeNamespaceLabels,
  StaticNamespaceLabels,
  type NamespaceLabels,
} from './NamespaceLabels';
export {
  parseVersionRange,
  versionInRange,
  type VersionRange,
} from './versionRange';
export { ConfigMapPolicyChecker } from './ConfigMapPolicyChecker';
