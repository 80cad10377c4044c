import type {
  ObjectStore,
  ResourceKey,
  StoreEvent,
  StoredObject,
} from '../store/types';
import { memberEventName, memberEvents, type MemberEvent } from './memberEvents';
import {
  applyDesired,
  computeStage,
  limitsFor,
  stepSet,
} from './statefulSetWorld';
import {
  claimObject,
  claimStatus,
  isReadyPod,
  podNames,
  podObject,
  podStatus,
} from './memberObjects';
import {
  deploymentObject,
  deploymentStatus,
  isOwnedBy,
  ownerReference,
  secretObject,
  serviceObject,
  statefulSetObject,
  statefulSetStatus,
} from './dependentObjects';
import { jsonEqual as deepEqual } from '../store/jsonEqual';
import { ALL_OPERATORS } from './allOperators';
import { BackupEmulator } from './BackupEmulator';
import type {
  CustomKind,
  DesiredState,
  EmulatedOperator,
  HealthMode,
  MemberFault,
  ObjectRef,
  Observation,
  Stage,
  StatefulSetState,
} from './types';

/** Kubernetes timestamps have second precision (metav1.Time): `2025-05-01T10:00:00Z`. */
function kubeTime(d: Date): string {
  return `${d.toISOString().slice(0, 19)}Z`;
}

const STATEFULSETS: ResourceKey = {
  group: 'apps',
  version: 'v1',
  plural: 'statefulsets',
};
const DEPLOYMENTS: ResourceKey = {
  group: 'apps',
  version: 'v1',
  plural: 'deployments',
};
const SERVICES: ResourceKey = { group: '', version: 'v1', plural: 'services' };
const SECRETS: ResourceKey = { group: '', version: 'v1', plural: 'secrets' };
const PODS: ResourceKey = { group: '', version: 'v1', plural: 'pods' };
const EVENTS: ResourceKey = { group: '', version: 'v1', plural: 'events' };
const CLAIMS: ResourceKey = {
  group: '',
  version: 'v1',
  plural: 'persistentvolumeclaims',
};
// Pods and claims last: the StatefulSets they belong to are found first (garbage collection).
const DEPENDENT_KINDS = [
  STATEFULSETS,
  DEPLOYMENTS,
  SERVICES,
  SECRETS,
  PODS,
  CLAIMS,
];

/**
 * The demo's failover switch (the emulator's, never a real operator's): a new value of this
 * annotation on an operator object loses its primary, as `failPrimary` does, e.g.
 * `kubectl annotate cluster.postgresql.cnpg.io NAME emulator.dbaas.platform.dev/fail-primary=$(date +%s)`.
 */
export const FAIL_PRIMARY_ANNOTATION = 'emulator.dbaas.platform.dev/fail-primary';

/** Loses the primary of `cr` once per new value of FAIL_PRIMARY_ANNOTATION (where it has one). */
function askedToFailPrimary(op: EmulatedOperator, cr: StoredObject, memo: Record<string, unknown>): void {
  const asked = cr.metadata.annotations?.[FAIL_PRIMARY_ANNOTATION];
  if (!asked || memo.failPrimaryAsked === asked) return;
  memo.failPrimaryAsked = asked;
  const pod = op.primaryPod?.(cr);
  if (pod) memo.lostPrimary = pod;
}

/** Options of {@link OperatorEmulator}. */
export interface OperatorEmulatorOptions {
  store: ObjectStore;
  /** Time between reconcile rounds once started (default 1500 ms; tests use ~50 ms). */
  stepMs?: number;
  /** Which operators to run (default: all of ALL_OPERATORS). */
  operators?: EmulatedOperator[];
  /** Put the upstream operators' finalizers on objects, so deletion shows for a round (default true). */
  finalizers?: boolean;
  /** Clock for status timestamps. */
  now?: () => Date;
  logger?: { warn(message: string, fields?: Record<string, unknown>): void };
}

