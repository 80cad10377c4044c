import type { DatabaseInstance, DatabaseInstanceList } from '@internal/plugin-databases-common';
import type { LoggerService } from '@backstage/backend-plugin-api';
import type { KubeClusterClient } from '../kube/KubeClusterClient';
import { KubeRequestError } from '../kube/KubeRequestError';
import { rfc3339 } from '../kube/ClusterReachability';
import type { InstanceChange, WatchListener } from './types';
import { INSTANCES_PATH } from '../kube/paths';
import { LabelIndex } from './LabelIndex';
import { watchEventReader } from '../kube/watchEventReader';

const keyOf = (i: DatabaseInstance) => `${i.metadata.namespace}/${i.metadata.name}`;

/** Tuning of a watcher (tests shorten it). */
export interface ClusterWatcherOptions {
  /** First retry delay after a failure; doubles up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Server-side watch timeout; the watch is reopened from the last resourceVersion after it. */
  watchTimeoutSeconds?: number;
}

/**
 * The one watch of one cluster's DatabaseInstances, as the backend's own identity: list, then
 * watch from the list's resourceVersion, relist on 410 or failure (diffing against the cache so
 * listeners see the changes they missed). Every browser and the catalog share it.
 */
export class ClusterWatcher {
  private readonly cache = new Map<string, DatabaseInstance>();
  private readonly labels = new LabelIndex();
  private healthy: boolean | undefined;
  private message: string | undefined;
  private readonly abort = new AbortController();
  /** Aborts the watch stream open now (not the watcher): to reconnect and list again. */
  private streaming: AbortController | undefined;
  private listed = false;
  private readonly syncWaiters: Array<() => void> = [];
  private running: Promise<void> | undefined;
  /** When the watch stopped working (for the log line saying it works again). */
  private unhealthySince: number | undefined;
  private started: number | undefined;

  constructor(
    private readonly client: KubeClusterClient,
    private readonly listener: WatchListener,
    private readonly logger: LoggerService,
    private readonly options: ClusterWatcherOptions = {},
  ) {}

  get cluster(): string {
    return this.client.cluster.name;
  }

  start(): void {
    if (this.running) return;
    this.started = Date.now();
    // Requests that got no answer while the stream seemed fine (a cluster that hangs keeps its
    // open stream quiet, not closed): reconnect, so the list finds out whether it answers.
    const unsubscribe = this.client.reachability.onSilent(() => this.streaming?.abort());
    this.running = this.loop().finally(unsubscribe);
  }

  async stop(): Promise<void> {
    this.abort.abort();
    this.streaming?.abort();
    await this.running;
  }

  /** When {@link start} was called. */
  get startedAt(): number | undefined {
    return this.started;
  }

  /** Listed at least once: `instances()` is the cluster's state (maybe stale, see {@link ready}). */
  get synced(): boolean {
    return this.listed;
  }

  /** Instances currently known (empty until the first list succeeded). */
  instances(): DatabaseInstance[] {
    return [...this.cache.values()];
  }

  /** Instances having every `label=value` pair; all of them when `pairs` is empty. */
  withLabels(pairs: ReadonlyArray<readonly [string, string]>): DatabaseInstance[] {
    if (pairs.length === 0) return this.instances();
    return this.labels.keysWith(pairs).map(key => this.cache.get(key)!);
  }

  get(namespace: string, name: string): DatabaseInstance | undefined {
    return this.cache.get(`${namespace}/${name}`);
  }

  /** Listed at least once and watching now: `instances()` is the cluster's current state. */
  ready(): boolean {
    return this.listed && this.healthy === true;
  }

  health(): { healthy: boolean; message?: string } {
    if (this.healthy === undefined && this.started !== undefined) {
      return { healthy: false, message: `no answer yet to the first list of its instances, asked at ${rfc3339(this.started)}` };
    }
    return { healthy: this.healthy ?? false, message: this.message };
  }

