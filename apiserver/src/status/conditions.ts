import type {
  Condition,
  DatabasePhase,
} from '@internal/plugin-databases-common';
import type { PhaseVerdict } from './facts';

/** Condition type every instance carries. */
export const READY_CONDITION = 'Ready';

/**
 * kstatus's two abnormal-true conditions (sigs.k8s.io/cli-utils/pkg/kstatus, what Flux waits
 * with): present, and `True`, only while they hold; absent means False, as Flux's own objects do.
 */
export const RECONCILING_CONDITION = 'Reconciling';
export const STALLED_CONDITION = 'Stalled';

type KstatusCondition = typeof RECONCILING_CONDITION | typeof STALLED_CONDITION;

/**
 * Which kstatus condition each phase carries (docs/phases.md, "GitOps: kstatus"). Reconciling
 * (kstatus InProgress): work is under way or awaited. Stalled (kstatus Failed): it will not
 * become Ready without someone acting. None: the Ready condition alone says it (Ready: Current;
 * Degraded, Unknown: InProgress, from Ready False/Unknown). Deleting is kstatus Terminating
 * from metadata.deletionTimestamp; Reconciling covers an operator finalizing without one.
 */
const KSTATUS_CONDITION: Record<DatabasePhase, KstatusCondition | undefined> = {
  Pending: RECONCILING_CONDITION,
  Provisioning: RECONCILING_CONDITION,
  Updating: RECONCILING_CONDITION,
  Deleting: RECONCILING_CONDITION,
  Failed: STALLED_CONDITION,
  Paused: STALLED_CONDITION,
  Ready: undefined,
  Degraded: undefined,
  Unknown: undefined,
};

/** The kstatus condition type a phase carries, if any. */
export function kstatusConditionOf(
  phase: DatabasePhase,
): KstatusCondition | undefined {
  return KSTATUS_CONDITION[phase];
}

/**
 * `conditions` with the kstatus condition of `verdict` (and no other Reconciling or Stalled),
 * right after Ready; reason and message are the verdict's. For a verdict changed after the
 * projection (the rollout memory's), so conditions and phase never disagree.
 */
export function withKstatusCondition(
  conditions: readonly Condition[],
  verdict: PhaseVerdict,
  observedGeneration?: number,
): Condition[] {
  const type = kstatusConditionOf(verdict.phase);
  const rest = conditions.filter(
    c => c.type !== RECONCILING_CONDITION && c.type !== STALLED_CONDITION,
  );
  if (!type) return rest;
  const condition: Condition = {
    type,
    status: 'True',
    reason: verdict.reason,
  };
  if (verdict.message !== undefined) condition.message = verdict.message;
  if (observedGeneration !== undefined)
    condition.observedGeneration = observedGeneration;
  const at = rest.findIndex(c => c.type === READY_CONDITION) + 1;
  return [...rest.slice(0, at), condition, ...rest.slice(at)];
}

/** The Ready condition's status for a phase: True only when Ready, Unknown when we cannot tell. */
export function readyStatusOf(phase: DatabasePhase): Condition['status'] {
  if (phase === 'Ready') return 'True';
  if (phase === 'Unknown') return 'Unknown';
  return 'False';
}

/** An upstream condition as found on operator objects (loosely typed: it comes off the wire). */
export interface UpstreamCondition {
  type?: string;
  status?: string;
  lastTransitionTime?: string;
}

/**
 * Builds `status.conditions` for a verdict: a `Ready` condition (True only in phase Ready,
 * Unknown in phase Unknown), then the phase's kstatus condition if it has one
 * (`withKstatusCondition`). The Ready condition's lastTransitionTime is taken from the first upstream condition
 * with the same truth value: the operator saw the transition, we only mirror it. When none
 * matches it is left out; `stabiliseConditions` fills it from the previous projection.
 */
export function buildConditions(
  verdict: PhaseVerdict,
  options: {
    upstream?: ReadonlyArray<UpstreamCondition | undefined>;
    observedGeneration?: number;
  } = {},
): Condition[] {
  const status = readyStatusOf(verdict.phase);
  const from = (options.upstream ?? []).find(
    c => c?.status === status && typeof c.lastTransitionTime === 'string',
  );
  const ready: Condition = {
    type: READY_CONDITION,
    status,
    reason: verdict.reason,
  };
  if (verdict.message !== undefined) ready.message = verdict.message;
  if (from?.lastTransitionTime)
    ready.lastTransitionTime = from.lastTransitionTime;
  if (options.observedGeneration !== undefined)
    ready.observedGeneration = options.observedGeneration;
  return withKstatusCondition([ready], verdict, options.observedGeneration);
}

/**
 * Keeps lastTransitionTime stable across re-projections: a condition whose status did not change
 * keeps the previous time; one that changed (or never had a time) gets its upstream time or `now`.
 */
export function stabiliseConditions(
  next: readonly Condition[],
  previous: readonly Condition[] | undefined,
  now: string,
): Condition[] {
  return next.map(condition => {
    const before = previous?.find(p => p.type === condition.type);
    if (
      before &&
      before.status === condition.status &&
      before.lastTransitionTime
    ) {
      return { ...condition, lastTransitionTime: before.lastTransitionTime };
    }
    return condition.lastTransitionTime
      ? condition
      : { ...condition, lastTransitionTime: now };
  });
}
