import {
  DATABASE_ENGINE_KIND,
  DATABASES_GROUP_VERSION,
  type DatabaseEngine,
  type DatabaseInstance,
  type DatabasePhase,
} from '@internal/plugin-databases-common';
import type {
  KubeObject,
  OperatorAdapter,
  RelatedLookup,
  ResourceType,
  SourceKind,
} from '../adapters/types';
import { resourceName } from '../kube/resourcePath';
import { EventHistory } from './EventHistory';
import { ManagedInformer, type InformerBackoff } from './ManagedInformer';
import { CRD_TYPE, crdServesKind } from './crdServesKind';
import type { InformerFactory } from './ResourceInformer';
import { isNewer, maxResourceVersion, rvToBigInt } from './resourceVersion';
import {
  nameConflictCondition,
  servedNames,
  type NameClaim,
} from './servedNames';
import type {
  InstanceEvent,
  InstanceSource,
  InstanceStore,
  WatchSubscription,
} from './types';

export interface InformerInstanceStoreOptions {
  adapters: readonly OperatorAdapter[];
  informerFactory: InformerFactory;
  /** Watch history bounds (contract §7.4 asks for at least 5 minutes). */
  historyMaxEvents?: number;
  historyMaxAgeSeconds?: number;
  /**
   * Changes arriving within this window are applied together, in resourceVersion order
   * (informers of different types deliver independently, so their events interleave).
   */
  batchWindowMs?: number;
  restartBackoff?: InformerBackoff;
  now?: () => number;
  logger?: {
    info(msg: string, meta?: object): void;
    warn(msg: string, meta?: object): void;
  };
}

const typeKey = (t: Pick<ResourceType, 'group' | 'plural'>) => resourceName(t);
const objectKey = (
  t: Pick<ResourceType, 'group' | 'plural'>,
  ns: string,
  name: string,
) => `${typeKey(t)}|${ns}/${name}`;
const claimKey = (ns: string, name: string) => `${ns}/${name}`;

interface SourceEntry {
  key: string;
  adapter: OperatorAdapter;
  kind: SourceKind;
  namespace: string;
  name: string;
  relatedKeys: string[];
}

interface ServedInstance {
  instance: DatabaseInstance;
  /** Projection without resourceVersion, to tell real changes from re-deliveries. */
  fingerprint: string;
  /** Largest RV among the objects it was built from. */
  baseRv: string;
  sourceKey: string;
}

interface PendingChange {
  rv: string;
  sourceKeys: string[];
}

interface SourceInformer {
  managed: ManagedInformer;
  adapter: OperatorAdapter;
  kind: SourceKind;
}

/**
 * The InstanceStore fed by client-node informers: one per installed operator kind, one per
 * related type (e.g. apps/v1 StatefulSets) and one over CRDs, which starts and stops the
 * operator informers as CRDs appear and disappear.
 *
 * resourceVersions: an instance's RV is the largest Kubernetes RV among its source object and
 * related objects, so RVs stay comparable across replicas and restarts. Events must reach
 * watchers in non-decreasing RV order although informers deliver independently: changes are
 * batched for `batchWindowMs`, applied sorted by RV, and an event whose RV would be lower than
 * one already emitted (a change that arrived later than the window) takes the last emitted RV
 * instead. Events of one change (e.g. a rename caused by a name collision) share its RV.
 */
