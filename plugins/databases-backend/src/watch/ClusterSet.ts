import type { LoggerService } from '@backstage/backend-plugin-api';
import type { DatabaseInstance } from '@internal/plugin-databases-common';
import type { DatabasesConfig } from '../config/readDatabasesConfig';
import { KubeClusterClient } from '../kube/KubeClusterClient';
import { ClusterWatcher, type ClusterWatcherOptions } from './ClusterWatcher';
import type { WatchListener } from './types';

/**
 * Every configured cluster: its client and its one shared watch, with listeners fanned out.
 * Created once per backend process (a root service), so the plugin's SSE, its history recorder
 * and the catalog provider share one watch per cluster.
 */
export class ClusterSet {
  private readonly listeners = new Set<WatchListener>();
  private readonly clients = new Map<string, KubeClusterClient>();
  private readonly watchers = new Map<string, ClusterWatcher>();
  private started = false;

  constructor(
    readonly config: DatabasesConfig,
    logger: LoggerService,
    watchOptions?: ClusterWatcherOptions,
  ) {
    const fanOut: WatchListener = {
      onInstance: change => this.listeners.forEach(l => l.onInstance?.(change)),
      onClusterHealth: change => this.listeners.forEach(l => l.onClusterHealth?.(change)),
    };
    for (const cluster of config.clusters) {
      const client = new KubeClusterClient(cluster, config.requestTimeoutMs);
      this.clients.set(cluster.name, client);
      this.watchers.set(cluster.name, new ClusterWatcher(client, fanOut, logger, watchOptions));
    }
  }

  /** Starts the watches (idempotent). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.watchers.forEach(w => w.start());
  }

  async stop(): Promise<void> {
    await Promise.all([...this.watchers.values()].map(w => w.stop()));
  }

  names(): string[] {
    return [...this.clients.keys()];
  }

  client(cluster: string): KubeClusterClient | undefined {
    return this.clients.get(cluster);
  }

  watcher(cluster: string): ClusterWatcher | undefined {
    return this.watchers.get(cluster);
  }

  /** Every instance the watches know, with its cluster. */
  cachedInstances(): Array<{ cluster: string; instance: DatabaseInstance }> {
    return [...this.watchers.entries()].flatMap(([cluster, w]) =>
      w.instances().map(instance => ({ cluster, instance })),
    );
  }

  subscribe(listener: WatchListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
