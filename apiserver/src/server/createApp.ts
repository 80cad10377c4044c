import { randomInt } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { DATABASES_API_GROUP, DATABASES_API_VERSION } from '@internal/plugin-databases-common';
import type { OperatorAdapter } from '../adapters/types';
import type { Authenticator, Authorizer, RequestInfo, UserInfo } from '../auth/types';
import type { BackupStore } from '../backups/BackupStore';
import type { ScheduleStore } from '../backups/ScheduleStore';
import type { InstanceStore } from '../cache/types';
import type { KubeWriter } from '../kube/KubeWriter';
import { createMetrics, type ApiserverMetrics } from '../metrics/createMetrics';
import { buildOpenApiV2, buildOpenApiV3 } from '../openapi/buildOpenApi';
import type { EngineValidationContexts } from '../writes/validateSpec';
import { buildStamp, packageVersion } from './buildInfo';
import { buildDiscovery, encodeDocument } from './discovery';
import { HEALTH_PATHS, healthChecks, renderHealth, sendHealth, type Readiness } from './health';
import { consoleLogger, type Logger } from './logger';
import { DEFAULT_MAX_IN_FLIGHT, MaxInFlight, releaseWhenDone, type MaxInFlightLimits } from './maxInFlight';
import { KeyedMutex, noPolicy, type PolicyChecker, type WriteDeps } from './mutate';
import { openapiV3Index, serveNonResource, type NonResourceDocuments } from './nonResource';
import { splitUrl } from './queryParams';
import { withHeadersDistinct } from './http2Headers';
import type { HandlerContext } from './readHandlers';
import { readBody } from './readBody';
import { getRequestInfo } from './requestInfo';
import { buildResourceTable } from './resourceTable';

export type { ResourceHandlers, VerbHandler } from './resourceTable';
import { sendStatusError } from './respond';
import {
  forbidden,
  internalError,
  methodNotAllowed,
  methodNotSupported,
  resourceNotFound,
  serviceUnavailable,
  StatusError,
  unauthorized,
} from './StatusError';

/** `version.Info` served at `/version`. */
export interface VersionInfo {
  major: string;
  minor: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

/** Options of {@link createApp}. */
export interface CreateAppOptions {
  store: InstanceStore;
  authenticator: Authenticator;
  authorizer: Authorizer;
  /** Feeds `/readyz` (checks appear by name; any failing one makes it 500). */
  readiness: () => Readiness;
  logger?: Logger;
  /** Period of watch BOOKMARKs (default 60 s, like kube-apiserver). */
  bookmarkIntervalMs?: number;
  version?: Partial<VersionInfo>;
  /** How long a request for a future resourceVersion waits before 504 (default 3 s). */
  tooLargeWaitMs?: number;
  /** How long continue tokens stay valid (default 5 min). */
  continueTtlMs?: number;
  /** Largest accepted request body (default 3 MiB, as kube-apiserver). */
  maxBodyBytes?: number;
  /** Resource requests served at once per pool, more get 429 (default 400 reads, 200 writes, as kube-apiserver). */
  maxInFlight?: MaxInFlightLimits;
  /**
   * Self-service writes (create, update, patch, delete, deletecollection, the `connection`
   * subresource). Without them the API is read-only: writes answer 405 and are not advertised.
   */
  writes?: WritesOptions;
  /** Serves `databasebackups` from it (every backup run of the operators that have backups). */
  backups?: BackupStore;
  /** Serves `databasebackupschedules` from it (every schedule this API serves). */
  schedules?: ScheduleStore;
}

/** What {@link createApp} needs to serve writes. */
export interface WritesOptions {
  /** Writes operator objects and reads Secrets with the apiserver's own credentials. */
  writer: KubeWriter;
  /** Adapters whose write sides validate and build operator objects. */
  adapters: readonly OperatorAdapter[];
  /** The platform team's limits; default: none. */
  policy?: PolicyChecker;
  /** How long a write waits for the watch cache to show it (read-your-writes, default 2 s). */
  cacheWaitMs?: number;
  /** Attempts of an update when our cache was behind kube-apiserver (default 3). */
  updateAttempts?: number;
  /** Per engine, what creates and updates validate against instead of the adapter's lists (`--engine-config`). */
  validation?: EngineValidationContexts;
}

const PASSWORD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** 24 alphanumerics (~143 bits): safe inside URIs and every engine's config files. */
const generatePassword = () =>
  Array.from({ length: 24 }, () => PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)]).join('');

/** `record[key]` when it is the record's own property (never an inherited Object member). */
const own = <V>(record: Partial<Record<string, V>>, key: string): V | undefined =>
  Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;

/** Lifecycle hooks of a created app, used by `startServer` and `main`. */
export interface AppControl {
  /** Makes `/readyz` fail with `[-]shutdown` (first step of a graceful shutdown). */
  beginShutdown(): void;
  /** Ends every open watch cleanly (clients resume elsewhere). */
  endWatches(): void;
  /** Number of open watches. */
  activeWatches(): number;
  metrics: ApiserverMetrics;
}

