import {
  ANNOTATION_READY_SPEC,
  LABEL_MANAGED_BY,
  MANAGED_BY_VALUE,
  type DatabaseInstance,
  type DatabasePhase,
} from '@internal/plugin-databases-common';
import type { KubeObject } from '../adapters/types';
import { READY_CONDITION, withKstatusCondition } from './conditions';

/**
 * What one apiserver replica saw of an instance's life, to tell a rollout from a failure.
 *
 * Upstream objects cannot always say it themselves: a StatefulSet whose fourth pod is not ready
 * yet looks the same after `replicas: 3 → 4` as after a pod of four crashed, and MariaDB,
 * InnoDB Cluster and Redis carry no observedGeneration. Where the operator does say (ECK's
 * ApplyingChanges, generation behind observedGeneration, MariaDB's Updating reasons) the phase
 * table already decided. This fills the rest from what the watch showed: an instance that was
 * Ready, whose spec then changed, is Updating (not Degraded) until it is Ready again; one we saw
 * created is Provisioning (not Degraded) until it was Ready once.
 *
 * What one process saw is not enough behind a Service with two replicas, nor after a restart:
 * the spec that was last Ready is also kept in the cluster, as the annotation
 * `dbaas.platform.dev/ready-spec` the apiserver writes on the operator object (ReadySpecRecorder),
 * and an object created through this API is in its first creation until that annotation exists.
 * Both survive a restart and read the same on every replica ({@link StoredRollout}).
 */
export interface RolloutMemory {
  uid: string;
  /** We saw the object before the operator acted on it (no status). */
  bornWatched: boolean;
  everReady: boolean;
  /** Signature of the spec the last time the instance was Ready. */
  settledSpec?: string;
}

/** What the cluster itself keeps of an instance's past: the same on every replica. */
export interface StoredRollout {
  /** The rollout signature recorded when an apiserver last saw the instance Ready. */
  readySpec?: string;
  /** The operator object was created through this API (our managed-by label). */
  createdHere: boolean;
}

/** The stored part of the memory, read off the operator object. */
export function storedRollout(source: KubeObject): StoredRollout {
  const readySpec = source.metadata?.annotations?.[ANNOTATION_READY_SPEC];
  return {
    ...(readySpec ? { readySpec } : {}),
    createdHere:
      source.metadata?.labels?.[LABEL_MANAGED_BY] === MANAGED_BY_VALUE,
  };
}

/**
 * Verdicts derived from counts ("not every member is serving yet"), which a rollout or a first
 * creation explains. Not in it: whatever the operator itself says, an explicit change in
 * progress (a data migration, a switchover: Updating from the phase table) or a health warning
 * on a cluster it reports reconciled (Elasticsearch yellow): memory never overrides those.
 */
const ROLLOUT_EXPLAINS = new Set([
  'ReplicasNotReady',
  'NotReady',
  'OnlinePartial',
  'GenerationNotObserved',
]);

/** The parts of a spec whose change the operator has to roll out. */
export function rolloutSignature(instance: DatabaseInstance): string {
  return specSignature(instance.spec);
}

/** {@link rolloutSignature} of a spec as an adapter reads it back. */
export function specSignature(
  spec: Pick<
    DatabaseInstance['spec'],
    'replicas' | 'version' | 'storage' | 'resources' | 'topology'
  >,
): string {
  const { replicas, version, storage, resources, topology } = spec;
  // keyed, so `kubectl get -o yaml` of the operator object reads it
  return JSON.stringify({
    replicas,
    version,
    storage: storage?.size,
    resources,
    topology,
  });
}

function withVerdict(
  instance: DatabaseInstance,
  phase: DatabasePhase,
  reason: string,
): DatabaseInstance {
  const status = instance.status!;
  const ready = status.conditions?.map(c =>
    c.type === READY_CONDITION ? { ...c, reason } : c,
  );
  return {
    ...instance,
    status: {
      ...status,
      phase,
      reason,
      // the new phase's kstatus condition (Degraded had none; Updating, Provisioning: Reconciling)
      conditions:
        ready &&
        withKstatusCondition(
          ready,
          { phase, reason, message: status.message },
          status.conditions?.find(c => c.type === READY_CONDITION)
            ?.observedGeneration,
        ),
    },
  };
}

/**
 * Adjusts a fresh projection with what was seen before, and returns the memory to keep.
 * Pure: the cache holds the memory per source object.
 */
export function applyRolloutMemory(
  previous: RolloutMemory | undefined,
  instance: DatabaseInstance,
  stored: StoredRollout = { createdHere: false },
): { instance: DatabaseInstance; memory: RolloutMemory } {
  const uid = instance.metadata.uid ?? '';
  const status = instance.status;
  const known = previous?.uid === uid ? previous : undefined;
  if (!status || status.phase === 'Pending') {
    return {
      instance,
      memory: known ?? { uid, bornWatched: true, everReady: false },
    };
  }
  const kept: RolloutMemory = known ?? {
    uid,
    bornWatched: false,
    everReady: false,
  };
  const signature = rolloutSignature(instance);
  if (status.phase === 'Ready') {
    return {
      instance,
      memory: { ...kept, everReady: true, settledSpec: signature },
    };
  }
  // This replica's own view is at least as recent as the stored one (it saw every Ready the
  // recorder wrote); the stored one stands in for what a new or restarted replica missed.
  const memory: RolloutMemory = {
    ...kept,
    bornWatched:
      kept.bornWatched ||
      (stored.createdHere && stored.readySpec === undefined),
    everReady: kept.everReady || stored.readySpec !== undefined,
    ...((kept.settledSpec ?? stored.readySpec)
      ? { settledSpec: kept.settledSpec ?? stored.readySpec }
      : {}),
  };
  if (memory.everReady && status.phase === 'Provisioning') {
    // Provisioning is the first creation only: once Ready, the operator's "initializing" is a
    // rollout (a Redis Cluster re-bootstrapping its pods during an upgrade).
    return {
      instance: withVerdict(
        instance,
        'Updating',
        status.reason ?? 'RollingOut',
      ),
      memory,
    };
  }
  const explained = ROLLOUT_EXPLAINS.has(status.reason ?? '');
  if (
    memory.everReady &&
    memory.settledSpec !== undefined &&
    memory.settledSpec !== signature &&
    status.phase === 'Degraded' &&
    explained
  ) {
    return {
      instance: withVerdict(instance, 'Updating', 'RollingOut'),
      memory,
    };
  }
  // Updating without a Ready seen comes from the operator's own word (a change in progress, a
  // version behind, evidence it ran): it stands.
  if (
    !memory.everReady &&
    memory.bornWatched &&
    status.phase === 'Degraded' &&
    explained
  ) {
    return {
      instance: withVerdict(
        instance,
        'Provisioning',
        status.reason ?? 'Provisioning',
      ),
      memory,
    };
  }
  return { instance, memory };
}
