import type { KubeObject, RelatedLookup } from '../adapters/types';
import type { PendingChange } from './LateChanges';
import { maxResourceVersion } from './resourceVersion';
import type { SourceEntry } from './SourceEntries';
import type { SourceInformer } from './StoreInformers';
import { objectKey, splitOnce } from './storeKeys';

/** Where {@link SourceObjects} reads the newest state of an object: the informers' caches. */
export interface ObjectCaches {
  /** The informer of a source type (`plural.group`), if that kind is served. */
  source(type: string): SourceInformer | undefined;
  /** The newest state of a related object, if its type is watched and the object exists. */
  related(type: string, name: string, namespace: string | undefined): KubeObject | undefined;
}

/** A source object, by its key, and the informer it comes from. */
export interface SourceObject {
  informer?: SourceInformer;
  obj?: KubeObject;
  ns: string;
  name: string;
}

const snapshotKey = (c: PendingChange) => c.snapshot && (c.snapshot.key || c.sourceKeys[0]);

/**
 * The source and related objects instances are built from, as of the change being applied.
 * Outside a batch every read is the informers' newest state; while a batch is applied
 * (`begin`, then `at` each change in turn, then `end`), reads follow the batch's snapshots.
 */
export class SourceObjects {
  /** While a batch is applied: the object as the change being applied delivered it. */
  private asOf: { key: string; obj: KubeObject | undefined } | undefined;
  /**
   * While a batch is applied: per object with changes still to come, its state as of the last
   * of its changes applied. Informers hold the newest state already; read before its turn, it
   * would show a later state at an earlier RV and hide the states in between.
   */
  private appliedSoFar: Map<string, KubeObject | undefined> | undefined;
  /**
   * While a batch is applied: per object, how many of its changes are still to be applied.
   * A projection reads every other object as it is now; the RV of one whose changes are still
   * to come belongs to those changes' events, not to this one.
   */
  private stillToCome: Map<string, number> | undefined;

  constructor(private readonly caches: ObjectCaches) {}

  /** A batch, sorted in the order it is applied, starts being applied. */
  begin(batch: readonly PendingChange[]): void {
    this.stillToCome = new Map();
    for (const c of batch) {
      const key = snapshotKey(c);
      if (key) this.stillToCome.set(key, (this.stillToCome.get(key) ?? 0) + 1);
    }
    this.appliedSoFar = new Map();
  }

  /** `change`, the next of the batch, is being applied. */
  at(change: PendingChange): void {
    const asOfKey = snapshotKey(change);
    if (asOfKey) {
      this.stillToCome!.set(asOfKey, this.stillToCome!.get(asOfKey)! - 1);
      this.appliedSoFar!.set(asOfKey, change.snapshot!.obj);
    }
    this.asOf = asOfKey === undefined ? undefined : { key: asOfKey, obj: change.snapshot!.obj };
  }

  /** The batch has been applied: reads are the newest state again. */
  end(): void {
    this.asOf = undefined;
    this.stillToCome = undefined;
    this.appliedSoFar = undefined;
  }

  /**
   * The largest RV among the objects an instance of `entry` is built from (`source` being its
   * source object as of now), of those whose state read now is their current one: each state
   * at an RV of its own, the current one last (see stillToCome).
   */
  baseRv(entry: Pick<SourceEntry, 'key' | 'relatedKeys'>, source: KubeObject): string {
    const current = (k: string) => this.asOf?.key === k || !this.stillToCome?.get(k);
    const relatedRvs = entry.relatedKeys
      .filter(current)
      .map(k => this.related(k)?.metadata?.resourceVersion);
    return maxResourceVersion(
      current(entry.key) ? source.metadata?.resourceVersion : undefined,
      ...relatedRvs,
    );
  }

  source(key: string): SourceObject {
    const [type, ref] = splitOnce(key, '|');
    const [ns, name] = splitOnce(ref, '/');
    const informer = this.caches.source(type);
    return {
      informer,
      obj: informer && this.stateAsOf(key, () => informer.managed.informer.get(name, ns || undefined)),
      ns,
      name,
    };
  }

  /** A related object as of the change being applied (see `asOf`), else the newest. */
  related(key: string): KubeObject | undefined {
    return this.stateAsOf(key, () => {
      const [type, ref] = splitOnce(key, '|');
      const [ns, name] = splitOnce(ref, '/');
      return this.caches.related(type, name, ns || undefined);
    });
  }

  /** What adapters read related objects through. */
  lookup(): RelatedLookup {
    return {
      get: ref => this.related(objectKey(ref.type, ref.namespace, ref.name)),
    };
  }

  /**
   * An object as of the change being applied: its state in that change, else (with changes of
   * its own still to come in the batch) as its last change applied left it, else the newest.
   */
  private stateAsOf(key: string, newest: () => KubeObject | undefined): KubeObject | undefined {
    if (this.asOf?.key === key) return this.asOf.obj;
    if (this.stillToCome?.get(key) && this.appliedSoFar?.has(key)) return this.appliedSoFar.get(key);
    return newest();
  }
}