export class InformerInstanceStore implements InstanceStore {
  private readonly now: () => number;
  private readonly backoff: InformerBackoff;
  private readonly batchWindowMs: number;
  private readonly history: EventHistory;
  private readonly crdInformer: ManagedInformer;
  private readonly relatedInformers = new Map<string, ManagedInformer>();
  private readonly sourceInformers = new Map<string, SourceInformer>();
  /** CRD name (`plural.group`) → operator kinds it defines. */
  private readonly kindsByCrd = new Map<
    string,
    Array<{ adapter: OperatorAdapter; kind: SourceKind }>
  >();
  private readonly entries = new Map<string, SourceEntry>();
  private readonly nameClaims = new Map<string, Set<string>>();
  private readonly reverse = new Map<string, Set<string>>();
  private readonly groupServed = new Map<string, Map<string, ServedInstance>>();
  private readonly served = new Map<string, Map<string, ServedInstance>>();
  private readonly conflictSince = new Map<string, string>();
  private readonly watchers = new Set<(e: InstanceEvent) => void>();
  private pending: PendingChange[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private lastRv = '0';
  /** Largest list resourceVersion seen: the cluster's RV when our view became complete. */
  private listedRv = '0';
  private synced = false;
  private started = false;
  private readonly syncWaiters: Array<() => void> = [];

  constructor(private readonly options: InformerInstanceStoreOptions) {
    this.now = options.now ?? Date.now;
    this.backoff = options.restartBackoff ?? { initialMs: 1000, maxMs: 30_000 };
    this.batchWindowMs = options.batchWindowMs ?? 50;
    this.history = new EventHistory(
      {
        maxEvents: options.historyMaxEvents ?? 10_000,
        maxAgeMs: (options.historyMaxAgeSeconds ?? 600) * 1000,
      },
      this.now,
    );
    for (const adapter of options.adapters) {
      for (const kind of adapter.kinds) {
        const list = this.kindsByCrd.get(resourceName(kind)) ?? [];
        list.push({ adapter, kind });
        this.kindsByCrd.set(resourceName(kind), list);
      }
      for (const type of adapter.relatedTypes) {
        if (!this.relatedInformers.has(typeKey(type))) {
          this.relatedInformers.set(
            typeKey(type),
            this.makeRelatedInformer(type),
          );
        }
      }
    }
    this.crdInformer = new ManagedInformer({
      type: CRD_TYPE,
      factory: options.informerFactory,
      backoff: this.backoff,
      logger: options.logger,
      onAdd: crd => this.crdChanged(crd, false),
      onUpdate: crd => this.crdChanged(crd, false),
      onDelete: crd => this.crdChanged(crd, true),
      onListed: rv => this.noteListed(rv),
    });
  }

  /** Starts the CRD and related informers; operator informers follow their CRDs. */
  start(): void {
    if (this.started) {
      return;
    }
    this.started = true;
    this.crdInformer.start();
    for (const informer of this.relatedInformers.values()) {
      informer.start();
    }
  }

  /** Stops every informer and timer and drops the watchers. */
  stop(): void {
    this.started = false;
    clearTimeout(this.flushTimer);
    this.crdInformer.stop();
    for (const informer of this.relatedInformers.values()) {
      informer.stop();
    }
    for (const { managed } of this.sourceInformers.values()) {
      managed.stop();
    }
    this.sourceInformers.clear();
    this.watchers.clear();
  }

  /** Resolves once `hasSynced()` is true. */
  whenSynced(): Promise<void> {
    return this.synced
      ? Promise.resolve()
      : new Promise(r => this.syncWaiters.push(r));
  }

  hasSynced(): boolean {
    return this.synced;
  }

  resourceVersion(): string {
    return this.synced ? this.lastRv : '0';
  }

  list(namespace?: string): DatabaseInstance[] {
    const byName = (a: ServedInstance, b: ServedInstance) =>
      compare(a.instance.metadata.name ?? '', b.instance.metadata.name ?? '');
    if (namespace !== undefined) {
      return [...(this.served.get(namespace)?.values() ?? [])]
        .sort(byName)
        .map(s => s.instance);
    }
    return [...this.served.keys()]
      .sort(compare)
      .flatMap(ns =>
        [...this.served.get(ns)!.values()].sort(byName).map(s => s.instance),
      );
  }

  get(namespace: string, name: string): DatabaseInstance | undefined {
    return this.served.get(namespace)?.get(name)?.instance;
  }

  source(namespace: string, name: string): InstanceSource | undefined {
    const served = this.served.get(namespace)?.get(name);
    return served ? this.sourceOfKey(served.sourceKey) : undefined;
  }

  claims(namespace: string, name: string): InstanceSource[] {
    return [...(this.nameClaims.get(claimKey(namespace, name)) ?? [])]
      .map(key => this.sourceOfKey(key))
      .filter((s): s is InstanceSource => s !== undefined);
  }

  private sourceOfKey(key: string): InstanceSource | undefined {
    const entry = this.entries.get(key);
    const object = this.sourceObject(key).obj;
    return entry && object
      ? { object, adapter: entry.adapter, kind: entry.kind }
      : undefined;
  }

  watch(
    fromResourceVersion: string | undefined,
    onEvent: (event: InstanceEvent) => void,
  ): WatchSubscription {
    const from =
      fromResourceVersion && fromResourceVersion !== '0'
        ? fromResourceVersion
        : undefined;
    const replay = from !== undefined ? this.history.since(from) : [];
    for (const event of replay) {
      onEvent(event);
    }
    // Live events are all news to this watcher, except when it resumes from an RV this
    // replica has not reached yet (it saw those changes elsewhere). Filtering by RV in the
    // other case would drop events whose RV was raised to the last emitted one.
    const floor =
      from !== undefined && isNewer(from, this.lastRv)
        ? rvToBigInt(from)
        : undefined;
    const watcher = (event: InstanceEvent) => {
      if (floor === undefined || rvToBigInt(event.resourceVersion) > floor) {
        onEvent(event);
      }
    };
    this.watchers.add(watcher);
    return { stop: () => this.watchers.delete(watcher) };
  }

  engines(): DatabaseEngine[] {
    return this.options.adapters.map(adapter => {
      const crds = adapter.kinds.map(kind => ({
        kind: kind.kind,
        group: kind.group,
        installed: this.sourceInformers.has(typeKey(kind)),
      }));
      const phases: Partial<Record<DatabasePhase, number>> = {};
      let instances = 0;
      for (const s of this.servedInstances()) {
        if (this.entries.get(s.sourceKey)?.adapter !== adapter) {
          continue;
        }
        instances++;
        const phase = s.instance.status?.phase ?? 'Unknown';
        phases[phase] = (phases[phase] ?? 0) + 1;
      }
      const write = adapter.write;
      // what a new instance can be created as; read-only adapters still list what they read
      const topologies = write
        ? [...write.topologies]
        : [...new Set(adapter.kinds.flatMap(k => k.topologies))];
      const defaultTopology = write?.defaultTopology;
      const defaults = write && defaultTopology ? write.defaults(defaultTopology) : undefined;
      return {
        apiVersion: DATABASES_GROUP_VERSION,
        kind: DATABASE_ENGINE_KIND,
        metadata: {
          name: adapter.engine,
          resourceVersion: this.resourceVersion(),
        },
        spec: {
          engine: adapter.engine,
          operator: adapter.operator,
          capabilityLevel: adapter.capabilityLevel,
          kinds: adapter.kinds.map(k => ({
            group: k.group,
            version: k.version,
            kind: k.kind,
            plural: k.plural,
            topologies: k.topologies,
          })),
          topologies,
          versions: adapter.versions,
          ...(defaults && defaultTopology
            ? {
                defaults: {
                  engine: adapter.engine,
                  topology: defaultTopology,
                  version: defaults.version,
                  replicas: defaults.replicas,
                  storage: { ...defaults.storage },
                  resources: JSON.parse(JSON.stringify(defaults.resources)),
                },
              }
            : {}),
        },
        status: {
          installed: crds.every(c => c.installed),
          crds,
          instances,
          phases,
        },
      } satisfies DatabaseEngine;
    });
  }

  problems(): string[] {
    const informers = [
      this.crdInformer,
      ...this.relatedInformers.values(),
      ...[...this.sourceInformers.values()].map(s => s.managed),
    ];
    return informers.map(i => i.problem()).filter((p): p is string => !!p);
  }

  private *servedInstances(): Iterable<ServedInstance> {
    for (const byName of this.served.values()) {
      yield* byName.values();
    }
  }

  // ---- informer plumbing -------------------------------------------------------------------

  private makeRelatedInformer(type: ResourceType): ManagedInformer {
    const changed = (obj: KubeObject) => {
      const key = objectKey(
        type,
        obj.metadata?.namespace ?? '',
        obj.metadata?.name ?? '',
      );
      const dependents = this.reverse.get(key);
      if (dependents?.size) {
        this.enqueue(obj.metadata?.resourceVersion, [...dependents]);
      }
    };
    return new ManagedInformer({
      type,
      factory: this.options.informerFactory,
      backoff: this.backoff,
      logger: this.options.logger,
      onAdd: changed,
      onUpdate: changed,
      onDelete: changed,
      onListed: rv => this.noteListed(rv),
    });
  }

  private crdChanged(crd: KubeObject, deleted: boolean): void {
    const kinds = this.kindsByCrd.get(crd.metadata?.name ?? '');
    for (const { adapter, kind } of kinds ?? []) {
      const serves = !deleted && crdServesKind(crd, kind);
      const running = this.sourceInformers.get(typeKey(kind));
      if (serves && !running) {
        this.options.logger?.info('Operator kind installed, watching it', {
          kind: resourceName(kind),
        });
        const changed = (obj: KubeObject) =>
          this.enqueue(obj.metadata?.resourceVersion, [
            objectKey(
              kind,
              obj.metadata?.namespace ?? '',
              obj.metadata?.name ?? '',
            ),
          ]);
        const managed = new ManagedInformer({
          type: kind,
          factory: this.options.informerFactory,
          backoff: this.backoff,
          logger: this.options.logger,
          onAdd: changed,
          onUpdate: changed,
          onDelete: changed,
          onListed: rv => this.noteListed(rv),
        });
        this.sourceInformers.set(typeKey(kind), { managed, adapter, kind });
        if (this.started) {
          managed.start();
        }
      } else if (!serves && running) {
        this.options.logger?.info(
          'Operator kind no longer served, dropping it',
          { kind: resourceName(kind) },
        );
        running.managed.stop();
        this.sourceInformers.delete(typeKey(kind));
        const prefix = `${typeKey(kind)}|`;
        const gone = [...this.entries.keys()].filter(k => k.startsWith(prefix));
        if (gone.length) {
          this.enqueue(crd.metadata?.resourceVersion, gone);
        }
      }
    }
  }

  private noteListed(resourceVersion: string | undefined): void {
    if (resourceVersion) {
      this.listedRv = maxResourceVersion(this.listedRv, resourceVersion);
    }
    this.checkSynced();
  }

  private checkSynced(): void {
    if (
      this.synced ||
      !this.crdInformer.hasListed() ||
      this.pending.length > 0
    ) {
      return;
    }
    const all = [
      ...this.relatedInformers.values(),
      ...[...this.sourceInformers.values()].map(s => s.managed),
    ];
    if (!all.every(i => i.hasListed())) {
      return;
    }
    this.synced = true;
    // Our first complete view is the cluster at the lists' resourceVersion (not merely the newest
    // instance: objects deleted before the sync would be missed by a watch resumed from an older
    // RV). Nobody can hold an RV from before it, so watches start from here; older ones get 410.
    this.lastRv = maxResourceVersion(this.lastRv, this.listedRv);
    this.history.reset(this.lastRv);
    this.options.logger?.info('Instance cache synced', {
      resourceVersion: this.lastRv,
      instances: this.countServed(),
    });
    this.syncWaiters.splice(0).forEach(r => r());
  }

  private countServed(): number {
    let n = 0;
    for (const byName of this.served.values()) {
      n += byName.size;
    }
    return n;
  }

  private enqueue(rv: string | undefined, sourceKeys: string[]): void {
    this.pending.push({ rv: rv ?? '0', sourceKeys });
    if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => this.flush(), this.batchWindowMs);
      this.flushTimer.unref?.();
    }
  }

  private flush(): void {
    this.flushTimer = undefined;
    const batch = this.pending;
    this.pending = [];
    // Stable sort: changes with equal RVs keep their arrival order.
    batch.sort((a, b) => compareRv(a.rv, b.rv));
    for (const change of batch) {
      const groups = new Set<string>();
      for (const key of change.sourceKeys) {
        const group = this.reconcileSource(key);
        if (group) {
          groups.add(group);
        }
      }
      for (const group of groups) {
        this.recomputeGroup(group, change.rv);
      }
    }
    this.checkSynced();
  }

  // ---- projection --------------------------------------------------------------------------

  private sourceObject(key: string): {
    informer?: SourceInformer;
    obj?: KubeObject;
    ns: string;
    name: string;
  } {
    const [type, ref] = splitOnce(key, '|');
    const [ns, name] = splitOnce(ref, '/');
    const informer = this.sourceInformers.get(type);
    return {
      informer,
      obj: informer?.managed.informer.get(name, ns || undefined),
      ns,
      name,
    };
  }

  /** Updates the entry and indexes of one source object; returns its name group. */
  private reconcileSource(key: string): string | undefined {
    const { informer, obj, ns, name } = this.sourceObject(key);
    const old = this.entries.get(key);
    for (const rel of old?.relatedKeys ?? []) {
      const set = this.reverse.get(rel);
      set?.delete(key);
      if (set && set.size === 0) {
        this.reverse.delete(rel);
      }
    }
    const group = claimKey(ns, name);
    if (!informer || !obj) {
      if (!old) {
        return undefined;
      }
      this.entries.delete(key);
      const claim = this.nameClaims.get(group);
      claim?.delete(key);
      if (claim && claim.size === 0) {
        this.nameClaims.delete(group);
      }
      return group;
    }
    let relatedKeys: string[] = [];
    try {
      relatedKeys = informer.adapter
        .relatedRefs(obj, informer.kind)
        .map(r => objectKey(r.type, r.namespace, r.name));
    } catch (err) {
      this.options.logger?.warn('Adapter relatedRefs failed', {
        source: key,
        error: String(err),
      });
    }
    for (const rel of relatedKeys) {
      let set = this.reverse.get(rel);
      if (!set) {
        set = new Set();
        this.reverse.set(rel, set);
      }
      set.add(key);
    }
    this.entries.set(key, {
      key,
      adapter: informer.adapter,
      kind: informer.kind,
      namespace: ns,
      name,
      relatedKeys,
    });
    let claim = this.nameClaims.get(group);
    if (!claim) {
      claim = new Set();
      this.nameClaims.set(group, claim);
    }
    claim.add(key);
    return group;
  }

  private relatedLookup(): RelatedLookup {
    return {
      get: ref =>
        this.relatedInformers
          .get(typeKey(ref.type))
          ?.informer.get(ref.name, ref.namespace || undefined),
    };
  }

  private project(
    entry: SourceEntry,
    servedName: string,
    conflict: NameClaim[] | undefined,
    group: string,
  ) {
    const source = this.sourceObject(entry.key).obj!;
    const lookup = this.relatedLookup();
    let instance: DatabaseInstance;
    try {
      instance = entry.adapter.project(source, entry.kind, lookup);
    } catch (err) {
      instance = fallbackInstance(entry, source, err);
    }
    const relatedRvs = entry.relatedKeys.map(k => {
      const [type, ref] = splitOnce(k, '|');
      const [ns, name] = splitOnce(ref, '/');
      return this.relatedInformers
        .get(type)
        ?.informer.get(name, ns || undefined)?.metadata?.resourceVersion;
    });
    const baseRv = maxResourceVersion(
      source.metadata?.resourceVersion,
      ...relatedRvs,
    );
    const metadata = {
      ...instance.metadata,
      name: servedName,
      namespace: entry.namespace,
    };
    delete metadata.resourceVersion;
    let status = instance.status;
    if (conflict && status) {
      const claim = conflict.find(c => c.key === entry.key)!;
      const condition = nameConflictCondition(
        claim,
        conflict,
        entry.namespace,
        servedName,
        this.conflictSince.get(group)!,
      );
      status = {
        ...status,
        conditions: [...(status.conditions ?? []), condition],
      };
    }
    const projected: DatabaseInstance = {
      ...instance,
      metadata,
      ...(status ? { status } : {}),
    };
    return { projected, baseRv, fingerprint: JSON.stringify(projected) };
  }

  private recomputeGroup(group: string, triggerRv: string): void {
    const [ns] = splitOnce(group, '/');
    const keys = [...(this.nameClaims.get(group) ?? [])];
    const members = keys.map(k => this.entries.get(k)!);
    const claims: NameClaim[] = members.map(e => ({
      key: e.key,
      name: e.name,
      engine: e.adapter.engine,
      kind: e.kind.kind,
    }));
    if (claims.length > 1) {
      if (!this.conflictSince.has(group)) {
        this.conflictSince.set(
          group,
          new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        );
      }
    } else {
      this.conflictSince.delete(group);
    }
    const names = servedNames(claims);
    const old =
      this.groupServed.get(group) ?? new Map<string, ServedInstance>();
    const next = new Map<string, ServedInstance>();
    const events: InstanceEvent[] = [];
    const eventRv = (baseRv: string) => {
      const rv = maxResourceVersion(baseRv, triggerRv, this.lastRv);
      this.lastRv = rv;
      return rv;
    };

    for (const [oldName, prev] of old) {
      const nowKey = [...names].find(([, n]) => n === oldName)?.[0];
      if (
        nowKey === undefined ||
        nowKey !== prev.sourceKey ||
        this.uidOf(nowKey) !== prev.instance.metadata.uid
      ) {
        const rv = eventRv('0');
        events.push({
          type: 'DELETED',
          object: withRv(prev.instance, rv),
          oldObject: prev.instance,
          resourceVersion: rv,
        });
      }
    }
    for (const entry of members) {
      const servedName = names.get(entry.key)!;
      const { projected, baseRv, fingerprint } = this.project(
        entry,
        servedName,
        claims.length > 1 ? claims : undefined,
        group,
      );
      const prev = old.get(servedName);
      const same =
        prev &&
        prev.sourceKey === entry.key &&
        prev.instance.metadata.uid === projected.metadata.uid;
      if (same && prev.fingerprint === fingerprint && prev.baseRv === baseRv) {
        next.set(servedName, prev);
        continue;
      }
      const rv = eventRv(baseRv);
      const instance = withRv(projected, rv);
      next.set(servedName, {
        instance,
        fingerprint,
        baseRv,
        sourceKey: entry.key,
      });
      events.push(
        same
          ? {
              type: 'MODIFIED',
              object: instance,
              oldObject: prev.instance,
              resourceVersion: rv,
            }
          : { type: 'ADDED', object: instance, resourceVersion: rv },
      );
    }

    // Swap the group's served names in the namespace index.
    const byName = this.served.get(ns) ?? new Map<string, ServedInstance>();
    for (const name of old.keys()) {
      byName.delete(name);
    }
    for (const [name, s] of next) {
      byName.set(name, s);
    }
    if (byName.size) {
      this.served.set(ns, byName);
    } else {
      this.served.delete(ns);
    }
    if (next.size) {
      this.groupServed.set(group, next);
    } else {
      this.groupServed.delete(group);
    }
    for (const event of events) {
      this.emit(event);
    }
  }

  private uidOf(sourceKey: string): string | undefined {
    return this.sourceObject(sourceKey).obj?.metadata?.uid;
  }

  private emit(event: InstanceEvent): void {
    if (this.synced) {
      this.history.append(event);
    }
    for (const watcher of this.watchers) {
      try {
        watcher(event);
      } catch (err) {
        this.options.logger?.warn('Watcher failed', { error: String(err) });
      }
    }
  }
}

