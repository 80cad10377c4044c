import type { PendingChange } from './LateChanges';
import type { ManagedInformer } from './ManagedInformer';
import type { InstanceBackups } from '../backups/withBackupTimes';
import { projectInstance, type Projection, type ProjectionInput } from './projectInstance';
import { maxResourceVersion } from './resourceVersion';
import type { NameClaim } from './servedNames';
import type { GroupProjection, ServedInstances } from './ServedInstances';
import type { SourceEntries, SourceEntry } from './SourceEntries';
import type { SourceObjects } from './SourceObjects';
import { STALE_CONDITION } from './staleCondition';
import type { StaleTracker } from './StaleTracker';
import type { InstanceEvent } from './types';

/** What {@link BatchProjector} works on: the store's state, and where its RV moves. */
export interface BatchProjectorParts {
  sources: SourceEntries;
  objects: SourceObjects;
  served: ServedInstances;
  staleness: Pick<StaleTracker, 'any' | 'sinceFor' | 'servedStale'>;
  /** The informers an instance of `entry` is built from (see StoreInformers.of). */
  informersOf(entry: SourceEntry): ReadonlyArray<ManagedInformer | undefined>;
  /** Moves the store's RV to `rv` if newer; returns the RV now (see EventFeed.advance). */
  advance(rv: string): string;
  logger?: { warn(msg: string, meta?: object): void };
  /** How one source object is served (default: as a DatabaseInstance, projectInstance). */
  project?: (input: ProjectionInput) => Projection;
  /** The served backups and schedules of the instance of an operator object (see InformerInstanceStoreOptions). */
  backupsOf?: (namespace: string, name: string) => InstanceBackups | undefined;
}

/**
 * Applies a batch of changes, sorted in resourceVersion order: each change is followed to the
 * source objects it touches, and their name groups are re-projected as of that change (see
 * SourceObjects). No I/O: the objects are read from the informers' caches.
 */
export class BatchProjector {
  constructor(private readonly parts: BatchProjectorParts) {}

  /** The events of the batch, in the order they happened (not yet coalesced, see coalesceByRv). */
  apply(batch: readonly PendingChange[]): InstanceEvent[] {
    const { sources, objects } = this.parts;
    const events: InstanceEvent[] = [];
    objects.begin(batch);
    for (const change of batch) {
      objects.at(change);
      const groups = new Set<string>();
      for (const key of change.sourceKeys) {
        const group = sources.reconcile(key, objects.source(key), objects.lookup(), this.parts.logger);
        if (group) {
          groups.add(group);
        }
      }
      for (const group of groups) {
        events.push(...this.recomputeGroup(group, change.rv));
      }
    }
    objects.end();
    return events;
  }

  private recomputeGroup(group: string, triggerRv: string): InstanceEvent[] {
    const { sources, objects, served, staleness } = this.parts;
    const events = served.recompute(group, sources.claimants(group), {
      project: (entry, servedName, conflict) => this.project(entry, servedName, conflict),
      uidOf: key => objects.source(key).obj?.metadata?.uid,
      eventRv: baseRv => this.parts.advance(maxResourceVersion(baseRv, triggerRv)),
    });
    // a recovered watch's instances drop the condition only at a newer RV (see StaleTracker)
    if (staleness.any()) {
      for (const e of events) {
        if (e.type !== 'DELETED' && e.object.status?.conditions?.some(c => c.type === STALE_CONDITION)) {
          staleness.servedStale(e.resourceVersion);
        }
      }
    }
    return events;
  }

  private project(
    entry: SourceEntry,
    servedName: string,
    conflict: { claims: NameClaim[]; since: string } | undefined,
  ): GroupProjection {
    const { sources, objects, staleness } = this.parts;
    const source = objects.source(entry.key).obj!;
    const backups = this.parts.backupsOf?.(source.metadata?.namespace ?? '', source.metadata?.name ?? '');
    const { memory, ...projection } = (this.parts.project ?? projectInstance)({
      entry,
      source,
      related: objects.lookup(),
      memory: sources.rollout(entry.key),
      servedName,
      conflict,
      staleSince: staleness.any() ? staleness.sinceFor(this.parts.informersOf(entry)) : undefined,
      backups,
    });
    if (memory) sources.rememberRollout(entry.key, memory);
    return { ...projection, baseRv: maxResourceVersion(objects.baseRv(entry, source), backups?.rv) };
  }
}