interface World {
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

const errorCode = (e: unknown): number | undefined =>
  (e as { code?: number })?.code;

/**
 * Runs the emulated operators against an ObjectStore: each round (every `stepMs` once started, or
 * on `tick()`), every object of their kinds moves one step through its lifecycle (dependents
 * created, pods coming up, rolling updates, status written in the upstream operator's dialect).
 * The control API holds an object in a state (`setHealth`), or stops all reconciling (`pause`).
 */
export class OperatorEmulator {
  private readonly store: ObjectStore;
  private readonly operators: EmulatedOperator[];
  private readonly stepMs: number;
  private readonly finalizers: boolean;
  private readonly now: () => Date;
  private readonly logger: {
    warn(message: string, fields?: Record<string, unknown>): void;
  };
  private readonly modes = new Map<
    string,
    { mode: HealthMode; message?: string }
  >();
  private readonly worlds = new Map<string, World>();
  private readonly faults = new Map<string, MemberFault>();
  private readonly pendingKicks = new Set<string>();
  private readonly lastErrors = new Map<string, string>();
  private timer?: NodeJS.Timeout;
  private kickTimer?: NodeJS.Immediate;
  /** When a kick last reconciled each object (see start). */
  private readonly kickedAt = new Map<string, number>();
  private watchHandle?: { stop(): void };
  private isPaused = false;
  /** The operators' backup runs, their Jobs and CronJobs (and the fail switch `failBackup`). */
  readonly backups: BackupEmulator;

  constructor(options: OperatorEmulatorOptions) {
    this.store = options.store;
    this.operators = options.operators ?? ALL_OPERATORS;
    this.stepMs = options.stepMs ?? 1500;
    this.finalizers = options.finalizers ?? true;
    this.now = options.now ?? (() => new Date());
    this.backups = new BackupEmulator(this.store, this.operators, this.now);
    this.logger = options.logger ?? {
      warn: (m, f) => console.warn(`[operator-emulator] ${m}`, f ?? ''),
    };
  }

  /** Subscribes to the store and reconciles every `stepMs` (and promptly after creates, spec changes and deletes). */
  start(): void {
    if (this.timer) return;
    this.watchHandle = this.store.watch(this.store.currentRV(), e =>
      this.onEvent(e),
    );
    // a round the interval runs skips objects a kick reconciled less than half a step ago: the
    // state a kick wrote (a scale's new pod not ready yet) lasts a while, as on a real cluster,
    // instead of being followed by the next round a millisecond later
    this.timer = setInterval(() => this.tick(this.stepMs / 2), this.stepMs);
    this.timer.unref?.();
  }

  /** Stops the timer and the watch. Objects keep their status. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.kickTimer) clearImmediate(this.kickTimer);
    this.watchHandle?.stop();
    this.timer = undefined;
    this.kickTimer = undefined;
    this.watchHandle = undefined;
    this.pendingKicks.clear();
    this.kickedAt.clear();
  }

  /** Stops all operators reconciling (new objects stay without status) until `resume()`. */
  pause(): void {
    this.isPaused = true;
  }

  resume(): void {
    this.isPaused = false;
  }

  get paused(): boolean {
    return this.isPaused;
  }

  /**
   * Holds one object in a state (`degraded`, `failed`, `provisioning`, `updating`), stops
   * reconciling it (`stalled`), or lets it converge normally again (`ready`). `message` replaces
   * the operator's default error message where the upstream status has one. The object need not
   * exist yet. Throws when the kind is not emulated or is ambiguous without `group`.
   */
  setHealth(ref: ObjectRef, mode: HealthMode, message?: string): void {
    const kind = this.resolveKind(ref);
    const key = this.key(kind, ref.namespace, ref.name);
    if (mode === 'ready' && !message) this.modes.delete(key);
    else this.modes.set(key, { mode, message });
  }

  /**
   * What the members of one object that are not ready show on their pods and claims (an image
   * that cannot be pulled, a crash loop, no node that fits, a claim no volume binds), or none.
   * Combine with `setHealth` to say how many members are not ready.
   */
  setFault(ref: ObjectRef, fault: MemberFault | undefined): void {
    const kind = this.resolveKind(ref);
    const key = this.key(kind, ref.namespace, ref.name);
    if (fault) this.faults.set(key, fault);
    else this.faults.delete(key);
  }

