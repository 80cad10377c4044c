import type { IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import {
  apiGroupDocument,
  apiGroupList,
  apiResourceList,
  apiVersions,
  discoveryGroups,
} from '../api/discovery';
import { forbiddenError } from '../api/forbidden';
import { handleResource } from '../api/handleResource';
import { openapiV3Document, openapiV3Index } from '../api/openapi';
import { parseRequestInfo } from '../api/requestInfo';
import { OpenApiV2Endpoint } from '../openapi/OpenApiV2Endpoint';
import { errors, failure, writeError, writeJson } from '../api/status';
import type {
  AggregationProxy,
  Authenticator,
  Authorizer,
  CustomHandler,
  Impersonator,
  RequestInfo,
  UserInfo,
} from '../api/types';
import { type ObjectStore, StoreError } from '../store/types';

/** Options of {@link createApiServer}. */
export interface ApiServerOptions {
  store: ObjectStore;
  tls: {
    key: string;
    cert: string;
    /** CA(s) client certificates are verified against at the TLS level (requested, not required). */
    ca: string;
  };
  authenticator: Authenticator;
  impersonator?: Impersonator;
  authorizer: Authorizer;
  /** Served before the generic resource handlers (e.g. TokenReview, SubjectAccessReview). */
  customHandlers?: CustomHandler[];
  aggregation?: AggregationProxy;
  /** Default 0 (any free port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Interval of watch BOOKMARK events when clients allow them (default 60 s, as kube-apiserver). */
  bookmarkIntervalMs?: number;
  /** Request body limit (default 3 MiB, as kube-apiserver). */
  maxBodyBytes?: number;
  /** gitVersion reported by /version (default v1.33.0). */
  gitVersion?: string;
}

/**
 * Fault injection for resilience tests: `unavailable` answers affected requests with 503 +
 * Retry-After, `hang` never answers them, `slow` answers them after a delay. `none` restores
 * normal service. Health probes are never affected.
 */
export type ApiServerFault = 'none' | 'unavailable' | 'hang' | 'slow';

/** Which requests a fault affects, and how it starts. */
export interface ApiServerFaultOptions {
  /**
   * `all` (default): every request, like a kube-apiserver that is gone. `storage`: only requests
   * served from the object store, like a kube-apiserver whose etcd is gone: authentication,
   * TokenReview, SubjectAccessReview, discovery and the aggregation proxy keep working from
   * memory, as they do in kube-apiserver.
   */
  scope?: 'all' | 'storage';
  /** Delay of `slow` (default 1000 ms). */
  delayMs?: number;
  /**
   * Cut the affected open streams when `unavailable` or `hang` starts (default true), as a
   * crash or a partition does: `all` destroys every connection, `storage` every open watch of
   * the store. Without it, open watches stay open and only new requests see the fault.
   */
  cutConnections?: boolean;
}

/** A running emulated kube-apiserver. */
export interface ApiServerHandle {
  url: string;
  port: number;
  server: https.Server;
  setFault(mode: ApiServerFault, options?: ApiServerFaultOptions): void;
  /**
   * Ends every open watch of the store without a final bookmark, so each client resumes from
   * its last resourceVersion (the store decides whether that is still in its history).
   */
  endWatches(): void;
  /**
   * The requests a `slow` fault holds back right now (method and URL), so that a test can act
   * once its requests are in flight instead of guessing how long they take to get there.
   */
  delayedRequests(): Array<{ method: string; url: string }>;
  /** Ends watches cleanly, closes connections and the listener. */
  close(): Promise<void>;
}

const PUBLIC_PATHS = new Set([
  '/healthz',
  '/livez',
  '/readyz',
  '/version',
  '/version/',
]);
const DISCOVERY_PATH = /^\/(api|apis|openapi)(\/.*)?$/;
const HEALTH_PATHS = new Set(['/healthz', '/livez', '/readyz']);
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Authorization kube's default RBAC grants without rules (system:discovery, system:public-info-viewer) plus system:masters. */
function alwaysAllowed(user: UserInfo, info: RequestInfo): boolean {
  if (user.groups.includes('system:masters')) return true;
  if (info.isResourceRequest) return false;
  if (PUBLIC_PATHS.has(info.path)) return true;
  return (
    user.groups.includes('system:authenticated') &&
    DISCOVERY_PATH.test(info.path)
  );
}

class BodyTooLarge extends Error {}

function readBody(
  req: IncomingMessage,
  limit: number,
): Promise<Buffer | undefined> {
  if (!BODY_METHODS.has(req.method ?? '')) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) {
      reject(new BodyTooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () =>
      resolve(chunks.length ? Buffer.concat(chunks) : undefined),
    );
    req.on('error', reject);
  });
}

