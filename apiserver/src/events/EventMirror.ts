import type { KubeObject } from '../adapters/types';
import type { InstanceStore } from '../cache/types';
import type { KubeWriter } from '../kube/KubeWriter';
import { toStatusError } from '../kube/toStatusError';
import type { StreamReader } from '../kube/uncachedStream';
import { eventOwner, INSTANCE_KIND, type OwnerCandidate } from './eventOwner';
import { EVENTS, LABEL_MIRRORED, mirroredEvent } from './mirroredEvent';
import { type MirrorRing, ringDelete, ringFilter, ringGet, ringPut } from './mirrorRing';

/** Options of {@link EventMirror}. */
export interface EventMirrorOptions {
  store: Pick<InstanceStore, 'get' | 'source' | 'watch'> & { whenSynced(): Promise<void> };
  writer: Pick<KubeWriter, 'create' | 'mergePatch' | 'delete'>;
  /**
   * A list and watch of every core/v1 Event that hands each to the reader as it passes and keeps
   * none: events are the busiest kind of a cluster (UncachedStream).
   */
  watchEvents(reader: StreamReader): { start(): Promise<void>; stop(): Promise<void> };
  /** Mirrored events kept per instance, the newest (default 10); older ones are deleted. */
  maxPerInstance?: number;
  /** Writes at most this many at once (default 4). */
  maxInFlight?: number;
  logger?: { warn(msg: string, meta?: object): void };
}

interface QueuedWrite {
  event: KubeObject;
  signature: number;
}

const isMirror = (e: KubeObject) =>
  (e as { involvedObject?: { kind?: string } }).involvedObject?.kind === INSTANCE_KIND &&
  e.metadata?.labels?.[LABEL_MIRRORED] === 'true';

const instanceKeyOf = (e: KubeObject) => {
  const ref = (e as { involvedObject?: { namespace?: string; name?: string } }).involvedObject;
  return `${ref?.namespace ?? e.metadata?.namespace}/${ref?.name}`;
};

/**
 * What a write would change, hashed (FNV-1a, 30 of its 32 bits: a small integer, no string kept per
 * event): an event already mirrored with these is not written again.
 */