/**
 * The request handler with its control hooks. A plain `(req, res)` handler rather than an
 * Express app: it is served over HTTP/1.1 and HTTP/2 (Node's compatibility objects), and Express
 * swaps request prototypes for HTTP/1's, which breaks HTTP/2 requests.
 */
export type DatabasesApp = ((req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => void) & {
  control: AppControl;
};

const DEFAULT_MAX_BODY = 3 * 1024 * 1024;

function defaultVersion(): VersionInfo {
  const arch: Record<string, string> = { x64: 'amd64', ia32: '386', arm64: 'arm64' };
  return {
    ...packageVersion(),
    ...buildStamp(),
    goVersion: `node-${process.version}`,
    compiler: 'tsc',
    platform: `${process.platform}/${arch[process.arch] ?? process.arch}`,
  };
}

/**
 * Builds the aggregated apiserver's HTTP app: authentication, kube-style authorization
 * attributes, discovery, OpenAPI, get/list/watch of databaseinstances (and, with `writes`,
 * create/update/patch/delete/deletecollection and the `connection` subresource), get/list of
 * databaseengines, Table/metadata output, health and metrics. Every error is a `metav1.Status`.
 */
export function createApp(options: CreateAppOptions): DatabasesApp {
  const { store, authenticator, authorizer } = options;
  const logger = options.logger ?? consoleLogger;
  const tooLargeWaitMs = options.tooLargeWaitMs ?? 3000;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const inFlight = new MaxInFlight(options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
  const metrics = createMetrics({ storeSize: () => store.list().length, inFlight: kind => inFlight.inFlight(kind) });
  const watches = new Set<() => void>();
  let shuttingDown = false;

  const writes: WriteDeps | undefined = options.writes && {
    store,
    writer: options.writes.writer,
    adapters: options.writes.adapters,
    validation: options.writes.validation ?? {},
    policy: options.writes.policy ?? noPolicy,
    locks: new KeyedMutex(),
    logger,
    cacheWaitMs: options.writes.cacheWaitMs ?? 2000,
    updateAttempts: options.writes.updateAttempts ?? 3,
    recentCreates: new Map(),
    generatePassword,
    // spec.restoreFrom: the backup it names, and get on it as the user
    backups: options.backups,
    authorizer,
  };

  // discovery and routing follow this table: a verb is advertised exactly when it has a handler
  const table = buildResourceTable({
    store,
    backups: options.backups,
    schedules: options.schedules,
    writes,
    continueTtlMs: options.continueTtlMs,
    watch: {
      registry: { add: (e: () => void) => watches.add(e), delete: (e: () => void) => watches.delete(e) },
      metrics,
      logger,
      bookmarkIntervalMs: options.bookmarkIntervalMs ?? 60_000,
    },
  });

  const served = Object.values(table).map(t => t.served);
  const openapiV3 = encodeDocument(buildOpenApiV3(served));
  const docs: NonResourceDocuments = {
    discovery: buildDiscovery(served),
    openapiV2: encodeDocument(buildOpenApiV2(served)),
    openapiV3,
    openapiV3Index: encodeDocument(openapiV3Index(openapiV3.hash)),
    version: encodeDocument({ ...defaultVersion(), ...options.version }),
    metrics: async () => ({ contentType: metrics.registry.contentType, body: await metrics.registry.metrics() }),
  };

  const routeResource = async (ctx: HandlerContext) => {
    const { info } = ctx;
    if (info.apiGroup !== DATABASES_API_GROUP || info.apiVersion !== DATABASES_API_VERSION) throw resourceNotFound();
    // path segments index these tables: `constructor` or `__proto__` must not find Object's members
    const entry = own(table, info.resource);
    if (!entry || info.parts.length > 3) throw resourceNotFound();
    // an unsynced cache would serve partial lists; clients retry 503s that carry Retry-After
    if (!entry.synced()) {
      throw serviceUnavailable('the server is currently unable to handle the request: caches not synced yet');
    }
    const def = entry.served.definition;
    if (!def.namespaced && info.namespace) throw resourceNotFound();
    if (def.namespaced && !info.namespace && ctx.pathName) throw resourceNotFound();
    let handlers = entry.verbs;
    let label = def.plural;
    if (info.subresource) {
      const sub = own(entry.subresources, info.subresource);
      if (!sub) throw resourceNotFound();
      handlers = sub;
      label = `${def.plural}/${info.subresource}`;
    }
    const allNamespaces = def.namespaced && !info.namespace;
    // kube serves POST on collections only and PUT/PATCH on objects only: anything else would
    // create from a body whose name the URL contradicts, or update nothing in particular
    if (!info.subresource && ((info.verb === 'create' && ctx.pathName) || ((info.verb === 'update' || info.verb === 'patch') && !ctx.pathName))) {
      throw methodNotAllowed(ctx.req.method);
    }
    const handler = own(handlers, info.verb);
    if (!handler || (allNamespaces && info.verb !== 'list' && info.verb !== 'watch')) {
      throw methodNotSupported(label, info.verb || ctx.req.method?.toLowerCase() || '');
    }
    await handler(ctx);
  };

  const authorize = async (user: UserInfo, info: RequestInfo) => {
    // system:masters is never asked about, as in kube-apiserver
    if (user.groups.includes('system:masters')) return;
    let decision;
    try {
      decision = await authorizer.authorize(user, info);
    } catch (e) {
      if (e instanceof StatusError) throw e;
      logger.error('Authorization failed', { path: info.path, verb: info.verb, error: String(e) });
      throw internalError(`authorization check failed: ${(e as Error)?.message ?? e}`);
    }
    if (!decision.allowed) {
      throw forbidden({ ...info, user: user.username, reason: decision.reason });
    }
  };

  /** Everything after authentication and the in-flight gate. */
  const serveAuthenticated = async (
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: URLSearchParams,
    user: UserInfo,
    info: RequestInfo,
  ) => {
    await authorize(user, info);

    // bodies are read here so every verb shares the 413 (the write handlers take ctx.body)
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await readBody(req, maxBodyBytes);

    if (!info.isResourceRequest) {
      const health = /^\/(readyz|livez|healthz)\/([^/]+)$/.exec(path);
      if (health) {
        const endpoint = health[1] as 'healthz' | 'livez' | 'readyz';
        const check = healthChecks(endpoint, options.readiness, shuttingDown).find(c => c.name === health[2]);
        if (!check) throw resourceNotFound();
        sendHealth(res, check.ok ? { code: 200, body: 'ok' } : { code: 500, body: `internal server error: ${check.message ?? 'failed'}\n` });
        return undefined;
      }
      await serveNonResource(req, res, path, query, docs);
      return undefined;
    }
    await routeResource({ req, res, info, query, pathName: info.parts[1] ?? '', tooLargeWaitMs, body, user });
    return undefined;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && HEALTH_PATHS.has(path)) {
      const endpoint = path.slice(1) as 'healthz' | 'livez' | 'readyz';
      const result = renderHealth(endpoint, healthChecks(endpoint, options.readiness, shuttingDown), query);
      if (result.failed.length) {
        logger.warn(`${endpoint} check failed`, { failed: result.failed.map(c => `${c.name}: ${c.message ?? ''}`) });
      }
      sendHealth(res, result);
      return undefined;
    }
    let user: UserInfo;
    try {
      user = await authenticator.authenticate(req);
    } catch (e) {
      if (e instanceof StatusError) throw e;
      logger.warn('Authentication failed', { error: String(e) });
      throw unauthorized();
    }
    const info = getRequestInfo(req.method ?? 'GET', path, query);
    (res as ServerResponse & { requestInfo?: RequestInfo }).requestInfo = info;
    // between authentication and authorization, as in kube-apiserver's filter chain: a flood is
    // turned away before it costs SubjectAccessReviews
    const settled = releaseWhenDone(res, inFlight.admit(info, user));
    try {
      await serveAuthenticated(req, res, path, query, user, info);
    } finally {
      settled();
    }
    return undefined;
  };

  const fail = (req: IncomingMessage, res: ServerResponse, err: unknown) => {
    let status: StatusError;
    if (err instanceof StatusError) {
      status = err;
    } else {
      logger.error('Request failed', {
        method: req.method,
        url: req.url,
        error: String((err as Error)?.stack ?? err),
      });
      status = internalError((err as Error)?.message ?? String(err));
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    sendStatusError(res, status);
  };

  // Both protocols' objects are used through what they share (Node's HTTP/2 compatibility API
  // mirrors IncomingMessage and ServerResponse); the handlers are typed with HTTP/1's.
  const app = ((request: IncomingMessage | Http2ServerRequest, response: ServerResponse | Http2ServerResponse) => {
    const req = withHeadersDistinct(request);
    const res = response as ServerResponse;
    const started = process.hrtime.bigint();
    const { path, query } = splitUrl(req.url ?? '/');
    res.on('close', () => {
      const info = (res as ServerResponse & { requestInfo?: RequestInfo }).requestInfo;
      const verb = info?.verb ?? (req.method ?? '').toLowerCase();
      const labels = { verb, resource: info?.resource ?? '', subresource: info?.subresource ?? '' };
      metrics.requests.inc({ ...labels, code: String(res.statusCode) });
      if (verb !== 'watch') {
        metrics.requestDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
      }
    });
    handle(req, res, path, query).catch(err => {
      try {
        fail(req, res, err);
      } catch (e) {
        // the response is gone (client reset): nothing left to tell it
        logger.warn('Could not answer a failed request', { error: String(e) });
      }
    });
  }) as DatabasesApp;

  app.control = {
    beginShutdown: () => {
      shuttingDown = true;
    },
    endWatches: () => [...watches].forEach(end => end()),
    activeWatches: () => watches.size,
    metrics,
  };
  return app;
}