  /**
   * Loses the primary member of one object (its pod stops being ready), for an operator that
   * has one: the emulated operator fails over to another member, as the real one does. Throws
   * when the object is not reconciled yet or its operator has no primary to lose.
   */
  failPrimary(ref: ObjectRef): void {
    const kind = this.resolveKind(ref);
    const key = this.key(kind, ref.namespace, ref.name);
    const op = this.operators.find(o => o.kinds.includes(kind));
    const cr = this.store.get(kind, ref.namespace, ref.name);
    const world = this.worlds.get(key);
    const pod = cr && op?.primaryPod?.(cr);
    if (!world || !pod) throw new Error(`${ref.kind} ${ref.namespace}/${ref.name} has no primary to lose`);
    world.memo.lostPrimary = pod;
  }

  /** The mode set for an object (`ready` when none). */
  health(ref: ObjectRef): { mode: HealthMode; message?: string } {
    const kind = this.resolveKind(ref);
    return (
      this.modes.get(this.key(kind, ref.namespace, ref.name)) ?? {
        mode: 'ready',
      }
    );
  }

  /** The emulated kinds. */
  kinds(): CustomKind[] {
    return this.operators.flatMap(op => op.kinds);
  }

  /**
   * One reconcile round over every object of every emulated kind. Returns how many changes it made
   * (writes, plus deletions noticed), 0 when everything is at rest.
   */
  tick(sinceKickMs = 0): number {
    if (this.isPaused) return 0;
    let changes = 0;
    const seen = new Set<string>();
    const now = Date.now();
    for (const op of this.operators) {
      for (const kind of op.kinds) {
        if (!this.store.resource(kind)) continue;
        for (const cr of this.store.list(kind)) {
          const key = this.key(kind, cr.metadata.namespace, cr.metadata.name);
          seen.add(key);
          const kicked = this.kickedAt.get(key);
          if (kicked !== undefined && now - kicked < sinceKickMs) continue;
          this.kickedAt.delete(key);
          changes += this.guard(key, () => this.reconcile(op, kind, cr));
        }
      }
    }
    for (const [key, world] of [...this.worlds]) {
      if (!seen.has(key))
        changes += this.guard(key, () => this.forget(key, world));
    }
    return changes + this.guard('backups', () => this.backups.tick());
  }

  /** Runs rounds until one changes nothing (for tests). Returns the number of rounds; throws after `maxTicks`. */
  settle(maxTicks = 200): number {
    for (let i = 1; i <= maxTicks; i++) {
      if (this.tick() === 0) return i;
    }
    throw new Error(
      `Emulated operators did not settle within ${maxTicks} rounds`,
    );
  }

  private onEvent(e: StoreEvent): void {
    const kind = this.kinds().find(
      k => k.group === e.resource.group && k.kind === e.resource.kind,
    );
    if (!kind) return;
    const key = this.key(
      kind,
      e.object.metadata.namespace,
      e.object.metadata.name,
    );
    const old = e.oldObject;
    const relevant =
      e.type !== 'MODIFIED' ||
      !old ||
      old.metadata.generation !== e.object.metadata.generation ||
      !!old.metadata.deletionTimestamp !==
        !!e.object.metadata.deletionTimestamp;
    if (
      e.type === 'DELETED' &&
      this.worlds.get(key)?.uid === e.object.metadata.uid
    )
      this.modes.delete(key);
    if (!relevant) return;
    // Never write from inside the store's synchronous event delivery: react on the next turn.
    this.pendingKicks.add(key);
    this.kickTimer ??= setImmediate(() => this.runKicks());
  }