const signatureOf = (e: KubeObject) => {
  const f = e as { count?: number; lastTimestamp?: string; message?: string; type?: string };
  const text = `${f.count}|${f.lastTimestamp}|${f.type}|${f.message}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  // 30 bits: a small integer in V8 (a 32-bit one is a heap number of its own)
  return h >>> 2;
};

/**
 * Mirrors the Kubernetes events of each instance's operator object and of the objects its
 * operator makes for it (StatefulSets, pods, claims, Jobs) onto the DatabaseInstance, as core/v1
 * Events whose involvedObject is the instance: `kubectl describe dbi` and `kubectl get events`
 * then show them, newest last, as they do for a pod, and the portal reads them the same way.
 *
 * Bounded: per instance the newest `maxPerInstance` mirrors stay, older ones are deleted; the
 * count of a repeating event is carried over (kube's own series), not a new event each time.
 * The mirrors are read back through the same watch, so every replica and a restarted one agree
 * on what exists; two replicas writing the same mirror collide on its name (409) harmlessly.
 */
export class EventMirror {
  private stream: { start(): Promise<void>; stop(): Promise<void> } | undefined;
  private subscription: { stop(): void } | undefined;
  /** Per instance (`namespace/name`): its mirrors in the cluster, oldest first, name → signature. */
  private readonly rings = new Map<string, MirrorRing>();
  /** Mirrors written whose watch event has not come back yet: name → signature. */
  private readonly recent = new Map<string, number>();
  /** While a relist runs: the mirrors it listed (those it did not list are gone). */
  private listing: Set<string> | undefined;
  private readonly queue = new Map<string, QueuedWrite>();
  private readonly inFlight = new Set<string>();
  private readonly pending = new Set<Promise<void>>();
  private disabled = false;
  private stopped = false;

  constructor(private readonly options: EventMirrorOptions) {}

  /** Starts once the instances are known (before that, no event has an owner). */
  async start(): Promise<void> {
    await this.options.store.whenSynced();
    if (this.stopped) return;
    this.subscription = this.options.store.watch(undefined, change => {
      if (change.type === 'DELETED') this.forget(`${change.object.metadata.namespace}/${change.object.metadata.name}`);
    });
    const stream = this.options.watchEvents({
      observe: (e, phase) => (phase === 'DELETED' ? this.deleted(e) : this.consider(e)),
      // a relist tells again every mirror that exists: the rings are rebuilt from it
      relisting: () => {
        this.listing = new Set();
      },
      listed: () => this.sweep(),
      error: err => this.options.logger?.warn('Watching events failed; retrying', { error: String(err) }),
    });
    this.stream = stream;
    await stream.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.subscription?.stop();
    await this.stream?.stop();
  }

  /** After a relist: the mirrors it did not list are gone (expired while the watch was down). */
  private sweep(): void {
    const listed = this.listing;
    this.listing = undefined;
    if (!listed) return;
    for (const [key, ring] of this.rings) {
      const kept = ringFilter(ring, name => listed.has(name));
      if (kept.length === 0) this.rings.delete(key);
      else if (kept !== ring) this.rings.set(key, kept);
    }
    for (const name of this.recent.keys())
      if (!listed.has(name) && !this.queue.has(name) && !this.inFlight.has(name)) this.recent.delete(name);
  }

  /** Resolves when nothing is queued or in flight (for tests and shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private ownerOf(e: KubeObject): OwnerCandidate | undefined {
    return eventOwner(e, (namespace, name) => {
      const instance = this.options.store.get(namespace, name);
      const source = instance && this.options.store.source(namespace, name)?.object;
      if (!instance || !source) return undefined;
      return {
        namespace,
        name,
        uid: instance.metadata.uid ?? '',
        source: { apiVersion: source.apiVersion ?? '', kind: source.kind ?? '', name: source.metadata?.name ?? name },
      };
    });
  }

  private consider(e: KubeObject): void {
    if (this.stopped) return;
    if (isMirror(e)) {
      this.remember(e);
      return;
    }
    const owner = this.ownerOf(e);
    if (!owner || this.disabled) return;
    const mirror = mirroredEvent(e, owner);
    const name = mirror.metadata!.name!;
    const signature = signatureOf(mirror);
    const known = ringGet(this.rings.get(`${owner.namespace}/${owner.name}`), name) ?? this.recent.get(name);
    if (known === signature) return;
    this.queue.set(name, { event: mirror, signature });
    this.pump();
  }

  /** A mirror in the cluster (ours or another replica's): kept in its instance's ring, trimmed. */
  private remember(e: KubeObject): void {
    const key = instanceKeyOf(e);
    const name = e.metadata?.name ?? '';
    const { ring, dropped } = ringPut(this.rings.get(key), name, signatureOf(e), this.options.maxPerInstance ?? 10);
    this.rings.set(key, ring);
    this.recent.delete(name);
    this.listing?.add(name);
    for (const old of dropped) {
      this.track(
        this.options.writer.delete(EVENTS, e.metadata?.namespace ?? '', old).then(
          () => undefined,
          err => this.failed(err, old),
        ),
      );
    }
  }

  private ringHas(mirror: KubeObject, name: string): boolean {
    return ringGet(this.rings.get(instanceKeyOf(mirror)), name) !== undefined;
  }

  private deleted(e: KubeObject): void {
    if (!isMirror(e)) return;
    const key = instanceKeyOf(e);
    const ring = this.rings.get(key);
    if (!ring) return;
    const kept = ringDelete(ring, e.metadata?.name ?? '');
    if (kept.length === 0) this.rings.delete(key);
    else this.rings.set(key, kept);
  }

  /** The instance is gone: its mirrors expire with kube's event TTL, the mirror forgets them. */
  private forget(key: string): void {
    this.rings.delete(key);
  }

  private pump(): void {
    const max = this.options.maxInFlight ?? 4;
    for (const [name, write] of this.queue) {
      if (this.inFlight.size >= max || this.disabled || this.stopped) return;
      if (this.inFlight.has(name)) continue; // looked at again when its write ends
      this.queue.delete(name);
      this.write(name, write);
    }
  }

  private write(name: string, { event, signature }: QueuedWrite): void {
    const namespace = event.metadata?.namespace ?? '';
    const f = event as { count?: number; lastTimestamp?: string; message?: string; type?: string };
    this.inFlight.add(name);
    const done = this.options.writer
      .create(EVENTS, event)
      .catch(err => {
        // written before (by us or another replica): carry the series over
        if (toStatusError(err).code !== 409) throw err;
        return this.options.writer.mergePatch(EVENTS, namespace, name, {
          count: f.count,
          lastTimestamp: f.lastTimestamp,
          message: f.message,
          type: f.type,
        });
      })
      .then(
        () => {
          // until its watch event comes back (remember), a repeat must not write it again
          if (!this.ringHas(event, name)) this.recent.set(name, signature);
        },
        err => this.failed(err, name),
      )
      .finally(() => {
        this.inFlight.delete(name);
        this.pump();
      });
    this.track(done);
  }

  private track(p: Promise<void>): void {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  private failed(err: unknown, name: string): void {
    const status = toStatusError(err);
    if (status.code === 404 || status.code === 409) return; // gone already, or raced
    if (status.code === 403) {
      if (!this.disabled)
        this.options.logger?.warn(
          'Cannot write events (forbidden): kubectl describe and the portal show no events of the operators',
          { error: status.message },
        );
      this.disabled = true;
      return;
    }
    this.options.logger?.warn('Mirroring an event failed', { name, error: status.message });
  }
}