  /** Resolves after the first successful list, or after `timeoutMs`. */
  whenSynced(timeoutMs = 10_000): Promise<boolean> {
    if (this.listed) return Promise.resolve(true);
    return new Promise(resolve => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.syncWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private setHealth(healthy: boolean, message?: string) {
    if (this.healthy === healthy && this.message === message) return;
    const changed = this.healthy !== healthy;
    if (changed && !healthy) {
      this.unhealthySince = Date.now();
      this.logger.warn(`databases: watch of cluster ${this.cluster} failed: ${message}`);
    }
    if (changed && healthy && this.unhealthySince !== undefined) {
      const seconds = ((Date.now() - this.unhealthySince) / 1000).toFixed(1);
      this.logger.info(
        `databases: watch of cluster ${this.cluster} works again after ${seconds} s (failing since ${rfc3339(this.unhealthySince)})`,
      );
      this.unhealthySince = undefined;
    }
    this.healthy = healthy;
    this.message = message;
    if (changed) this.listener.onClusterHealth?.({ cluster: this.cluster, healthy, message });
  }

  private emit(change: InstanceChange) {
    try {
      this.listener.onInstance?.(change);
    } catch (e) {
      this.logger.warn(`databases watch listener failed: ${e}`);
    }
  }

  private apply(type: 'ADDED' | 'MODIFIED' | 'DELETED', instance: DatabaseInstance) {
    const key = keyOf(instance);
    const previous = this.cache.get(key);
    if (type === 'DELETED') {
      if (!previous) return;
      this.cache.delete(key);
      this.labels.delete(key);
      this.emit({ type, cluster: this.cluster, instance, previous });
      return;
    }
    this.cache.set(key, instance);
    this.labels.set(key, instance.metadata.labels);
    this.emit({ type: previous ? 'MODIFIED' : 'ADDED', cluster: this.cluster, instance, previous });
  }

  private async list(): Promise<string | undefined> {
    const list = await this.client.request<DatabaseInstanceList>({ path: INSTANCES_PATH, probe: true, signal: this.abort.signal });
    const seen = new Set<string>();
    for (const item of list.items) {
      seen.add(keyOf(item));
      const previous = this.cache.get(keyOf(item));
      if (previous?.metadata.resourceVersion !== item.metadata.resourceVersion) {
        this.apply('MODIFIED', item);
      }
    }
    for (const [key, previous] of [...this.cache]) {
      if (!seen.has(key)) this.apply('DELETED', previous);
    }
    if (!this.listed) {
      this.listed = true;
      this.syncWaiters.splice(0).forEach(w => w());
    }
    return list.metadata.resourceVersion;
  }

  private sleep(ms: number) {
    return new Promise<void>(resolve => {
      const timer = setTimeout(resolve, ms);
      this.abort.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      }, { once: true });
    });
  }

  private async loop(): Promise<void> {
    const base = this.options.backoffMs ?? 1000;
    const max = this.options.maxBackoffMs ?? 15_000;
    // in an object: the stream callback below resets it when a watch opens
    const retry = { backoff: base };
    // The resume point lives in an object: the stream callbacks below update it.
    const cursor: { rv?: string } = {};
    while (!this.abort.signal.aborted) {
      try {
        if (!cursor.rv) cursor.rv = await this.list();
        const reader = watchEventReader<DatabaseInstance>(cursor, change => this.apply(change.type, change.object));
        const opened = Date.now();
        const streaming = new AbortController();
        this.streaming = streaming;
        if (this.abort.signal.aborted) streaming.abort(); // stopped while listing
        await this.client.stream(
          {
            path: INSTANCES_PATH,
            probe: true,
            query: {
              watch: 'true',
              resourceVersion: cursor.rv,
              allowWatchBookmarks: 'true',
              timeoutSeconds: String(this.options.watchTimeoutSeconds ?? 300),
            },
          },
          {
            // Healthy once the watch is open, not after the list: a cluster that lists but
            // refuses the watch (RBAC without `watch`) stays unhealthy, backing off, instead of
            // flipping every second with a relist, two log lines and an event to every stream.
            onOpen: () => {
              this.setHealth(true);
              retry.backoff = base;
            },
            onLine: reader.onLine,
          },
          streaming.signal,
        ).catch(e => {
          // reconnecting on purpose is not a failure of the cluster
          if (!streaming.signal.aborted) throw e;
        });
        this.streaming = undefined;
        if (reader.expired() || streaming.signal.aborted) cursor.rv = undefined;
        // A watch the server ends at once would otherwise spin.
        if (Date.now() - opened < 500) await this.sleep(base);
      } catch (e) {
        if (this.abort.signal.aborted) break;
        if (e instanceof KubeRequestError && e.statusCode === 410) {
          cursor.rv = undefined;
          continue;
        }
        cursor.rv = undefined;
        this.setHealth(false, (e as Error).message);
        await this.sleep(retry.backoff);
        retry.backoff = Math.min(retry.backoff * 2, max);
      }
    }
  }
}
