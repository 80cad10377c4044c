import type { HealthMode, Stage, StatefulSetState } from './types';

/** How far pods of one StatefulSet may get this round. */
export interface SetLimits {
  /** Ready pods cannot exceed this (pods fail at once, recover one per round). */
  maxReady: number;
  /** Keep a rolling update from finishing (at least one pod stays at the old revision). */
  holdUpdate: boolean;
}

/** Starts emulating a new StatefulSet, or takes a changed spec (replicas, revision) into account. */
export function applyDesired(
  state: StatefulSetState | undefined,
  desired: { name: string; replicas: number; revision: string },
): StatefulSetState {
  if (!state) {
    return {
      name: desired.name,
      replicas: desired.replicas,
      pods: 0,
      ready: 0,
      updated: 0,
      revision: desired.revision,
      currentRevision: desired.revision,
    };
  }
  const next = { ...state, replicas: desired.replicas };
  // A changed spec rolls out until every pod is back and ready (new pods start unready: that is
  // the update, not a degradation).
  if (desired.replicas !== state.replicas || desired.revision !== state.revision)
    next.rollingOut = true;
  if (desired.revision !== state.revision) {
    // A new pod template: every existing pod is now at an old revision.
    next.revision = desired.revision;
    next.updated = 0;
  }
  return next;
}

/**
 * One round of the emulated StatefulSet controller and kubelet: create or remove one pod, or
 * replace one pod at the new revision (a pod created or replaced is not ready that round: the
 * kubelet has yet to start it), then let one more pod become ready. Pure.
 */
export function stepSet(
  state: StatefulSetState,
  limits: SetLimits,
): StatefulSetState {
  const s = { ...state };
  let starting = false;
  if (s.pods < s.replicas) {
    s.pods += 1;
    s.updated += 1;
    starting = true;
  } else if (s.pods > s.replicas) {
    s.pods -= 1;
    s.updated = Math.min(s.updated, s.pods);
  } else if (
    s.updated < s.pods &&
    !(limits.holdUpdate && s.updated >= s.pods - 1)
  ) {
    s.updated += 1;
    starting = true;
  }
  if (limits.holdUpdate && s.pods > 0) {
    s.updated = Math.min(s.updated, s.pods - 1);
    if (s.currentRevision === s.revision)
      s.currentRevision = `${s.revision}-previous`;
  }
  const rolling = s.updated < s.pods || starting;
  const cap = Math.max(
    0,
    Math.min(limits.maxReady, rolling ? s.pods - 1 : s.pods),
  );
  s.ready = s.ready > cap ? cap : Math.min(cap, s.ready + 1);
  if (
    s.updated === s.pods &&
    s.pods === s.replicas &&
    !starting &&
    !limits.holdUpdate
  ) {
    s.currentRevision = s.revision;
  }
  if (s.rollingOut && setSettled(s)) s.rollingOut = false;
  if (starting) s.starting = true;
  else delete s.starting;
  return s;
}

/** Limits for the set at `index` of `count` under a health mode. */
export function limitsFor(
  mode: HealthMode,
  state: StatefulSetState,
  index: number,
  count: number,
  failedKeepsPods = false,
): SetLimits {
  const all = state.replicas;
  const unlimited = Number.MAX_SAFE_INTEGER;
  switch (mode) {
    case 'provisioning':
      return { maxReady: Math.max(0, all - 1), holdUpdate: false };
    case 'held':
      // no member starts (the first one fails what every other waits for): provisioning for good
      return { maxReady: 0, holdUpdate: false };
    case 'updating':
      return { maxReady: unlimited, holdUpdate: true };
    case 'degraded':
      // One pod down in the last set (followers, the last nodeSet...): still serving.
      return {
        maxReady: index === count - 1 ? Math.max(0, all - 1) : unlimited,
        holdUpdate: false,
      };
    case 'failed':
      return { maxReady: failedKeepsPods ? unlimited : 0, holdUpdate: false };
    default:
      return { maxReady: unlimited, holdUpdate: false };
  }
}

/** True when every pod exists, runs the latest revision and is ready. */
export function setSettled(s: StatefulSetState): boolean {
  return (
    s.pods === s.replicas &&
    s.updated === s.replicas &&
    s.ready === s.replicas &&
    s.currentRevision === s.revision
  );
}

/** True while a scale or rolling update is being rolled out. */
export function setRolling(s: StatefulSetState): boolean {
  return (
    s.rollingOut === true ||
    s.pods !== s.replicas ||
    s.updated < s.pods ||
    s.currentRevision !== s.revision
  );
}

/**
 * The stage of an object: forced by the health mode, or (mode `ready`) read from its pods and
 * whether it has ever been ready.
 */
export function computeStage(
  mode: HealthMode,
  sets: StatefulSetState[],
  everReady: boolean,
): Stage {
  if (
    mode === 'failed' ||
    mode === 'degraded' ||
    mode === 'provisioning' ||
    mode === 'updating'
  )
    return mode;
  if (mode === 'held') return 'provisioning';
  if (sets.every(setSettled)) return 'ready';
  if (!everReady) return 'provisioning';
  if (sets.some(setRolling)) return 'updating';
  return 'degraded';
}
