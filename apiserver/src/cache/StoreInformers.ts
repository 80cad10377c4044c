import type {
  KubeObject,
  OperatorAdapter,
  ResourceType,
  SourceKind,
} from '../adapters/types';
import { resourceName } from '../kube/resourcePath';
import { ManagedInformer, type InformerBackoff } from './ManagedInformer';
import { CRD_TYPE, crdServesKind } from './crdServesKind';
import { expandingFactory } from './expandingInformer';
import type { InformerFactory } from './ResourceInformer';
import { rvToBigInt } from './resourceVersion';
import type { SourceEntry } from './SourceEntries';
import { objectKey, typeKey } from './storeKeys';

/** The informer of one served operator kind, with the adapter that projects its objects. */
export interface SourceInformer {
  managed: ManagedInformer;
  adapter: OperatorAdapter;
  kind: SourceKind;
}

/** What {@link StoreInformers} tells the store. */
export interface StoreInformersHooks {
  /** An object of a served operator kind changed; `key` is its object key. */
  sourceChanged(key: string, obj: KubeObject, deleted: boolean): void;
  /** A related object (e.g. a StatefulSet) changed; `key` is its object key. */
  relatedChanged(key: string, obj: KubeObject, deleted: boolean): void;
  /** `kind` is no longer served by `crd`: its informer has been stopped and dropped. */
  kindDropped(kind: SourceKind, informer: ManagedInformer, crd: KubeObject): void;
  /** An informer completed a list, at `resourceVersion`. */
  listed(resourceVersion: string | undefined): void;
  /** A watch bookmark moved an informer's progress. */
  progress(): void;
  healthChanged(informer: ManagedInformer, failing: boolean): void;
}

export interface StoreInformersOptions {
  adapters: readonly OperatorAdapter[];
  factory: InformerFactory;
  backoff: InformerBackoff;
  logger?: {
    info(msg: string, meta?: object): void;
    warn(msg: string, meta?: object): void;
  };
  hooks: StoreInformersHooks;
}

/**
 * The store's informers: one over CRDs, one per related type (e.g. apps/v1 StatefulSets) and
 * one per installed operator kind, which the CRD informer starts and stops as CRDs appear and
 * disappear. Changes go to the store's hooks as object keys; the objects stay in the informers'
 * caches, read back through {@link relatedObject} and {@link source}.
 */
export class StoreInformers {
  readonly crd: ManagedInformer;
  private readonly related = new Map<string, ManagedInformer>();
  private readonly sources = new Map<string, SourceInformer>();
  /**
   * Related types an operator's CRD defines (mariadb-operator's Restores), by CRD name: their
   * informers run only while the CRD serves them, as the operator kinds' do, so a cluster
   * without that operator is not an informer that never lists.
   */
  private readonly relatedByCrd = new Map<string, ResourceType>();
  /** CRD name (`plural.group`) → operator kinds it defines. */
  private readonly kindsByCrd = new Map<
    string,
    Array<{ adapter: OperatorAdapter; kind: SourceKind }>
  >();
  private started = false;

  constructor(private readonly options: StoreInformersOptions) {
    const { hooks } = options;
    // a type that is a source kind and a related type at once (batch/v1 Jobs: runs of a schedule,
    // and what a one-off run is decided from) is watched once, by its source informer
    const sourceTypes = new Set(options.adapters.flatMap(a => a.kinds.map(k => typeKey(k))));
    for (const adapter of options.adapters) {
      for (const kind of adapter.kinds) {
        // Kubernetes' own kinds are always served: watched from the start, not after a CRD
        if (!definedByCrd(kind)) {
          if (!this.sources.has(typeKey(kind))) this.sources.set(typeKey(kind), { managed: this.makeSourceInformer(kind), adapter, kind });
          continue;
        }
        const list = this.kindsByCrd.get(resourceName(kind)) ?? [];
        list.push({ adapter, kind });
        this.kindsByCrd.set(resourceName(kind), list);
      }
      for (const type of adapter.relatedTypes) {
        if (sourceTypes.has(typeKey(type))) continue;
        if (definedByCrd(type)) this.relatedByCrd.set(resourceName(type), type);
        else if (!this.related.has(typeKey(type))) {
          this.related.set(typeKey(type), this.makeRelatedInformer(type));
        }
      }
    }
    this.crd = new ManagedInformer({
      type: CRD_TYPE,
      factory: options.factory,
      backoff: options.backoff,
      logger: options.logger,
      onAdd: crd => this.crdChanged(crd, false),
      onUpdate: crd => this.crdChanged(crd, false),
      onDelete: crd => this.crdChanged(crd, true),
      onListed: rv => hooks.listed(rv),
      onProgress: () => hooks.progress(),
      onHealthChange: failing => hooks.healthChanged(this.crd, failing),
    });
  }

