import { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import type { AuthService, BackstageCredentials, DiscoveryService } from '@backstage/backend-plugin-api';
import {
  AuthenticationError,
  ConflictError,
  InputError,
  NotAllowedError,
  NotFoundError,
  ResponseError,
  ServiceUnavailableError,
} from '@backstage/errors';
import type {
  CreateInstanceRequest,
  DatabaseInstance,
  EngineSize,
  ListEnginesResponse,
  PortalInstance,
  ReadyFrame,
} from '@internal/plugin-databases-common';
import type { CreateInstanceInput, DatabasesService, InstanceKey, WaitOptions } from './DatabasesService';

/** The Backstage errors the databases routes answer with, by name, so callers can tell them apart. */
const ERRORS: Record<string, new (message: string) => Error> = {
  AuthenticationError,
  ConflictError,
  InputError,
  NotAllowedError,
  NotFoundError,
  ServiceUnavailableError,
};

function backstageError(name: string | undefined, message: string): Error {
  const Known = name ? ERRORS[name] : undefined;
  if (Known) return new Known(message);
  const error = new Error(message);
  if (name) error.name = name;
  return error;
}

const path = (...segments: string[]) => segments.map(encodeURIComponent).join('/');

/**
 * {@link DatabasesService} over HTTP: the databases plugin's `/api/databases` routes, found by
 * discovery, called with a plugin request token on behalf of the user (as the catalog's client
 * is called from other plugins). Nothing of the databases backend runs in the calling plugin.
 */
export class DatabasesClient implements DatabasesService {
  constructor(private readonly deps: { discovery: DiscoveryService; auth: AuthService; fetch?: typeof fetch }) {}

  async createInstance(credentials: BackstageCredentials, input: CreateInstanceInput, dryRun: boolean): Promise<PortalInstance> {
    const body: CreateInstanceRequest = {
      name: input.name,
      owner: input.owner,
      spec: input.spec,
      ...(input.entityRef !== undefined && { entityRef: input.entityRef }),
      ...(input.entityMayBeNew !== undefined && { entityMayBeNew: input.entityMayBeNew }),
      dryRun,
    };
    const res = await this.call(credentials, 'POST', `clusters/${path(input.cluster)}/namespaces/${path(input.namespace)}/instances`, { body });
    return (await res.json()) as PortalInstance;
  }

  async engineSizes(credentials: BackstageCredentials, cluster: string, engine: string): Promise<EngineSize[] | undefined> {
    const res = await this.call(credentials, 'GET', `clusters/${path(cluster)}/engines`);
    const { items } = (await res.json()) as ListEnginesResponse;
    const found = items.find(e => e.spec.engine === engine || e.metadata?.name === engine);
    return found ? found.spec.sizes ?? [] : undefined;
  }

  async waitUntilReady(credentials: BackstageCredentials, key: InstanceKey, options: WaitOptions): Promise<DatabaseInstance> {
    const timeoutSeconds = Math.max(1, Math.ceil(options.timeoutMs / 1000));
    const res = await this.call(
      credentials,
      'GET',
      `clusters/${path(key.cluster)}/namespaces/${path(key.namespace)}/instances/${path(key.name)}/ready?timeoutSeconds=${timeoutSeconds}`,
      { accept: 'application/x-ndjson', signal: options.signal },
    );
    if (!res.body) throw new Error(`waiting for ${key.name}: the answer had no body`);
    const lines = createInterface({ input: Readable.fromWeb(res.body as any), crlfDelay: Infinity });
    try {
      for await (const line of lines) {
        if (!line.trim()) continue;
        const frame = JSON.parse(line) as ReadyFrame;
        if (frame.type === 'progress') options.onProgress?.(frame.instance);
        else if (frame.type === 'ready') return frame.instance;
        else throw backstageError(frame.error.name, frame.error.message);
      }
    } catch (e) {
      if (options.signal?.aborted) throw new Error(`waiting for ${key.name} was cancelled`);
      throw e;
    } finally {
      lines.close();
    }
    throw new Error(`waiting for ${key.name}: the databases backend ended the answer without a verdict`);
  }

  /** One call of a route as the user; an error answer is thrown as the Backstage error it carries. */
  private async call(
    credentials: BackstageCredentials,
    method: string,
    route: string,
    options: { body?: unknown; accept?: string; signal?: AbortSignal } = {},
  ): Promise<Response> {
    const { discovery, auth } = this.deps;
    const base = await discovery.getBaseUrl('databases');
    const { token } = await auth.getPluginRequestToken({ onBehalfOf: credentials, targetPluginId: 'databases' });
    const res = await (this.deps.fetch ?? fetch)(`${base}/${route}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        Accept: options.accept ?? 'application/json',
        ...(options.body !== undefined && { 'Content-Type': 'application/json' }),
      },
      ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
      signal: options.signal,
    });
    if (res.ok) return res;
    const error = await ResponseError.fromResponse(res);
    // the route's own error (name and message), not "Request failed with 403 Forbidden"
    throw error.body?.error ? backstageError(error.body.error.name, error.body.error.message) : error;
  }
}