function compare(a: string, b: string): number {
  if (a === b) {
    return 0;
  }
  return a < b ? -1 : 1;
}

function compareRv(a: string, b: string): number {
  const d = rvToBigInt(a) - rvToBigInt(b);
  if (d === 0n) {
    return 0;
  }
  return d < 0n ? -1 : 1;
}

function splitOnce(s: string, sep: string): [string, string] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, ''] : [s.slice(0, i), s.slice(i + 1)];
}

function withRv(instance: DatabaseInstance, rv: string): DatabaseInstance {
  return {
    ...instance,
    metadata: { ...instance.metadata, resourceVersion: rv },
  };
}

/** What we serve when an adapter throws: the object exists, its state is not understood. */
function fallbackInstance(
  entry: SourceEntry,
  source: KubeObject,
  err: unknown,
): DatabaseInstance {
  const m = source.metadata ?? {};
  return {
    apiVersion: DATABASES_GROUP_VERSION,
    kind: 'DatabaseInstance',
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      creationTimestamp: m.creationTimestamp,
      ...(m.labels ? { labels: m.labels } : {}),
      ...(m.annotations ? { annotations: m.annotations } : {}),
    },
    spec: { engine: entry.adapter.engine },
    status: {
      phase: 'Unknown',
      reason: 'ProjectionFailed',
      message: `cannot read the ${entry.kind.kind} object: ${(err as Error)?.message ?? String(err)}`,
      source: {
        apiVersion: `${entry.kind.group}/${entry.kind.version}`,
        kind: entry.kind.kind,
        name: m.name ?? '',
        operator: entry.adapter.operator,
      },
      ...(source.status !== undefined ? { operatorStatus: source.status } : {}),
    },
  };
}
