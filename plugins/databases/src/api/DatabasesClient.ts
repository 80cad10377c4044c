import type { DiscoveryApi, FetchApi } from '@backstage/core-plugin-api';
import type {
  CreateBackupRequest,
  CreateScheduleRequest,
  DeleteBackupResponse,
  DeleteScheduleResponse,
  PortalSchedule,
  UpdateScheduleRequest,
  ListBackupsResponse,
  PortalBackup,
  ClusterStatusEvent,
  ConnectionResponse,
  DatabaseInstanceDiagnosis,
  CreateInstanceRequest,
  DatabasesCluster,
  InstanceEvent,
  InstanceEventsResponse,
  InstanceHistoryResponse,
  InstanceKubeEventChange,
  ListEnginesResponse,
  ListInstancesQuery,
  ListInstancesResponse,
  GetInstanceResponse,
  PortalInstance,
  UpdateInstanceRequest,
} from '@internal/plugin-databases-common';
import { DatabasesApiError } from './DatabasesApiError';
import { createSseParser } from './parseSse';
import type { BackupsHandlers, DatabasesApi, DatabasesEventHandlers, InstanceEventsHandlers, InstanceRef, LiveListHandlers, SchedulesHandlers } from './types';

const e = encodeURIComponent;

const instancePath = (ref: InstanceRef) =>
  `/clusters/${e(ref.cluster)}/namespaces/${e(ref.namespace)}/instances/${e(ref.name)}`;

/** Builds a query string from the defined values only. */
export function toQueryString(query: object = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') {
      params.append(key, String(value));
    }
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

/**
 * {@link DatabasesApi} over HTTP: discovery finds the backend, fetchApi adds the user's token.
 * Live events come through a streamed fetch (EventSource cannot send the token).
 *
 * @public
 */
export class DatabasesClient implements DatabasesApi {
  private readonly discoveryApi: DiscoveryApi;
  private readonly fetchApi: FetchApi;
  /** Delay before reconnecting the event stream; doubles up to 30 s. */
  private readonly retryDelayMs: number;

  constructor(options: {
    discoveryApi: DiscoveryApi;
    fetchApi: FetchApi;
    retryDelayMs?: number;
  }) {
    this.discoveryApi = options.discoveryApi;
    this.fetchApi = options.fetchApi;
    this.retryDelayMs = options.retryDelayMs ?? 1000;
  }

  async listClusters(): Promise<DatabasesCluster[]> {
    const body = await this.request<{ items: DatabasesCluster[] } | DatabasesCluster[]>(
      '/clusters',
    );
    return Array.isArray(body) ? body : body.items;
  }

  listInstances(query?: ListInstancesQuery): Promise<ListInstancesResponse> {
    return this.request(`/instances${toQueryString(query)}`);
  }

  getInstance(ref: InstanceRef): Promise<GetInstanceResponse> {
    return this.request(instancePath(ref));
  }

  listEngines(cluster: string): Promise<ListEnginesResponse> {
    return this.request(`/clusters/${e(cluster)}/engines`);
  }

  createInstance(
    cluster: string,
    namespace: string,
    request: CreateInstanceRequest,
  ): Promise<PortalInstance> {
    return this.request(
      `/clusters/${e(cluster)}/namespaces/${e(namespace)}/instances`,
      { method: 'POST', body: request },
    );
  }

  updateInstance(
    ref: InstanceRef,
    request: UpdateInstanceRequest,
  ): Promise<PortalInstance> {
    return this.request(instancePath(ref), { method: 'PATCH', body: request });
  }

  async deleteInstance(ref: InstanceRef): Promise<void> {
    await this.request(instancePath(ref), { method: 'DELETE' });
  }

  getConnection(ref: InstanceRef): Promise<ConnectionResponse> {
    return this.request(`${instancePath(ref)}/connection`);
  }

  getDiagnosis(ref: InstanceRef): Promise<DatabaseInstanceDiagnosis> {
    return this.request(`${instancePath(ref)}/diagnosis`);
  }

  getInstanceEvents(ref: InstanceRef): Promise<InstanceEventsResponse> {
    return this.request(`${instancePath(ref)}/events`);
  }

  getHistory(ref: InstanceRef): Promise<InstanceHistoryResponse> {
    return this.request(`${instancePath(ref)}/history`);
  }

  listBackups(ref: InstanceRef): Promise<ListBackupsResponse> {
    return this.request(`${instancePath(ref)}/backups`);
  }

  watchBackups(ref: InstanceRef, handlers: BackupsHandlers): () => void {
    return this.followList(`${instancePath(ref)}/backups`, { list: 'backups', change: 'backup' }, handlers);
  }

  watchSchedules(ref: InstanceRef, handlers: SchedulesHandlers): () => void {
    return this.followList(`${instancePath(ref)}/schedules`, { list: 'schedules', change: 'schedule' }, handlers);
  }

