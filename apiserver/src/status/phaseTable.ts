import type { PhaseFacts, PhaseVerdict } from './facts';

/** One row of the phase table: the first row whose `when` holds decides. */
export interface PhaseRule {
  /** Stable name, for tests and debugging. */
  name: string;
  when(facts: PhaseFacts): boolean;
  then(facts: PhaseFacts): PhaseVerdict;
}

const hasCounts = (
  f: PhaseFacts,
): f is PhaseFacts & { replicas: { desired: number; ready: number } } =>
  typeof f.replicas?.desired === 'number' &&
  typeof f.replicas?.ready === 'number';

const fewerReady = (f: PhaseFacts) =>
  hasCounts(f) && f.replicas.ready < f.replicas.desired;

const countsMessage = (f: PhaseFacts) =>
  hasCounts(f)
    ? `${f.replicas.ready}/${f.replicas.desired} replicas ready`
    : undefined;

/** Ready once (upstream evidence), or ready right now by the operator's own verdict: it serves. */
const wasReady = (f: PhaseFacts) => f.onceReady || f.operatorReady === true;

const generationBehind = (f: PhaseFacts) =>
  typeof f.generation === 'number' &&
  typeof f.observedGeneration === 'number' &&
  f.observedGeneration < f.generation;

/**
 * The one table that decides the phase of every instance of every engine, from the facts an
 * adapter observed. Order is precedence. Reasons that come from the operator are kept; reasons
 * the table derives itself are the same for every engine.
 */
export const PHASE_RULES: readonly PhaseRule[] = [
  {
    // Nothing else matters once deletion started: the instance is going away.
    name: 'deleting',
    when: f => f.deleting,
    then: () => ({ phase: 'Deleting', reason: 'DeletionInProgress' }),
  },
  {
    // Hibernation or suspended reconciliation is the owner's choice: whatever the (possibly
    // frozen, or not yet written) status says, the instance is not serving as asked, and never
    // Ready. Before no-status: an instance created paused is one the operator will not act on.
    name: 'paused',
    when: f => f.paused !== undefined,
    then: f => ({
      phase: 'Paused',
      reason: f.paused!.reason,
      message: f.paused!.message,
    }),
  },
  {
    // No status at all: the operator has not acted (or is not installed). Never Ready.
    name: 'no-status',
    when: f => !f.hasStatus,
    then: () => ({
      phase: 'Pending',
      reason: 'AwaitingOperator',
      message: 'The operator has not reported any status yet',
    }),
  },
  {
    name: 'operator-error',
    when: f => f.error !== undefined,
    then: f => ({
      phase: 'Failed',
      reason: f.error!.reason,
      message: f.error!.message,
    }),
  },
  {
    // Red: some primary shards are unassigned, so part of the data is not served. A new cluster
    // is red until its first shards are allocated: that is provisioning, not failure.
    name: 'health-red',
    when: f => f.health === 'red' && (wasReady(f) || f.progress === undefined),
    then: () => ({
      phase: 'Failed',
      reason: 'HealthRed',
      message: 'Cluster health is red',
    }),
  },
  {
    // Unknown health on a new cluster only means it is not reachable yet.
    name: 'health-unknown',
    when: f =>
      f.health === 'unknown' && (wasReady(f) || f.progress === undefined),
    then: () => ({
      phase: 'Unknown',
      reason: 'HealthUnknown',
      message: 'Cluster health is unknown',
    }),
  },
  {
    name: 'not-serving-once-ready',
    when: f =>
      wasReady(f) &&
      (f.notServing !== undefined ||
        (hasCounts(f) && f.replicas.desired > 0 && f.replicas.ready === 0)),
    then: f => ({
      phase: 'Failed',
      reason: f.notServing?.reason ?? 'NoReplicasReady',
      message: f.notServing?.message ?? countsMessage(f),
    }),
  },
  {
    name: 'operator-unhealthy',
    when: f => f.unhealthy !== undefined,
    then: f => ({
      phase: 'Degraded',
      reason: f.unhealthy!.reason,
      message: f.unhealthy!.message,
    }),
  },
  {
    // A change being rolled out explains fewer ready replicas or a yellow health, so it comes first.
    name: 'progressing',
    when: f =>
      f.progress !== undefined ||
      generationBehind(f) ||
      f.versionBehind !== undefined,
    then: f => ({
      phase:
        wasReady(f) || f.progress?.change || f.versionBehind
          ? 'Updating'
          : 'Provisioning',
      reason:
        f.progress?.reason ??
        (generationBehind(f) ? 'GenerationNotObserved' : 'VersionRollingOut'),
      message:
        f.progress?.message ??
        (f.progress || !generationBehind(f)
          ? f.versionBehind &&
            `Running ${f.versionBehind.running}, upgrading to ${f.versionBehind.desired}`
          : `The operator has observed generation ${f.observedGeneration} of ${f.generation}`),
    }),
  },
  {
    name: 'health-yellow',
    when: f => f.health === 'yellow',
    then: () => ({
      phase: 'Degraded',
      reason: 'HealthYellow',
      message: 'Cluster health is yellow',
    }),
  },
  {
    name: 'replicas-not-ready',
    when: f => fewerReady(f) || (f.notServing !== undefined && !wasReady(f)),
    then: f => ({
      phase: wasReady(f) ? 'Degraded' : 'Provisioning',
      reason: fewerReady(f) ? 'ReplicasNotReady' : f.notServing!.reason,
      message: fewerReady(f)
        ? (f.operatorReady === false && f.readyMessage) || countsMessage(f)
        : f.notServing!.message,
    }),
  },
  {
    name: 'operator-ready',
    when: f => f.operatorReady === true,
    then: f => ({
      phase: 'Ready',
      reason: 'AllReplicasReady',
      message: f.readyMessage,
    }),
  },
  {
    // Operators that give no verdict (Redis standalone/sentinel): all desired members ready is Ready.
    name: 'all-replicas-ready',
    when: f =>
      f.operatorReady === undefined &&
      hasCounts(f) &&
      f.replicas.desired > 0 &&
      f.replicas.ready >= f.replicas.desired,
    then: f => ({
      phase: 'Ready',
      reason: 'AllReplicasReady',
      message: countsMessage(f),
    }),
  },
  {
    // "Not ready" with nothing more specific: still coming up, or no longer fully healthy.
    name: 'operator-not-ready',
    when: f => f.operatorReady === false,
    then: f => ({
      phase: f.onceReady ? 'Degraded' : 'Provisioning',
      reason: f.notReadyReason ?? 'NotReady',
      message: f.readyMessage,
    }),
  },
];

const FALLBACK: PhaseRule = {
  name: 'indeterminate',
  when: () => true,
  then: f => ({
    phase: 'Unknown',
    reason: f.indeterminate?.reason ?? 'UnrecognizedStatus',
    message:
      f.indeterminate?.message ??
      'The operator status does not allow a verdict',
  }),
};

/** The first matching rule of PHASE_RULES (or the Unknown fallback). */
export function matchRule(facts: PhaseFacts): PhaseRule {
  return PHASE_RULES.find(rule => rule.when(facts)) ?? FALLBACK;
}

/** Decides phase, reason and message for any engine from an adapter's facts. Pure and total. */
export function decidePhase(facts: PhaseFacts): PhaseVerdict {
  const verdict = matchRule(facts).then(facts);
  return verdict.message === undefined || verdict.message === ''
    ? { phase: verdict.phase, reason: verdict.reason }
    : verdict;
}
