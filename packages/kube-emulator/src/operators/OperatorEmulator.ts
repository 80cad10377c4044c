import type { ObjectStore, StoreEvent, StoredObject } from '../store/types';
import { computeStage } from './statefulSetWorld';
import { ALL_OPERATORS } from './allOperators';
import { BackupEmulator } from './BackupEmulator';
import { DependentReconciler } from './DependentReconciler';
import { kubeTime } from './batch/jobRun';
import { StoreWrites } from './StoreWrites';
import { newWorld, observe, stepWorld, type World } from './world';
import { emulatedKey, resolveEmulatedKind } from './emulatedKeys';
import { finalizeObject } from './finalizeObject';
import type {
  CustomKind,
  EmulatedOperator,
  HealthMode,
  MemberFault,
  ObjectRef,
  Observation,
} from './types';

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

/**
 * Runs the emulated operators against an ObjectStore: each round (every `stepMs` once started, or
 * on `tick()`), every object of their kinds moves one step through its lifecycle (dependents
 * created, pods coming up, rolling updates, status written in the upstream operator's dialect).
 * The control API holds an object in a state (`setHealth`), or stops all reconciling (`pause`).
 */
export class OperatorEmulator {
  private readonly store: ObjectStore;
  private readonly writes: StoreWrites;
  private readonly dependents: DependentReconciler;
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
    this.writes = new StoreWrites(this.store, this.now);
    this.dependents = new DependentReconciler(this.store, this.writes);
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
    const { key } = this.refKey(ref);
    if (mode === 'ready' && !message) this.modes.delete(key);
    else this.modes.set(key, { mode, message });
  }

  /**
   * What the members of one object that are not ready show on their pods and claims (an image
   * that cannot be pulled, a crash loop, no node that fits, a claim no volume binds), or none.
   * Combine with `setHealth` to say how many members are not ready.
   */
  setFault(ref: ObjectRef, fault: MemberFault | undefined): void {
    const { key } = this.refKey(ref);
    if (fault) this.faults.set(key, fault);
    else this.faults.delete(key);
  }

  /**
   * Loses the primary member of one object (its pod stops being ready), for an operator that
   * has one: the emulated operator fails over to another member, as the real one does. Throws
   * when the object is not reconciled yet or its operator has no primary to lose.
   */
  failPrimary(ref: ObjectRef): void {
    const { kind, key } = this.refKey(ref);
    const op = this.operators.find(o => o.kinds.includes(kind));
    const cr = this.store.get(kind, ref.namespace, ref.name);
    const world = this.worlds.get(key);
    const pod = cr && op?.primaryPod?.(cr);
    if (!world || !pod) throw new Error(`${ref.kind} ${ref.namespace}/${ref.name} has no primary to lose`);
    world.memo.lostPrimary = pod;
  }

  /** The mode set for an object (`ready` when none). */
  health(ref: ObjectRef): { mode: HealthMode; message?: string } {
    return this.modes.get(this.refKey(ref).key) ?? { mode: 'ready' };
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
        // read as stored: reconcile changes only copies (StoreWrites), and this runs every round;
        // one written through another served version is read through the operator's (its
        // dependents' ownerReferences name the version the operator uses)
        const version = `${kind.group}/${kind.version}`;
        for (const stored of this.store.peekList(kind)) {
          const cr = stored.apiVersion === version ? stored : this.store.get(kind, stored.metadata.namespace, stored.metadata.name)!;
          const key = emulatedKey(kind, cr.metadata.namespace, cr.metadata.name);
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
    const key = emulatedKey(
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
    const key = emulatedKey(kind, cr.metadata.namespace, cr.metadata.name);
    const asked = this.modes.get(key) ?? { mode: 'ready' as HealthMode };
    if (asked.mode === 'stalled') return 0;
    let changes = 0;
    let world = this.worlds.get(key);
    if (world && world.uid !== cr.metadata.uid) {
      changes += this.forget(key, world);
      world = undefined;
    }
    if (!world) {
      world = newWorld(cr, kubeTime(this.now()));
      this.worlds.set(key, world);
    }
    if (cr.metadata.deletionTimestamp) {
      const done = finalizeObject(op, kind, cr, world, {
        writes: this.writes,
        now: kubeTime(this.now()),
        writeStatus: obs => this.writeStatus(op, kind, cr, obs),
      });
      if (done.gone) this.worlds.delete(key);
      return changes + done.changes;
    }

    const finalizer = this.finalizers ? op.finalizer?.(kind) : undefined;
    if (finalizer && !(cr.metadata.finalizers ?? []).includes(finalizer)) {
      cr = this.writes.updateMain(kind, cr, obj => {
        obj.metadata.finalizers = [
          ...(obj.metadata.finalizers ?? []),
          finalizer,
        ];
      });
      changes++;
    }

    if (op.paused?.(cr)) return changes + this.reportPaused(op, kind, cr, world, asked);

    const w = world;
    const held = op.heldBack?.(cr);
    const control = held ? { mode: 'held' as HealthMode } : asked;
    askedToFailPrimary(op, cr, w.memo);
    const adjust = op.adjustSpec?.(cr, w.memo);
    if (adjust) {
      cr = this.writes.updateMain(kind, cr, obj => adjust((obj.spec ??= {}) as Record<string, any>));
      changes++;
    }
    const { desired, sets, podsBefore, stage, progressed } = stepWorld(op, kind, cr, w, control.mode);
    changes += progressed;

    changes += this.dependents.reconcile(cr, desired, sets, podsBefore, {
      fault: held ?? this.faults.get(key),
      fromStart: held !== undefined,
      since: w.createTime,
      lost: w.memo.lostPrimary,
    });

    const obs = observe(cr, w, stage, control, kubeTime(this.now()), {
      desiredVersion: desired.version,
      reconcileError: desired.reconcileError,
    });
    return changes + this.writeStatus(op, kind, cr, obs);
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
    return this.writeStatus(op, kind, cr, observe(cr, w, stage, control, kubeTime(this.now()), { paused: true }));
  }

  /** The object is gone: delete what the operator created for it (ownerReference garbage collection). */
  private forget(key: string, world: World): number {
    this.worlds.delete(key);
    return this.writes.deleteDependents(world.namespace, world.uid);
  }

  private writeStatus(
    op: EmulatedOperator,
    kind: CustomKind,
    cr: StoredObject,
    obs: Observation,
  ): number {
    const status = op.status(cr, kind, obs);
    if (status === undefined) return 0;
    return this.writes.upsertStatus(kind, cr, status);
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

  /** The kind `ref` names and its object's key. */
  private refKey(ref: ObjectRef): { kind: CustomKind; key: string } {
    const kind = resolveEmulatedKind(this.kinds(), ref);
    return { kind, key: emulatedKey(kind, ref.namespace, ref.name) };
  }
}
