import type { StoredObject } from '../store/types';
import { applyDesired, computeStage, limitsFor, stepSet } from './statefulSetWorld';
import type { CustomKind, DesiredState, EmulatedOperator, HealthMode, Observation, Stage, StatefulSetState } from './types';

/** What the emulator keeps of one operator object between rounds (its members' progress). */
export interface World {
  uid: string;
  namespace: string;
  name: string;
  sets: Map<string, StatefulSetState>;
  everReady: boolean;
  createTime: string;
  runningVersion?: string;
  deletingSeen: boolean;
  /** See Observation.memo. */
  memo: Record<string, unknown>;
}

/** A world for an object first seen now. */
export function newWorld(cr: StoredObject, now: string): World {
  return {
    uid: cr.metadata.uid,
    namespace: cr.metadata.namespace ?? '',
    name: cr.metadata.name,
    sets: new Map(),
    everReady: false,
    createTime: now,
    deletingSeen: false,
    memo: {},
  };
}

/**
 * One round of an object's members: its desired state, each set moved one step towards it (as
 * far as the health mode lets it), the stage that results. `w` moves on with it; `progressed`
 * counts the sets of an operator without StatefulSets that moved (they change no object).
 */
export function stepWorld(
  op: EmulatedOperator,
  kind: CustomKind,
  cr: StoredObject,
  w: World,
  mode: HealthMode,
): { desired: DesiredState; sets: Map<string, StatefulSetState>; podsBefore: Map<string, number>; stage: Stage; progressed: number } {
  let progressed = 0;
  const desired = op.desired(cr, kind, { current: name => w.sets.get(name), memo: w.memo });
  const sets = new Map<string, StatefulSetState>();
  desired.statefulSets.forEach((d, i) => {
    const previous = w.sets.get(d.name);
    let state = applyDesired(previous, d);
    // A StatefulSet created this round has no pods yet.
    if (previous)
      state = stepSet(
        state,
        limitsFor(
          mode,
          state,
          i,
          desired.statefulSets.length,
          op.failedKeepsPods,
        ),
      );
    sets.set(d.name, state);
    // Pods of an operator without StatefulSets change no object of their own: count their
    // progress here, so that settle() does not stop in the middle of a rollout.
    if (d.podsOnly && JSON.stringify(previous) !== JSON.stringify(state))
      progressed++;
  });
  // the pods each set had, so that a scale-down removes exactly the ones beyond its new count
  const podsBefore = new Map([...w.sets].map(([n, st]) => [n, st.pods]));
  w.sets = sets;
  const states = [...sets.values()];
  const stage: Stage = computeStage(mode, states, w.everReady);
  if (stage === 'ready') {
    w.everReady = true;
    w.runningVersion = desired.version;
  } else if (
    w.runningVersion === undefined &&
    states.some(s => s.ready > 0)
  ) {
    w.runningVersion = desired.version;
  }
  return { desired, sets, podsBefore, stage, progressed };
}

/** What the operator sees of its object's members this round. */
export function observe(
  cr: StoredObject,
  w: World,
  stage: Stage,
  control: { message?: string },
  now: string,
  extra: Partial<Observation> = {},
): Observation {
  const states = [...w.sets.values()];
  return {
    stage,
    sets: states,
    desiredReplicas: states.reduce((n, s) => n + s.replicas, 0),
    // a lost primary (failPrimary) is one member fewer ready
    readyReplicas: Math.max(0, states.reduce((n, s) => n + s.ready, 0) - (w.memo.lostPrimary ? 1 : 0)),
    generation: cr.metadata.generation ?? 1,
    now,
    message: control.message,
    runningVersion: w.runningVersion,
    createTime: w.createTime,
    memo: w.memo,
    ...extra,
  };
}

/** The round in which an object is visibly being deleted, before its finalizer is removed. */
export function deletingObservation(cr: StoredObject, world: World, now: string): Observation {
  const states = [...world.sets.values()];
  return {
    stage: 'deleting',
    sets: states,
    desiredReplicas: states.reduce((n, s) => n + s.replicas, 0),
    readyReplicas: states.reduce((n, s) => n + s.ready, 0),
    generation: cr.metadata.generation ?? 1,
    now,
    runningVersion: world.runningVersion,
    createTime: world.createTime,
  };
}
