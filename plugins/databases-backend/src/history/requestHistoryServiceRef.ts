import { createServiceFactory, createServiceRef } from '@backstage/backend-plugin-api';
import type { RequestRecord } from '@internal/plugin-databases-common';
import type { HistoryStore } from './HistoryStore';

/** A request to keep in an instance's history. */
export type RequestEntry = Omit<RequestRecord, 'id' | 'at'>;

/**
 * The databases plugin's request history, for the requests another plugin of the same process
 * makes through {@link InstanceRequests} (the Scaffolder's creates): the store lives in the
 * databases plugin's own database, which only that plugin can open, so the plugin hands it
 * over here when it starts. Where it does not run (a backend without it), nothing is recorded.
 */
export class RequestHistory {
  private store?: HistoryStore;

  /** Called by the databases plugin once its store is migrated. */
  attach(store: HistoryStore): void {
    this.store = store;
  }

  async record(entry: RequestEntry): Promise<void> {
    await this.store?.recordRequest(entry);
  }
}

/** The process's {@link RequestHistory}. */
export const requestHistoryServiceRef = createServiceRef<RequestHistory>({
  id: 'databases.request-history',
  scope: 'root',
  defaultFactory: async service => createServiceFactory({ service, deps: {}, factory: () => new RequestHistory() }),
});
