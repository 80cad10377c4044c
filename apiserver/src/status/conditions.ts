import type {
  Condition,
  DatabasePhase,
} from '@internal/plugin-databases-common';
import type { PhaseVerdict } from './facts';

/** Condition type every instance carries. */
export const READY_CONDITION = 'Ready';

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
 * Unknown in phase Unknown). Its lastTransitionTime is taken from the first upstream condition
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
  return [ready];
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
