import type { LoggerService } from '@backstage/backend-plugin-api';
import type { EntityProvider, EntityProviderConnection } from '@backstage/plugin-catalog-node';
import type { ClusterSet } from '../watch/ClusterSet';
import { instanceToEntity } from './instanceToEntity';

/**
 * Emits every instance the shared watches see as a catalog `Resource`; a full mutation at most
 * once per `debounceMs` after changes, so a burst of status updates is one catalog write.
 */
export class DatabaseInstanceEntityProvider implements EntityProvider {
  private connection?: EntityProviderConnection;
  private timer?: NodeJS.Timeout;
  private unsubscribe?: () => void;

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
    this.unsubscribe = this.clusters.subscribe({ onInstance: () => this.schedule() });
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
      this.refresh().catch(e => this.logger.warn(`databases: catalog refresh failed: ${e}`));
    }, this.debounceMs);
    this.timer.unref?.();
  }

  /** Replaces the provider's entities with the current instances. */
  async refresh(): Promise<void> {
    if (!this.connection) return;
    const entities = this.clusters
      .cachedInstances()
      .map(p => ({ entity: instanceToEntity(p, this.getProviderName()), locationKey: this.getProviderName() }));
    await this.connection.applyMutation({ type: 'full', entities });
  }
}
