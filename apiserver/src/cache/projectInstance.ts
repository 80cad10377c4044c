import { createHash } from 'node:crypto';
import type { Condition, DatabaseInstance } from '@internal/plugin-databases-common';
import type { KubeObject, RelatedLookup } from '../adapters/types';
import {
  applyRolloutMemory,
  storedRollout,
  type RolloutMemory,
} from '../status/rolloutMemory';
import { withBackupTimes, type InstanceBackups } from '../backups/withBackupTimes';
import { fallbackInstance } from './fallbackInstance';
import { nameConflictCondition, type NameClaim } from './servedNames';
import type { SourceEntry } from './SourceEntries';
import { staleCondition } from './staleCondition';

/** What {@link projectInstance} builds an instance from. */
export interface ProjectionInput {
  entry: SourceEntry;
  /** The source object, as of the change being applied. */
  source: KubeObject;
  related: RelatedLookup;
  /** What this replica saw of the source object's rollouts so far. */
  memory: RolloutMemory | undefined;
  /** The name it is served under (qualified when its name is shared, see servedNames). */
  servedName: string;
  /** Every claim of its name group, and since when they conflict, when there is more than one. */
  conflict?: { claims: NameClaim[]; since: string };
  /** Since when a watch it is built from has been failing, when it is Stale. */
  staleSince?: number;
  /** Its served backup runs and schedules (the apiserver's backup stores), for `status.backup`'s times. */
  backups?: InstanceBackups;
}

/** An instance as it would be served, without its resourceVersion. */
export interface Projection {
  projected: DatabaseInstance;
  /** Digest of the projection without resourceVersion, to tell real changes from re-deliveries. */
  fingerprint: string;
  /** The source's ready-spec annotation it was built with (see ReadySpecRecorder). */
  readySpec?: string;
  /** The source object's resourceVersion it was built from. */
  sourceRv?: string;
  /** The rollout memory to keep; undefined when the adapter failed (nothing new was seen). */
  memory?: RolloutMemory;
}

/**
 * The DatabaseInstance served for one source object: the adapter's projection with the
 * rollout memory applied, under its served name, with the Stale and NameConflict conditions
 * it carries. An adapter that throws gives the fallback instance instead. Pure.
 */
export function projectInstance(input: ProjectionInput): Projection {
  const { entry, source } = input;
  const stored = storedRollout(source);
  let instance: DatabaseInstance;
  let memory: RolloutMemory | undefined;
  try {
    instance = entry.adapter.project(source, entry.kind, input.related);
    const remembered = applyRolloutMemory(input.memory, instance, stored);
    memory = remembered.memory;
    instance = withBackupTimes(remembered.instance, input.backups);
  } catch (err) {
    instance = fallbackInstance(entry, source, err);
  }
  const served = asServed(instance, input);
  return { ...served, readySpec: stored.readySpec, ...(memory && { memory }) };
}

/** An object with the status parts every projection of the store may carry. */
export interface ServedShape {
  metadata: DatabaseInstance['metadata'];
  status?: { conditions?: Condition[] };
}

/**
 * `projected` as the store serves it: under its served name, without a resourceVersion, with
 * the Stale and NameConflict conditions it carries, and its fingerprint. Pure; shared by every
 * kind the store projects (instances, backup runs).
 */
export function asServed<T extends ServedShape>(
  projected: T,
  input: Pick<ProjectionInput, 'entry' | 'source' | 'servedName' | 'conflict' | 'staleSince'>,
): { projected: T; fingerprint: string; sourceRv?: string } {
  const { entry, source, servedName, conflict, staleSince } = input;
  // not `delete metadata.resourceVersion`: deleting a property other than the last one gives
  // the object a dictionary of its own, for every served object
  const { resourceVersion: _fromSource, ...kept } = projected.metadata;
  const metadata = { ...kept, name: servedName, namespace: entry.namespace };
  let status = projected.status;
  if (staleSince !== undefined && status) {
    status = {
      ...status,
      conditions: [...(status.conditions ?? []), staleCondition(staleSince)],
    };
  }
  if (conflict && status) {
    const claim = conflict.claims.find(c => c.key === entry.key)!;
    const condition = nameConflictCondition(
      claim,
      conflict.claims,
      entry.namespace,
      servedName,
      conflict.since,
    );
    status = {
      ...status,
      conditions: [...(status.conditions ?? []), condition],
    };
  }
  const served: T = {
    ...projected,
    metadata,
    ...(status ? { status } : {}),
  };
  // A digest, not the JSON itself: kept for every instance, the JSON was a tenth of the
  // apiserver's memory at 50,000 instances.
  const fingerprint = createHash('sha1').update(JSON.stringify(served)).digest('base64');
  return { projected: served, fingerprint, sourceRv: source.metadata?.resourceVersion };
}

/**
 * How `object`, a would-be version of the source object `current`, would be served as
 * `namespace/name` (see InstanceStore.preview): projected with the related objects and rollout
 * memory the instance has now. Pure; throws what the adapter throws.
 */
export function previewInstance(input: {
  entry: Pick<SourceEntry, 'adapter' | 'kind'>;
  current: KubeObject | undefined;
  object: KubeObject;
  related: RelatedLookup;
  memory: RolloutMemory | undefined;
  namespace: string;
  name: string;
  backups?: InstanceBackups;
}): DatabaseInstance {
  const { entry, current, object, namespace, name } = input;
  // a spec change bumps metadata.generation, which operators then report not yet observed
  const generation = current?.metadata?.generation;
  const next =
    typeof generation === 'number' && JSON.stringify(current?.spec) !== JSON.stringify(object.spec)
      ? { ...object, metadata: { ...object.metadata, generation: generation + 1 } }
      : object;
  const projected = entry.adapter.project(next, entry.kind, input.related);
  const { instance } = applyRolloutMemory(input.memory, projected, storedRollout(next));
  const timed = withBackupTimes(instance, input.backups);
  return { ...timed, metadata: { ...timed.metadata, name, namespace } };
}