  /** Starts the CRD and related informers; operator informers follow their CRDs. */
  start(): void {
    if (this.started) {
      return;
    }
    this.started = true;
    this.crd.start();
    for (const informer of this.related.values()) {
      informer.start();
    }
    for (const { managed, kind } of this.sources.values()) {
      if (!definedByCrd(kind)) managed.start();
    }
  }

  stop(): void {
    this.started = false;
    this.crd.stop();
    for (const informer of this.related.values()) {
      informer.stop();
    }
    for (const [type, { managed, kind }] of this.sources) {
      managed.stop();
      // a CRD's kinds are watched again once the CRD informer sees it; Kubernetes' own stay
      if (definedByCrd(kind)) this.sources.delete(type);
    }
  }

  all(): ManagedInformer[] {
    return [
      this.crd,
      ...this.related.values(),
      ...[...this.sources.values()].map(s => s.managed),
    ];
  }

  /** Human-readable problems of the informers, empty when healthy. */
  problems(): string[] {
    return this.all()
      .map(i => i.problem())
      .filter((p): p is string => !!p);
  }

  /** How many watches of the Kubernetes API are failing, out of how many, and since when. */
  watchHealth(): { failing: number; total: number; since?: number } {
    const informers = this.all();
    const since = informers
      .map(i => i.failingSinceMs())
      .filter((t): t is number => t !== undefined);
    return {
      failing: since.length,
      total: informers.length,
      ...(since.length ? { since: Math.min(...since) } : {}),
    };
  }

  /** True once every running informer has completed a list. */
  allListed(): boolean {
    return this.all().every(i => i.hasListed());
  }

  /** The RV up to which every running informer has delivered every change ("0" if one has not listed). */
  minProgress(): string {
    let min: bigint | undefined;
    for (const informer of this.all()) {
      const p = rvToBigInt(informer.progress());
      if (min === undefined || p < min) {
        min = p;
      }
    }
    return (min ?? 0n).toString();
  }

  /** The informer of a served operator kind, by its type key (`plural.group`). */
  source(type: string): SourceInformer | undefined {
    return this.sources.get(type);
  }

  /** A related object: from its type's informer, or that of the source kind of the same type. */
  relatedObject(type: string, name: string, namespace: string | undefined): KubeObject | undefined {
    return this.informerOfType(type)?.informer.get(name, namespace);
  }

  private informerOfType(type: string): ManagedInformer | undefined {
    return this.related.get(type) ?? this.sources.get(type)?.managed;
  }

  isInstalled(kind: SourceKind): boolean {
    return this.sources.has(typeKey(kind));
  }

  crdCreated(kind: SourceKind): string | undefined {
    return this.crd.informer.get(resourceName(kind))?.metadata?.creationTimestamp;
  }

  /** The informers an instance is built from: the CRDs, its kind's and its related types'. */
  of(entry: SourceEntry): Array<ManagedInformer | undefined> {
    return [
      this.crd,
      this.sources.get(typeKey(entry.kind))?.managed,
      ...entry.adapter.relatedTypes.map(t => this.informerOfType(typeKey(t))),
    ];
  }

