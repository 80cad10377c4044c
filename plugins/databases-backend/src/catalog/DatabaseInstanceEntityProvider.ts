import type { LoggerService } from '@backstage/backend-plugin-api';
import type { EntityProvider, EntityProviderConnection } from '@backstage/plugin-catalog-node';
import type { ClusterSet } from '../watch/ClusterSet';
import type { PortalInstance } from '@internal/plugin-databases-common';
import { instanceToEntity } from './instanceToEntity';

/**
 * Emits every instance the shared watches see as a catalog `Resource`: one full mutation first,
 * then, at most once per `debounceMs`, a delta of the instances that changed — a full mutation
 * of 10,000 entities for every status change kept the backend busy for seconds each time.
 */
export class DatabaseInstanceEntityProvider implements EntityProvider {
  private connection?: EntityProviderConnection;
  private timer?: NodeJS.Timeout;
  private unsubscribe?: () => void;
  /** A full mutation went through; until then (and after a failed write) the next one is full. */
  private synced = false;
  /** Changes since the last write, by instance: the latest state, or the entity to remove. */
  private readonly pending = new Map<string, { added?: PortalInstance; removed?: PortalInstance }>();

  constructor(
    private readonly clusters: ClusterSet,
    private readonly logger: LoggerService,
    private readonly debounceMs = 1000,
  ) {}

  getProviderName(): string {
    return 'databases-instances';
  }

  async connect(connection: EntityProviderConnection): Promise<void> {
    this.connection = connection;
    this.clusters.start();
    this.unsubscribe = this.clusters.subscribe({
      onInstance: change => {
        const p = { cluster: change.cluster, instance: change.instance };
        const key = `${change.cluster}/${change.instance.metadata.namespace}/${change.instance.metadata.name}`;
        this.pending.set(key, change.type === 'DELETED' ? { removed: p } : { added: p });
        this.schedule();
      },
    });
    this.schedule();
  }

  close(): void {
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
  }

  private schedule() {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().catch(e => this.logger.warn(`databases: catalog refresh failed: ${e}`));
    }, this.debounceMs);
    this.timer.unref?.();
  }

  /** Replaces the provider's entities with the current instances. */
  async refresh(): Promise<void> {
    if (!this.connection) return;
    const locationKey = this.getProviderName();
    this.pending.clear();
    const entities = this.clusters.cachedInstances().map(p => ({ entity: instanceToEntity(p, locationKey, this.clusters.config?.catalog), locationKey }));
    await this.connection.applyMutation({ type: 'full', entities });
    this.synced = true;
  }

  /** Sends what changed since the last write (everything, the first time or after a failure). */
  private async flush(): Promise<void> {
    if (!this.connection) return;
    if (!this.synced) {
      await this.refresh();
      return;
    }
    const changes = [...this.pending.values()];
    this.pending.clear();
    if (changes.length === 0) return;
    const locationKey = this.getProviderName();
    try {
      await this.connection.applyMutation({
        type: 'delta',
        added: changes.flatMap(c => (c.added ? [{ entity: instanceToEntity(c.added, locationKey, this.clusters.config?.catalog), locationKey }] : [])),
        removed: changes.flatMap(c => (c.removed ? [{ entity: instanceToEntity(c.removed, locationKey, this.clusters.config?.catalog), locationKey }] : [])),
      });
    } catch (e) {
      // the catalog may have missed these: the next write replaces everything
      this.synced = false;
      this.schedule();
      throw e;
    }
  }
}