/**
 * Starts the emulator's Kubernetes API on HTTPS (HTTP/1.1). Per request: RequestInfo →
 * authenticate (none ⇒ system:anonymous) → impersonate → aggregated groups are authorized and
 * proxied → authorize (kube's 403 message) → custom handlers → health/version/discovery →
 * generic resource handlers over the store. Every error is a metav1.Status.
 */
export async function createApiServer(
  options: ApiServerOptions,
): Promise<ApiServerHandle> {
  const { store, authenticator, authorizer, impersonator, aggregation } =
    options;
  const customHandlers = options.customHandlers ?? [];
  const maxBodyBytes = options.maxBodyBytes ?? 3 * 1024 * 1024;
  const host = options.host ?? '127.0.0.1';
  const watchEnders = new Set<(finalBookmark?: boolean) => void>();
  const hanging = new Set<ServerResponse>();
  const storeWatches = new Set<ServerResponse>();
  const delayed = new Set<{ method: string; url: string }>();
  let fault: ApiServerFault = 'none';
  let faultOptions: Required<ApiServerFaultOptions> = { scope: 'all', delayMs: 1000, cutConnections: true };
  let address = `${host}:0`;
  const openapiV2 = new OpenApiV2Endpoint();

  const ctx = {
    store,
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? 60_000,
    register: (end: (finalBookmark?: boolean) => void) => {
      watchEnders.add(end);
      return () => watchEnders.delete(end);
    },
  };

  /**
   * Applies the current fault to a request in its scope; resolves false when the fault
   * answered (or swallowed) it.
   */
  async function passFault(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    if (fault === 'slow') {
      const held = { method: req.method ?? '', url: req.url ?? '' };
      delayed.add(held);
      await new Promise(r => setTimeout(r, faultOptions.delayMs));
      delayed.delete(held);
      return true;
    }
    if (fault === 'hang') {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      // the body is never read: a client that sends one waits like for a black hole
      req.resume();
      return false;
    }
    if (fault === 'unavailable') {
      writeJson(
        res,
        503,
        failure(
          503,
          'ServiceUnavailable',
          'the server is currently unable to handle the request',
          { retryAfterSeconds: 1 },
        ),
        'application/json',
        {
          'Retry-After': '1',
        },
      );
      return false;
    }
    return true;
  }

  async function authenticate(req: IncomingMessage): Promise<UserInfo> {
    const user = await authenticator.authenticate(req);
    if (!user)
      return {
        username: 'system:anonymous',
        groups: ['system:unauthenticated'],
      };
    const groups = user.groups.includes('system:authenticated')
      ? user.groups
      : [...user.groups, 'system:authenticated'];
    return { ...user, groups };
  }

  function authorize(user: UserInfo, info: RequestInfo): void {
    if (alwaysAllowed(user, info)) return;
    const decision = authorizer.authorize(user, info);
    if (!decision.allowed) throw forbiddenError(user, info, decision.reason);
  }

  function serveNonResource(
    req: IncomingMessage,
    res: ServerResponse,
    info: RequestInfo,
  ): void {
    const path = info.path.replace(/\/+$/, '') || '/';
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      throw new StoreError(
        405,
        'MethodNotAllowed',
        'the server does not allow this method on the requested resource',
      );
    }
    if (HEALTH_PATHS.has(path)) {
      const verbose = new URL(req.url ?? '/', 'https://x').searchParams.has(
        'verbose',
      );
      const body = verbose
        ? `[+]ping ok\n[+]etcd ok\n${path.slice(1)} check passed\n`
        : 'ok';
      res.writeHead(200, {
        'Content-Type': 'text/plain; charset=utf-8',
        'X-Content-Type-Options': 'nosniff',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    if (path === '/version') {
      const gitVersion = options.gitVersion ?? 'v1.33.0';
      const [major, minor] = gitVersion.replace(/^v/, '').split('.');
      writeJson(res, 200, {
        major,
        minor,
        gitVersion,
        gitCommit: '0000000000000000000000000000000000000000',
        gitTreeState: 'clean',
        buildDate: '2025-05-01T00:00:00Z',
        goVersion: `node-${process.version}`,
        compiler: 'tsc',
        platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
      });
      return;
    }
    const doc = discoveryDocument(path);
    if (doc === undefined) throw errors.notFoundPath();
    if (path === '/openapi/v2') {
      // kubectl explain (≤ 1.27 always, newer with --output=plaintext-openapiv2) asks for protobuf only
      openapiV2.serve(req, res, doc as Record<string, unknown>);
      return;
    }
    writeJson(res, 200, doc);
  }

  /** Discovery and OpenAPI documents, built from memory (never from object storage). */
  function discoveryDocument(path: string): unknown {
    const resources = store.resources();
    const groups = discoveryGroups(resources, aggregation?.groups() ?? []);
    // Aggregated discovery v2 is answered with the v1 documents as plain application/json:
    // clients (kubectl, client-go) then fall back to per-group-version discovery.
    if (path === '/api') return apiVersions(address);
    if (path === '/apis') return apiGroupList(groups);
    const parts = path.split('/').slice(1);
    if (parts[0] === 'api' && parts.length === 2) {
      const doc = apiResourceList(resources, '', parts[1]);
      if (doc) return doc;
    }
    if (parts[0] === 'apis' && parts.length === 2) {
      const group = groups.find(g => g.name === parts[1]);
      if (group) return apiGroupDocument(group);
    }
    if (parts[0] === 'apis' && parts.length === 3) {
      const doc = apiResourceList(resources, parts[1], parts[2]);
      if (doc) return doc;
    }
    if (path === '/openapi/v2') {
      // kube-apiserver's merged v2 document; here only what aggregated servers contribute
      // (CRD schemas are not published in v2 by the emulator).
      const merged = aggregation?.openapiV2Spec?.();
      if (merged && Object.keys(merged.paths).length > 0) {
        return {
          swagger: '2.0',
          info: { title: 'Kubernetes', version: 'v1.33.0' },
          paths: merged.paths,
          definitions: merged.definitions,
        };
      }
      return undefined;
    }
    if (path === '/openapi/v3') {
      return {
        paths: {
          ...openapiV3Index(resources),
          ...(aggregation?.openapiV3Paths?.() ?? {}),
        },
      };
    }
    const oapi =
      /^\/openapi\/v3\/(?:api\/([^/]+)|apis\/([^/]+)\/([^/]+))$/.exec(path);
    if (oapi) {
      const doc = oapi[1]
        ? openapiV3Document(resources, '', oapi[1])
        : openapiV3Document(resources, oapi[2], oapi[3]);
      if (doc) return doc;
    }
    return undefined;
  }

  async function handle(
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    const info = parseRequestInfo(req.method ?? 'GET', req.url ?? '/');
    if (
      fault !== 'none' &&
      faultOptions.scope === 'all' &&
      !HEALTH_PATHS.has(info.path) &&
      !(await passFault(req, res))
    ) {
      return;
    }
    let body: Buffer | undefined;
    try {
      body = await readBody(req, maxBodyBytes);
    } catch (e) {
      if (e instanceof BodyTooLarge) {
        res.setHeader('Connection', 'close');
        writeError(res, errors.tooLarge(maxBodyBytes));
        return;
      }
      throw e;
    }
    const user = impersonator
      ? impersonator.apply(req, await authenticate(req))
      : await authenticate(req);
    if (aggregation?.handles(info)) {
      authorize(user, info);
      await aggregation.proxy(req, res, user, body);
      return;
    }
    authorize(user, info);
    for (const h of customHandlers) {
      if (h.handles(info)) {
        await h.handle(req, res, user, info, body);
        return;
      }
    }
    if (!info.isResourceRequest) {
      serveNonResource(req, res, info);
      return;
    }
    if (fault !== 'none' && faultOptions.scope === 'storage' && !(await passFault(req, res))) {
      return;
    }
    if (info.verb === 'watch') {
      storeWatches.add(res);
      res.on('close', () => storeWatches.delete(res));
    }
    await handleResource(req, res, info, body, ctx);
  }

  const server = https.createServer(
    {
      key: options.tls.key,
      cert: options.tls.cert,
      ca: options.tls.ca,
      requestCert: true,
      rejectUnauthorized: false,
    },
    (req, res) => {
      handle(req, res).catch(err => {
        if (res.headersSent) res.end();
        else writeError(res, err);
      });
    },
  );
  // Watches are long-running: only the watch's own timeoutSeconds ends them.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  server.keepAliveTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  address = `${host}:${port}`;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  return {
    url: `https://${urlHost}:${port}`,
    port,
    server,
    setFault(mode, opts = {}) {
      fault = mode;
      faultOptions = {
        scope: opts.scope ?? 'all',
        delayMs: opts.delayMs ?? 1000,
        cutConnections: opts.cutConnections ?? true,
      };
      if (mode !== 'hang') {
        for (const res of hanging) res.destroy();
        hanging.clear();
      }
      if ((mode === 'unavailable' || mode === 'hang') && faultOptions.cutConnections) {
        // a crash or a partition: streams stop mid-way, without the chunked terminator
        if (faultOptions.scope === 'all') server.closeAllConnections();
        else for (const res of [...storeWatches]) res.destroy();
      }
    },
    endWatches() {
      for (const end of [...watchEnders]) end(false);
    },
    delayedRequests: () => [...delayed].map(d => ({ ...d })),
    async close() {
      for (const end of [...watchEnders]) end();
      for (const res of hanging) res.destroy();
      await new Promise<void>(resolve => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 100).unref();
      });
    },
  };
}