  /** The keys of those of `entries` whose instances are built from what `informer` watches. */
  builtFrom(informer: ManagedInformer, entries: Iterable<SourceEntry>): string[] {
    if (informer === this.crd) {
      return [...entries].map(e => e.key);
    }
    return [...entries]
      .filter(
        e =>
          this.sources.get(typeKey(e.kind))?.managed === informer ||
          e.adapter.relatedTypes.some(t => this.informerOfType(typeKey(t)) === informer),
      )
      .map(e => e.key);
  }

  private makeRelatedInformer(type: ResourceType): ManagedInformer {
    return this.makeInformer(type, (key, obj, deleted) => this.options.hooks.relatedChanged(key, obj, deleted));
  }

  private makeSourceInformer(kind: SourceKind): ManagedInformer {
    const factory = kind.expand ? expandingFactory(this.options.factory, o => kind.expand!(o)) : this.options.factory;
    return this.makeInformer(kind, (key, obj, gone) => this.options.hooks.sourceChanged(key, obj, gone), factory);
  }

  /** An informer of `type` telling `changed` each object's key, and the store its progress. */
  private makeInformer(
    type: ResourceType,
    changed: (key: string, obj: KubeObject, deleted: boolean) => void,
    factory = this.options.factory,
  ): ManagedInformer {
    const { hooks } = this.options;
    const report = (obj: KubeObject, deleted = false) =>
      changed(objectKey(type, obj.metadata?.namespace ?? '', obj.metadata?.name ?? ''), obj, deleted);
    const managed: ManagedInformer = new ManagedInformer({
      type,
      factory,
      backoff: this.options.backoff,
      logger: this.options.logger,
      onAdd: obj => report(obj),
      onUpdate: obj => report(obj),
      onDelete: obj => report(obj, true),
      onListed: rv => hooks.listed(rv),
      onProgress: () => hooks.progress(),
      onHealthChange: failing => hooks.healthChanged(managed, failing),
    });
    return managed;
  }

  private crdChanged(crd: KubeObject, deleted: boolean): void {
    this.relatedCrdChanged(crd, deleted);
    const kinds = this.kindsByCrd.get(crd.metadata?.name ?? '');
    for (const { adapter, kind } of kinds ?? []) {
      const serves = !deleted && crdServesKind(crd, kind);
      const running = this.sources.get(typeKey(kind));
      if (serves && !running) {
        this.options.logger?.info('Operator kind installed, watching it', {
          kind: resourceName(kind),
        });
        const managed = this.makeSourceInformer(kind);
        this.sources.set(typeKey(kind), { managed, adapter, kind });
        if (this.started) {
          managed.start();
        }
      } else if (!serves && running) {
        this.options.logger?.info(
          'Operator kind no longer served, dropping it',
          { kind: resourceName(kind) },
        );
        running.managed.stop();
        this.sources.delete(typeKey(kind));
        this.options.hooks.kindDropped(kind, running.managed, crd);
      }
    }
  }

  /** Starts or stops the informer of a CRD-defined related type as its CRD comes and goes. */
  private relatedCrdChanged(crd: KubeObject, deleted: boolean): void {
    const type = this.relatedByCrd.get(crd.metadata?.name ?? '');
    if (!type) return;
    const serves = !deleted && crdServesKind(crd, type);
    const running = this.related.get(typeKey(type));
    if (serves && !running) {
      const managed = this.makeRelatedInformer(type);
      this.related.set(typeKey(type), managed);
      if (this.started) managed.start();
    } else if (!serves && running) {
      running.stop();
      this.related.delete(typeKey(type));
    }
  }
}

/**
 * Kubernetes' own API groups are one word (`apps`, `batch`, core's empty one) or end in
 * `.k8s.io`; any other group is an extension's, served through a CRD that may not be installed.
 */
export function definedByCrd(type: ResourceType): boolean {
  return type.group.includes('.') && !type.group.endsWith('.k8s.io');
}