  private runKicks(): void {
    this.kickTimer = undefined;
    const keys = [...this.pendingKicks];
    this.pendingKicks.clear();
    if (this.isPaused || !this.timer) return;
    for (const key of keys) {
      const [group, kindName, namespace, name] = key.split('/');
      const op = this.operators.find(o =>
        o.kinds.some(k => k.group === group && k.kind === kindName),
      );
      const kind = op?.kinds.find(
        k => k.group === group && k.kind === kindName,
      );
      if (!op || !kind) continue;
      // the CRD may be gone since the event (its objects went with it): nothing to get
      const cr = this.store.resource(kind)
        ? this.store.get(kind, namespace || undefined, name)
        : undefined;
      const world = this.worlds.get(key);
      if (cr) {
        this.kickedAt.set(key, Date.now());
        this.guard(key, () => this.reconcile(op, kind, cr));
      } else if (world) this.guard(key, () => this.forget(key, world));
    }
  }

  private reconcile(
    op: EmulatedOperator,
    kind: CustomKind,
    crIn: StoredObject,
  ): number {
    let cr = crIn;
    const key = this.key(kind, cr.metadata.namespace, cr.metadata.name);
    const control = this.modes.get(key) ?? { mode: 'ready' as HealthMode };
    if (control.mode === 'stalled') return 0;
    let changes = 0;
    let world = this.worlds.get(key);
    if (world && world.uid !== cr.metadata.uid) {
      changes += this.forget(key, world);
      world = undefined;
    }
    if (!world) {
      world = {
        uid: cr.metadata.uid,
        namespace: cr.metadata.namespace ?? '',
        name: cr.metadata.name,
        sets: new Map(),
        everReady: false,
        createTime: kubeTime(this.now()),
        deletingSeen: false,
        memo: {},
      };
      this.worlds.set(key, world);
    }
    if (cr.metadata.deletionTimestamp)
      return changes + this.finalize(op, kind, cr, world, key);

    const finalizer = this.finalizers ? op.finalizer?.(kind) : undefined;
    if (finalizer && !(cr.metadata.finalizers ?? []).includes(finalizer)) {
      cr = this.updateMain(kind, cr, obj => {
        obj.metadata.finalizers = [
          ...(obj.metadata.finalizers ?? []),
          finalizer,
        ];
      });
      changes++;
    }

    if (op.paused?.(cr)) return changes + this.reportPaused(op, kind, cr, world, control);

    const w = world;
    askedToFailPrimary(op, cr, w.memo);
    const adjust = op.adjustSpec?.(cr, w.memo);
    if (adjust) {
      cr = this.updateMain(kind, cr, obj => adjust((obj.spec ??= {}) as Record<string, any>));
      changes++;
    }
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
            control.mode,
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
        changes++;
    });
    // the pods each set had, so that a scale-down removes exactly the ones beyond its new count
    const podsBefore = new Map([...w.sets].map(([n, st]) => [n, st.pods]));
    w.sets = sets;
    const states = [...sets.values()];
    const stage: Stage = computeStage(control.mode, states, w.everReady);
    if (stage === 'ready') {
      w.everReady = true;
      w.runningVersion = desired.version;
    } else if (
      w.runningVersion === undefined &&
      states.some(s => s.ready > 0)
    ) {
      w.runningVersion = desired.version;
    }

    changes += this.reconcileDependents(cr, desired, sets, key, podsBefore);

