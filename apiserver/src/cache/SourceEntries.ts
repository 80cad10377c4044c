import type { OperatorAdapter, RelatedLookup, SourceKind } from '../adapters/types';
import type { RolloutMemory } from '../status/rolloutMemory';
import type { SourceObject } from './SourceObjects';
import { KeyIndex } from './KeyIndex';
import { claimKey, objectKey } from './storeKeys';

/** One operator object the store serves an instance for, and what it is built from. */
export interface SourceEntry {
  key: string;
  adapter: OperatorAdapter;
  kind: SourceKind;
  namespace: string;
  name: string;
  relatedKeys: string[];
}

/**
 * The source objects the store knows, with the indexes a change is followed through: from a
 * related object to the source objects built from it, and from a `namespace/name` to the
 * source objects claiming it (their name group, served together, see servedNames). Pure state.
 */
export class SourceEntries {
  private readonly entries = new Map<string, SourceEntry>();
  /** Per source object: what this replica saw of its rollouts (see applyRolloutMemory). */
  private readonly rollouts = new Map<string, RolloutMemory>();
  /** Name group (`namespace/name`) → keys of the source objects claiming it. */
  private readonly nameClaims = new KeyIndex();
  /** Related object key → keys of the source objects built from it (or asking whether they are served). */
  private readonly reverse = new KeyIndex();
  /**
   * Per object its adapter does not serve now: the related objects `serves` may have read, so
   * that a change of one of them asks again (a Job seen before the Backup that makes it a run).
   */
  private readonly unserved = new Map<string, string[]>();

  get(key: string): SourceEntry | undefined {
    return this.entries.get(key);
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }

  values(): IterableIterator<SourceEntry> {
    return this.entries.values();
  }

  /** Keys of the source objects of one type (`plural.group`, see typeKey). */
  keysOfType(type: string): string[] {
    const prefix = `${type}|`;
    return this.keys().filter(k => k.startsWith(prefix));
  }

  /** Keys of the source objects built from the related object `relatedKey`. */
  dependents(relatedKey: string): string[] {
    return this.reverse.get(relatedKey);
  }

  /** Keys of the source objects claiming `namespace/name`. */
  claimKeys(group: string): string[] {
    return this.nameClaims.get(group);
  }

  /** The entries claiming `namespace/name`. */
  claimants(group: string): SourceEntry[] {
    return this.claimKeys(group).map(k => this.entries.get(k)!);
  }

  rollout(key: string): RolloutMemory | undefined {
    return this.rollouts.get(key);
  }

  rememberRollout(key: string, memory: RolloutMemory): void {
    this.rollouts.set(key, memory);
  }

  /**
   * Follows one source object to its state read now (no `obj`: it is gone, or its kind no longer
   * served); returns its name group, to be recomputed, undefined when there is none.
   */
  reconcile(
    key: string,
    { informer, obj, ns, name }: SourceObject,
    related: RelatedLookup,
    logger?: { warn(msg: string, meta?: object): void },
  ): string | undefined {
    if (!informer || !obj) {
      this.forgetUnserved(key);
      return this.delete(key);
    }
    let relatedKeys: string[] = [];
    try {
      relatedKeys = informer.adapter
        .relatedRefs(obj, informer.kind)
        .map(r => objectKey(r.type, r.namespace, r.name));
    } catch (err) {
      logger?.warn('Adapter relatedRefs failed', {
        source: key,
        error: String(err),
      });
    }
    // an object its adapter does not serve (serves) is as good as absent: one that stops being
    // served (a mariadb Backup given a schedule) is DELETED here and ADDED where it now belongs
    if (informer.adapter.serves?.(obj, informer.kind, related) === false) {
      const group = this.delete(key);
      this.forgetUnserved(key);
      if (relatedKeys.length) {
        this.unserved.set(key, relatedKeys);
        for (const rel of relatedKeys) this.reverse.add(rel, key);
      }
      return group;
    }
    this.forgetUnserved(key);
    return this.set({
      key,
      adapter: informer.adapter,
      kind: informer.kind,
      namespace: ns,
      name,
      relatedKeys,
    });
  }

  /** Records (or replaces) an entry; returns its name group. */
  private set(entry: SourceEntry): string {
    this.unlinkRelated(entry.key);
    for (const rel of entry.relatedKeys) {
      this.reverse.add(rel, entry.key);
    }
    this.entries.set(entry.key, entry);
    const group = claimKey(entry.namespace, entry.name);
    this.nameClaims.add(group, entry.key);
    return group;
  }

  /** Forgets a source object that is gone; returns its name group, undefined if it was unknown. */
  private delete(key: string): string | undefined {
    const old = this.entries.get(key);
    if (!old) {
      return undefined;
    }
    this.unlinkRelated(key);
    this.entries.delete(key);
    this.rollouts.delete(key);
    const group = claimKey(old.namespace, old.name);
    this.nameClaims.remove(group, key);
    return group;
  }

  private forgetUnserved(key: string): void {
    for (const rel of this.unserved.get(key) ?? []) this.reverse.remove(rel, key);
    this.unserved.delete(key);
  }

  private unlinkRelated(key: string): void {
    for (const rel of this.entries.get(key)?.relatedKeys ?? []) {
      this.reverse.remove(rel, key);
    }
  }
}
