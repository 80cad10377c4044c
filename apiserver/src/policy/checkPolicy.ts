import type {
  DatabaseInstance,
  DatabaseInstanceSpec,
} from '@internal/plugin-databases-common';
import { matchesLabelSelector } from './matchesLabelSelector';
import type {
  ExceededLimit,
  LimitName,
  Policy,
  PolicyRule,
  PolicyViolation,
} from './types';
import { MEASURES } from './usage';
import { versionInRange } from './versionRange';

/** What a create or update is checked with. */
export interface PolicyCheckInput {
  namespace: string;
  /** The namespace's labels (`kubernetes.io/metadata.name` is implied, as kube sets it). */
  namespaceLabels: Record<string, string>;
  /** The instance's name (empty when the server has not generated it yet). */
  name: string;
  /** The spec after defaulting. */
  request: DatabaseInstanceSpec;
  /** For updates: the spec before it; only increases over it count and only changes are checked. */
  previous?: DatabaseInstanceSpec;
  /** Instances already in the namespace (the instance being updated may be among them). */
  current: DatabaseInstance[];
  policy: Policy;
}

/** The label kube-apiserver puts on every namespace, so selectors may name namespaces. */
const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/** True when `rule` applies to the namespace. */
export function ruleApplies(
  rule: PolicyRule,
  namespace: string,
  labels: Record<string, string>,
): boolean {
  if (rule.namespaces) return rule.namespaces.includes(namespace);
  if (rule.namespaceSelector) {
    return matchesLabelSelector(rule.namespaceSelector, {
      ...labels,
      [NAMESPACE_NAME_LABEL]: namespace,
    });
  }
  return false;
}

const shown = (value: string | undefined) =>
  value === undefined || value === '' ? '(unset)' : `"${value}"`;

function checkChoices(
  rule: PolicyRule,
  input: PolicyCheckInput,
): PolicyViolation | undefined {
  const { request, previous, namespace, name } = input;
  const engine = request.engine;
  const base = { rule: rule.name, name, namespace, engine };
  const by = `in namespace ${namespace} by policy rule "${rule.name}"`;
  const sameEngine = previous?.engine === engine;
  if (rule.engines && !rule.engines.includes(engine) && !sameEngine) {
    const allowed = rule.engines.join(', ') || '(none)';
    return {
      ...base,
      kind: 'EngineNotAllowed',
      value: engine,
      allowed,
      message: `engine ${shown(engine)} is not allowed ${by}; allowed: ${allowed}`,
    };
  }
  const topologies = rule.topologies?.[engine];
  const topology = request.topology;
  if (
    topologies &&
    !(topology && topologies.includes(topology)) &&
    !(sameEngine && previous?.topology === topology)
  ) {
    const allowed = topologies.join(', ') || '(none)';
    return {
      ...base,
      kind: 'TopologyNotAllowed',
      value: topology ?? '',
      allowed,
      message: `topology ${shown(topology)} of engine ${engine} is not allowed ${by}; allowed: ${allowed}`,
    };
  }
  const range = rule.versions?.[engine];
  const version = request.version;
  if (
    range &&
    !(version && versionInRange(version, range)) &&
    !(sameEngine && previous?.version === version)
  ) {
    return {
      ...base,
      kind: 'VersionNotAllowed',
      value: version ?? '',
      allowed: range.text,
      message: `version ${shown(version)} of engine ${engine} is not allowed ${by}; allowed: ${range.text}`,
    };
  }
  return undefined;
}

const list = (items: ExceededLimit[], pick: (e: ExceededLimit) => string) =>
  items.map(e => `${e.limit}=${pick(e)}`).join(',');

function checkLimits(
  rule: PolicyRule,
  input: PolicyCheckInput,
): PolicyViolation | undefined {
  if (!rule.max) return undefined;
  const { request, previous, namespace, name } = input;
  const others = input.current.filter(
    i =>
      i.metadata.name !== name &&
      (i.metadata.namespace === undefined ||
        i.metadata.namespace === namespace),
  );
  const exceeded: ExceededLimit[] = [];
  const unspecified: string[] = [];
  // Sorted by name, as ResourceQuota prints its resource lists.
  for (const key of (Object.keys(MEASURES) as LimitName[]).sort()) {
    const measure = MEASURES[key];
    const limit = measure.limit(rule.max);
    if (limit === undefined) continue;
    const wanted = measure.of(request);
    const before = previous ? measure.of(previous) : undefined;
    if (wanted === undefined) {
      // Leaving an amount out is only an increase if it was there before or the instance is new.
      if (!previous || before !== undefined)
        unspecified.push(measure.field ?? key);
      continue;
    }
    const increase = wanted - (before ?? 0n);
    if (increase <= 0n) continue;
    if (measure.perInstance) {
      if (wanted > limit) {
        exceeded.push({
          limit: key,
          requested: measure.format(wanted),
          used: measure.format(before ?? 0n),
          limited: measure.format(limit),
        });
      }
      continue;
    }
    const used =
      others.reduce((sum, i) => sum + (measure.of(i.spec) ?? 0n), 0n) +
      (before ?? 0n);
    if (used + increase > limit) {
      exceeded.push({
        limit: key,
        requested: measure.format(increase),
        used: measure.format(used),
        limited: measure.format(limit),
      });
    }
  }
  const base = { rule: rule.name, name, namespace };
  if (unspecified.length) {
    return {
      ...base,
      kind: 'MustSpecify',
      fields: unspecified,
      message: `failed policy: ${rule.name}: must specify ${unspecified.join(', ')}`,
    };
  }
  if (exceeded.length) {
    return {
      ...base,
      kind: 'QuotaExceeded',
      exceeded,
      message: `exceeded policy: ${rule.name}, requested: ${list(exceeded, e => e.requested)}, used: ${list(exceeded, e => e.used)}, limited: ${list(exceeded, e => e.limited)}`,
    };
  }
  return undefined;
}

/**
 * Checks a create (no `previous`) or an update against every rule that applies to the
 * namespace, in the policy's order, and returns the first refusal. Engines, topologies and
 * versions are checked only when the request sets or changes them, and limits only count
 * what the request adds, so an instance created before a stricter policy can still be
 * changed in ways that do not make things worse (as ResourceQuota treats updates).
 */
export function checkPolicy(
  input: PolicyCheckInput,
): PolicyViolation | undefined {
  for (const rule of input.policy.rules) {
    if (!ruleApplies(rule, input.namespace, input.namespaceLabels)) continue;
    const violation = checkChoices(rule, input) ?? checkLimits(rule, input);
    if (violation) return violation;
  }
  return undefined;
}
