import type { Response } from 'express';
import type { ClusterStatusEvent, PortalInstance } from '@internal/plugin-databases-common';
import type { ClusterSet } from '../watch/ClusterSet';
import type { InstanceChange } from '../watch/types';
import { toInstanceEvent } from './toInstanceEvent';
import { HEARTBEAT_MS, openSse, sseFrame } from './openSse';

/** One browser's stream and what its user may see. */
export interface EventsSubscriber {
  res: Response;
  /** RBAC: may the user read instances in this cluster/namespace (cached SSAR). */
  canRead(cluster: string, namespace: string): Promise<boolean>;
  /** Backstage permission `databases.instance.read` on one instance. */
  permitted(resource: PortalInstance): boolean;
}

/**
 * Fans the shared per-cluster watches out to every open `GET /events` stream, each filtered by
 * what its user may read; sends heartbeats so proxies keep idle streams open.
 */
export class EventsHub {
  private readonly subscribers = new Set<EventsSubscriber>();
  private readonly timer: NodeJS.Timeout;
  private readonly unsubscribe: () => void;

  constructor(private readonly clusters: ClusterSet, heartbeatMs = HEARTBEAT_MS) {
    this.unsubscribe = clusters.subscribe({
      onInstance: change => void this.onInstance(change),
      onClusterHealth: change => this.broadcastCluster(change),
    });
    this.timer = setInterval(() => this.subscribers.forEach(s => s.res.write(': heartbeat\n\n')), heartbeatMs);
    this.timer.unref();
  }

  /** Number of open streams (for tests and metrics). */
  get size(): number {
    return this.subscribers.size;
  }

  /** Starts a stream on `sub.res`; it ends when the browser goes away. */
  add(sub: EventsSubscriber): void {
    const { res } = sub;
    openSse(res);
    this.subscribers.add(sub);
    for (const name of this.clusters.names()) {
      const health = this.clusters.watcher(name)!.health();
      this.write(res, 'cluster', { cluster: name, healthy: health.healthy, ...(health.message ? { message: health.message } : {}) });
    }
    res.on('close', () => this.subscribers.delete(sub));
  }

  close(): void {
    clearInterval(this.timer);
    this.unsubscribe();
    this.subscribers.forEach(s => s.res.end());
    this.subscribers.clear();
  }

  private write(res: Response, event: string, data: unknown) {
    res.write(sseFrame(event, data));
  }

  private broadcastCluster(change: ClusterStatusEvent) {
    this.subscribers.forEach(s => this.write(s.res, 'cluster', change));
  }

  private async onInstance(change: InstanceChange) {
    // encoded once for every stream (500 streams made 500 copies of each event)
    const frame = sseFrame('instance', toInstanceEvent(change));
    const namespace = change.instance.metadata.namespace ?? '';
    await Promise.all(
      [...this.subscribers].map(async sub => {
        if (!sub.permitted({ cluster: change.cluster, instance: change.instance })) return;
        if (!(await sub.canRead(change.cluster, namespace))) return;
        if (this.subscribers.has(sub)) sub.res.write(frame);
      }),
    );
  }
}