    const obs = this.observation(cr, w, stage, control, {
      desiredVersion: desired.version,
      reconcileError: desired.reconcileError,
    });
    return changes + this.writeStatus(op, kind, cr, obs);
  }

  /** What the operator sees of its object's members this round. */
  private observation(
    cr: StoredObject,
    w: World,
    stage: Stage,
    control: { message?: string },
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
      now: kubeTime(this.now()),
      message: control.message,
      runningVersion: w.runningVersion,
      createTime: w.createTime,
      memo: w.memo,
      ...extra,
    };
  }

  /** A paused object: nothing is stepped or created; the operator only says that it is paused. */
  private reportPaused(
    op: EmulatedOperator,
    kind: CustomKind,
    cr: StoredObject,
    w: World,
    control: { mode: HealthMode; message?: string },
  ): number {
    const stage = computeStage(control.mode, [...w.sets.values()], w.everReady);
    return this.writeStatus(op, kind, cr, this.observation(cr, w, stage, control, { paused: true }));
  }

  private finalize(
    op: EmulatedOperator,
    kind: CustomKind,
    cr: StoredObject,
    world: World,
    key: string,
  ): number {
    const finalizer = op.finalizer?.(kind);
    if (!finalizer || !(cr.metadata.finalizers ?? []).includes(finalizer))
      return 0;
    if (!world.deletingSeen) {
      // One round in which the object is visibly being deleted before it goes.
      world.deletingSeen = true;
      const states = [...world.sets.values()];
      const obs: Observation = {
        stage: 'deleting',
        sets: states,
        desiredReplicas: states.reduce((n, s) => n + s.replicas, 0),
        readyReplicas: states.reduce((n, s) => n + s.ready, 0),
        generation: cr.metadata.generation ?? 1,
        now: kubeTime(this.now()),
        runningVersion: world.runningVersion,
        createTime: world.createTime,
      };
      return 1 + this.writeStatus(op, kind, cr, obs);
    }
    let changes = this.deleteDependents(world.namespace, world.uid);
    this.updateMain(kind, cr, obj => {
      obj.metadata.finalizers = (obj.metadata.finalizers ?? []).filter(
        f => f !== finalizer,
      );
    });
    this.worlds.delete(key);
    changes++;
    return changes;
  }

  /** The object is gone: delete what the operator created for it (ownerReference garbage collection). */
  private forget(key: string, world: World): number {
    this.worlds.delete(key);
    return this.deleteDependents(world.namespace, world.uid);
  }

  private deleteDependents(namespace: string, uid: string): number {
    let changes = 0;
    const owners = new Set([uid]);
    for (const key of DEPENDENT_KINDS) {
      if (!this.store.resource(key)) continue;
      for (const obj of this.store.list(key, namespace)) {
        if (![...owners].some(o => isOwnedBy(obj, o))) continue;
        // the pods of a StatefulSet go with it
        if (key === STATEFULSETS) owners.add(obj.metadata.uid);
        try {
          this.store.delete(key, namespace, obj.metadata.name);
          changes++;
        } catch (e) {
          if (errorCode(e) !== 404) throw e;
        }
      }
    }
    return changes;
  }

  private reconcileDependents(
    cr: StoredObject,
    desired: DesiredState,
    sets: Map<string, StatefulSetState>,
    key: string,
    podsBefore: Map<string, number>,
  ): number {
    const ns = cr.metadata.namespace;
    let changes = 0;
    if (this.store.resource(SECRETS)) {
      for (const s of desired.secrets) {
        if (!this.store.get(SECRETS, ns, s.name)) {
          this.store.create(SECRETS, secretObject(cr, s));
          changes++;
        }
      }
    }
    if (this.store.resource(SERVICES)) {
      for (const s of desired.services) {
        if (!this.store.get(SERVICES, ns, s.name)) {
          this.store.create(SERVICES, serviceObject(cr, s));
          changes++;
        }
      }
    }
    if (this.store.resource(STATEFULSETS)) {
      for (const d of desired.statefulSets) {
        if (d.podsOnly) continue;
        const body = statefulSetObject(cr, d);
        const { obj, changed } = this.upsertSpec(STATEFULSETS, body);
        changes += changed;
        changes += this.upsertStatus(
          STATEFULSETS,
          obj,
          statefulSetStatus(sets.get(d.name)!, obj.metadata.generation ?? 1),
        );
      }
    }
    changes += this.reconcileMembers(cr, desired, sets, key, podsBefore);
    if (this.store.resource(DEPLOYMENTS)) {
      for (const d of desired.deployments ?? []) {
        const { obj, changed } = this.upsertSpec(
          DEPLOYMENTS,
          deploymentObject(cr, d),
        );
        changes += changed;
        changes += this.upsertStatus(
          DEPLOYMENTS,
          obj,
          deploymentStatus(d.replicas, obj.metadata.generation ?? 1),
        );
      }
    }
    return changes;
  }

  /**
   * The pods and data claims of every set, as the StatefulSet controller, the scheduler and the
   * kubelet would keep them: one pod per member, ready in order, the others showing the
   * object's fault. A scale-down removes the pods and keeps their claims (the StatefulSet
   * default, `whenScaled: Retain`).
   */
  private reconcileMembers(
    cr: StoredObject,
    desired: DesiredState,
    sets: Map<string, StatefulSetState>,
    key: string,
    podsBefore: Map<string, number>,
  ): number {
    if (!this.store.resource(PODS) || !this.store.resource(CLAIMS)) return 0;
    const ns = cr.metadata.namespace;
    const fault = this.faults.get(key);
    const since = this.worlds.get(key)?.createTime ?? kubeTime(this.now());
    let changes = 0;
    for (const d of desired.statefulSets) {
      const state = sets.get(d.name)!;
      const set = d.podsOnly
        ? undefined
        : this.store.get(STATEFULSETS, ns, d.name);
      const owner = set
        ? { ...ownerReference(set), blockOwnerDeletion: true }
        : ownerReference(cr);
      const names = podNames(d, state.pods);
      const lost = this.worlds.get(key)?.memo.lostPrimary;
      for (const [i, pod] of names.entries())
        changes += this.reconcileMember(cr, d, pod, owner, {
          index: i,
          // a primary lost (failPrimary) is not ready until the operator has failed over
          ready: isReadyPod(state, i) && lost !== pod,
          // a pod the controller has just started is not failing yet
          fault: state.starting && i === state.pods - 1 ? undefined : fault,
          since,
        });
      // only the pods beyond the new count: listing the namespace per set is quadratic
      for (const pod of podNames(d, podsBefore.get(d.name) ?? 0).slice(
        names.length,
      )) {
        const gone = this.store.get(PODS, ns, pod);
        if (!gone || !isOwnedBy(gone, String(owner.uid))) continue;
        this.store.delete(PODS, ns, pod);
        changes++;
      }
    }
    return changes;
  }

  /** One member's claim and pod, brought to what they show this round. */
  private reconcileMember(
    cr: StoredObject,
    d: DesiredState['statefulSets'][number],
    pod: string,
    owner: Record<string, unknown>,
    show: { index: number; ready: boolean; fault?: MemberFault; since: string },
  ): number {
    let changes = 0;
    const claim = claimObject(cr, d, pod, owner);
    if (claim) {
      const stored = this.upsertSpec(CLAIMS, claim);
      changes += stored.changed;
      changes += this.upsertStatus(
        CLAIMS,
        stored.obj,
        claimStatus(d, !show.ready && show.fault === 'volume-pending'),
      );
    }
    const stored = this.upsertSpec(PODS, podObject(cr, d, pod, owner, show.index));
    changes += stored.changed;
    changes += this.upsertStatus(
      PODS,
      stored.obj,
      podStatus(d, pod, show.ready, show.fault, show.since),
    );
    if (!show.ready && show.fault)
      changes += this.recordEvents(
        memberEvents(
          d,
          { name: pod, namespace: cr.metadata.namespace ?? '', uid: stored.obj.metadata.uid },
          claim && { name: claim.metadata.name, uid: this.store.get(CLAIMS, cr.metadata.namespace, claim.metadata.name)?.metadata.uid },
          show.fault,
        ),
        cr.metadata.namespace ?? '',
      );
    return changes;
  }

  /** Writes each event once (a fault that holds is one event, as kube would count it). */
  private recordEvents(events: MemberEvent[], namespace: string): number {
    if (!this.store.resource(EVENTS)) return 0;
    let changes = 0;
    const now = kubeTime(this.now());
    for (const e of events) {
      const name = memberEventName(e);
      if (this.store.get(EVENTS, namespace, name)) continue;
      this.store.create(EVENTS, {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace },
        involvedObject: { ...e.about, namespace },
        reason: e.reason,
        message: e.message,
        type: e.type,
        count: 1,
        firstTimestamp: now,
        lastTimestamp: now,
        source: { component: e.component, ...(e.component === 'kubelet' && { host: 'emulator-node' }) },
      });
      changes++;
    }
    return changes;
  }

  /** Creates the object or brings its spec, labels and ownerReferences to `body`'s. */
  private upsertSpec(
    key: ResourceKey,
    body: Record<string, any>,
  ): { obj: StoredObject; changed: number } {
    const existing = this.store.get(
      key,
      body.metadata.namespace,
      body.metadata.name,
    );
    if (!existing) return { obj: this.store.create(key, body), changed: 1 };
    if (
      deepEqual(existing.spec, body.spec) &&
      deepEqual(
        existing.metadata.ownerReferences,
        body.metadata.ownerReferences,
      ) &&
      deepEqual(existing.metadata.labels, body.metadata.labels)
    ) {
      return { obj: existing, changed: 0 };
    }
    const obj = this.updateMain(key, existing, o => {
      o.spec = body.spec;
      o.metadata.labels = body.metadata.labels;
      o.metadata.ownerReferences = body.metadata.ownerReferences;
    });
    return { obj, changed: 1 };
  }

  private upsertStatus(
    key: ResourceKey,
    obj: StoredObject,
    status: Record<string, unknown>,
  ): number {
    if (deepEqual(obj.status, status)) return 0;
    this.retry(key, obj, latest => {
      const sub = this.store.resource(key)?.statusSubresource;
      return this.store.update(
        key,
        { ...latest, status },
        sub ? { subresource: 'status' } : undefined,
      );
    });
    return 1;
  }

  private writeStatus(
    op: EmulatedOperator,
    kind: CustomKind,
    cr: StoredObject,
    obs: Observation,
  ): number {
    const status = op.status(cr, kind, obs);
    if (status === undefined) return 0;
    return this.upsertStatus(kind, cr, status);
  }

  private updateMain(
    key: ResourceKey,
    obj: StoredObject,
    mutate: (o: StoredObject) => void,
  ): StoredObject {
    return this.retry(key, obj, latest => {
      const copy = structuredClone(latest);
      mutate(copy);
      return this.store.update(key, copy);
    });
  }

  /** Writes with the current resourceVersion, re-reading and retrying on 409 Conflict. */
  private retry(
    key: ResourceKey,
    obj: StoredObject,
    write: (latest: StoredObject) => StoredObject,
  ): StoredObject {
    let latest = obj;
    for (let attempt = 0; ; attempt++) {
      try {
        return write(latest);
      } catch (e) {
        if (errorCode(e) !== 409 || attempt >= 4) throw e;
        const fresh = this.store.get(
          key,
          obj.metadata.namespace,
          obj.metadata.name,
        );
        if (!fresh) throw e;
        latest = fresh;
      }
    }
  }

  private guard(key: string, fn: () => number): number {
    try {
      const n = fn();
      this.lastErrors.delete(key);
      return n;
    } catch (e) {
      // An emulated operator must never take the process down; report each distinct failure once.
      const message = e instanceof Error ? e.message : String(e);
      if (this.lastErrors.get(key) !== message) {
        this.lastErrors.set(key, message);
        this.logger.warn('Reconcile failed', { object: key, error: message });
      }
      return 0;
    }
  }

  private resolveKind(ref: ObjectRef): CustomKind {
    const matches = this.kinds().filter(
      k => k.kind === ref.kind && (!ref.group || k.group === ref.group),
    );
    if (matches.length !== 1) {
      throw new Error(
        matches.length
          ? `Kind ${ref.kind} is ambiguous; give its group`
          : `Kind ${ref.group ? `${ref.group}/` : ''}${ref.kind} is not emulated`,
      );
    }
    return matches[0];
  }

  private key(
    kind: { group: string; kind: string },
    namespace: string | undefined,
    name: string,
  ): string {
    return `${kind.group}/${kind.kind}/${namespace ?? ''}/${name}`;
  }
}