  createSchedule(ref: InstanceRef, request: CreateScheduleRequest): Promise<PortalSchedule> {
    return this.request(`${instancePath(ref)}/schedules`, { method: 'POST', body: request });
  }

  updateSchedule(ref: InstanceRef, schedule: string, request: UpdateScheduleRequest): Promise<PortalSchedule> {
    return this.request(`${instancePath(ref)}/schedules/${e(schedule)}`, { method: 'PATCH', body: request });
  }

  deleteSchedule(ref: InstanceRef, schedule: string): Promise<DeleteScheduleResponse> {
    return this.request(`${instancePath(ref)}/schedules/${e(schedule)}`, { method: 'DELETE' });
  }

  /** A live list route's stream: the list event (`{ items }`), then one change event per change. */
  private followList<T, C>(path: string, events: { list: string; change: string }, handlers: LiveListHandlers<T, C>): () => void {
    return this.follow(path, handlers, (event, data) => {
      if (event === events.list) handlers.onList((data as { items: T[] }).items);
      else if (event === events.change) handlers.onChange(data as C);
      // the backend's watch failed: the stream ends, and is opened (and listed) again
      else if (event === 'error') handlers.onError?.(new Error((data as { message?: string }).message));
    });
  }

  createBackup(ref: InstanceRef, request: CreateBackupRequest = {}): Promise<PortalBackup> {
    return this.request(`${instancePath(ref)}/backups`, { method: 'POST', body: request });
  }

  deleteBackup(ref: InstanceRef, backup: string): Promise<DeleteBackupResponse> {
    return this.request(`${instancePath(ref)}/backups/${e(backup)}`, { method: 'DELETE' });
  }

  listEntityInstances(entityRef: string): Promise<ListInstancesResponse> {
    return this.request(`/entity-instances${toQueryString({ entityRef })}`);
  }

  subscribe(handlers: DatabasesEventHandlers): () => void {
    return this.follow('/events', handlers, (event, data) => {
      if (event === 'instance') handlers.onInstance?.(data as InstanceEvent);
      else if (event === 'cluster') handlers.onCluster?.(data as ClusterStatusEvent);
    });
  }

  watchInstanceEvents(ref: InstanceRef, handlers: InstanceEventsHandlers): () => void {
    return this.follow(`${instancePath(ref)}/events`, handlers, (event, data) => {
      if (event === 'events') handlers.onList((data as InstanceEventsResponse).items);
      else if (event === 'event') handlers.onChange(data as InstanceKubeEventChange);
      // the backend's watch failed: the stream ends, and is opened (and listed) again
      else if (event === 'error') handlers.onError?.(new Error((data as { message?: string }).message));
    });
  }

  /**
   * Reads the server-sent events at `path` until the returned function is called, opening the
   * stream again (backing off to 30 s) whenever it breaks or ends.
   */
  private follow(
    path: string,
    handlers: { onOpen?(): void; onError?(error: Error): void },
    onMessage: (event: string, data: unknown) => void,
  ): () => void {
    const controller = new AbortController();
    // Back-off state lives in an object so the callbacks below do not capture a loop variable.
    const backoff = { delay: this.retryDelayMs };
    const onOpen = () => {
      backoff.delay = this.retryDelayMs;
      handlers.onOpen?.();
    };
    const wait = () => new Promise(resolve => setTimeout(resolve, backoff.delay));
    const loop = async () => {
      while (!controller.signal.aborted) {
        try {
          await this.stream(path, controller.signal, onOpen, onMessage);
        } catch (error) {
          if (controller.signal.aborted) return;
          handlers.onError?.(error as Error);
        }
        if (controller.signal.aborted) return;
        await wait();
        backoff.delay = Math.min(backoff.delay * 2, 30_000);
      }
    };
    loop();
    return () => controller.abort();
  }

  private async stream(
    path: string,
    signal: AbortSignal,
    onOpen: () => void,
    onMessage: (event: string, data: unknown) => void,
  ): Promise<void> {
    const baseUrl = await this.discoveryApi.getBaseUrl('databases');
    const response = await this.fetchApi.fetch(`${baseUrl}${path}`, {
      headers: { Accept: 'text/event-stream' },
      signal,
    });
    if (!response.ok) throw await DatabasesApiError.fromResponse(response);
    if (!response.body) throw new Error('The event stream has no body');
    onOpen();
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const parse = createSseParser();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const message of parse(decoder.decode(value, { stream: true }))) {
        let data: unknown;
        try {
          data = JSON.parse(message.data);
        } catch {
          continue; // a broken event must not end the stream
        }
        onMessage(message.event, data);
      }
    }
    throw new Error('The event stream ended');
  }

  private async request<T>(
    path: string,
    init: { method?: string; body?: unknown } = {},
  ): Promise<T> {
    const baseUrl = await this.discoveryApi.getBaseUrl('databases');
    const response = await this.fetchApi.fetch(`${baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers:
        init.body === undefined
          ? { Accept: 'application/json' }
          : { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    if (!response.ok) throw await DatabasesApiError.fromResponse(response);
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }
}
