import type { DatabaseInstance } from '@internal/plugin-databases-common';
import type { KubeWriter } from '../kube/KubeWriter';
import { toStatusError } from '../kube/toStatusError';
import type { InstanceStore } from './types';

const RETRY_MS = 5000;

/** One annotation the apiserver keeps on an instance's operator object. */
export interface InstanceRecord {
  annotation: string;
  value: string;
}

/** Where an {@link InstanceRecorder} reads instances and writes operator objects. */
export interface InstanceRecorderOptions {
  store: Pick<InstanceStore, 'watch' | 'list' | 'get' | 'source'> & {
    whenSynced(): Promise<void>;
  };
  writer: Pick<KubeWriter, 'mergePatch'>;
  logger?: { info(msg: string, meta?: object): void; warn(msg: string, meta?: object): void };
  /** Wait before retrying a write that failed otherwise than 403/404/409 (default 5 s). */
  retryMs?: number;
  /**
   * Writes at most this many at once (default 4): the first start of a new version records every
   * Ready instance, and 50,000 patches at once would be a storm on kube-apiserver.
   */
  maxInFlight?: number;
}

/** What an {@link InstanceRecorder} records, and how its log lines name it. */
export interface RecorderOptions extends InstanceRecorderOptions {
  /** The record `instance` calls for now, undefined when none (nothing is written). */
  record(instance: DatabaseInstance): InstanceRecord | undefined;
  /** e.g. "the last Ready spec". */
  what: string;
  /**
   * Write only over the object version the decision was made on (default). False for a record
   * that is set once and never changes (a failure seen): a write racing the operator's own must
   * not be dropped, as the state that called for it may be gone by the next event.
   */
  guarded?: boolean;
}

/**
 * Keeps, on each operator object, an annotation decided from its served instance (see
 * {@link ReadySpecRecorder}, the first of them): written only when the annotation differs from
 * what the instance calls for, as a merge patch of that one annotation guarded by the
 * resourceVersion the decision was made on, harmless when two replicas race (the loser's 409
 * is dropped, the winner's write reaches both through their watches); without permission to
 * patch (a read-only install), it says so once.
 */
export class InstanceRecorder {
  private subscription: { stop(): void } | undefined;
  /** Instances (`namespace/name`) with a write in flight, so a burst of events writes once. */
  private readonly inFlight = new Set<string>();
  /** Instances to look at again, oldest first (a Map: each once, however many events came). */
  private readonly queue = new Map<string, { namespace: string; name: string; seen: DatabaseInstance }>();
  /**
   * Signatures written whose write the watch has not brought back yet: an event in between must
   * not write them again (dropped once the cache shows the annotation).
   */
  private readonly written = new Map<string, string>();
  private readonly pending = new Set<Promise<void>>();
  private readonly retries = new Set<NodeJS.Timeout>();
  private disabled = false;
  private stopped = false;

  constructor(private readonly options: RecorderOptions) {}

  /** Records every instance that calls for it once the cache is synced, then each that comes to. */
  async start(): Promise<void> {
    await this.options.store.whenSynced();
    if (this.stopped) return;
    this.subscription = this.options.store.watch(undefined, event => {
      if (event.type !== 'DELETED') this.consider(event.object);
    });
    for (const instance of this.options.store.list()) this.consider(instance);
  }

  stop(): void {
    this.stopped = true;
    this.subscription?.stop();
    this.retries.forEach(t => clearTimeout(t));
    this.retries.clear();
  }

  /** Resolves when nothing is queued or in flight (for tests and shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private consider(instance: DatabaseInstance): void {
    if (this.disabled || this.stopped || !this.options.record(instance)) return;
    const { namespace = '', name = '' } = instance.metadata;
    if (!this.needsWrite(instance)) return;
    this.queue.set(`${namespace}/${name}`, { namespace, name, seen: instance });
    this.pump();
  }

  /** The instance calls for a record its operator object does not have yet. */
  private needsWrite(instance: DatabaseInstance): boolean {
    const { namespace = '', name = '', uid = '' } = instance.metadata;
    const key = `${namespace}/${name}`;
    const meta = this.options.store.source(namespace, name)?.object.metadata;
    const record = this.options.record(instance);
    if (!record || meta?.uid !== uid) return false;
    if (meta.annotations?.[record.annotation] === record.value) {
      this.written.delete(key);
      return false;
    }
    return this.written.get(key) !== record.value;
  }

  /** Starts queued writes up to the bound, each decided on the instance as it is then. */
  private pump(): void {
    const max = this.options.maxInFlight ?? 4;
    for (const [key, { namespace, name, seen }] of this.queue) {
      if (this.inFlight.size >= max || this.disabled || this.stopped) return;
      if (this.inFlight.has(key)) continue; // its write in flight: looked at again when it ends
      this.queue.delete(key);
      // an unguarded record is of a state seen, which the instance may have left by now
      const instance = this.options.guarded === false ? seen : this.options.store.get(namespace, name);
      if (instance && this.needsWrite(instance)) this.write(key, instance);
    }
  }

  private write(key: string, instance: DatabaseInstance): void {
    const { namespace = '', name = '' } = instance.metadata;
    const source = this.options.store.source(namespace, name)!;
    const { annotation, value } = this.options.record(instance)!;
    const meta = source.object.metadata ?? {};
    this.inFlight.add(key);
    const write = this.options.writer
      .mergePatch(source.kind, namespace, meta.name ?? name, {
        metadata: {
          ...(this.options.guarded !== false && { resourceVersion: meta.resourceVersion }),
          annotations: { [annotation]: value },
        },
      })
      .then(
        () => {
          this.written.set(key, value);
        },
        err => this.failed(err, instance),
      )
      .finally(() => {
        this.inFlight.delete(key);
        this.pending.delete(write);
        this.pump();
      });
    this.pending.add(write);
  }

  private failed(err: unknown, instance: DatabaseInstance): void {
    const status = toStatusError(err);
    // 409: the object changed since (its next event decides again); 404: it is gone
    if (status.code === 409 || status.code === 404) return;
    const where = { namespace: instance.metadata.namespace, name: instance.metadata.name };
    if (status.code === 403) {
      this.disabled = true;
      this.options.logger?.warn(`Cannot record ${this.options.what} on operator objects (forbidden)`, {
        ...where,
        error: status.message,
      });
      return;
    }
    this.options.logger?.warn(`Recording ${this.options.what} failed; retrying`, {
      ...where,
      error: status.message,
    });
    const retry = setTimeout(() => {
      this.retries.delete(retry);
      const now = this.options.guarded === false ? instance : this.options.store.get(where.namespace ?? '', where.name ?? '');
      if (now) this.consider(now);
    }, this.options.retryMs ?? RETRY_MS);
    retry.unref?.();
    this.retries.add(retry);
  }
}

