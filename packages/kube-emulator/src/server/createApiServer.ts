import type { IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { forbiddenError } from '../api/forbidden';
import { handleResource } from '../api/handleResource';
import { parseRequestInfo } from '../api/requestInfo';
import { OpenApiV2Endpoint } from '../openapi/OpenApiV2Endpoint';
import { errors, failure, writeError, writeJson } from '../api/status';
import type { RequestInfo, UserInfo } from '../api/types';
import { StoreError } from '../store/types';
import { alwaysAllowed } from './alwaysAllowed';
import { discoveryDocument } from './discoveryDocument';
import { BodyTooLarge, readBody } from './readBody';
import type {
  ApiServerFault,
  ApiServerFaultOptions,
  ApiServerHandle,
  ApiServerOptions,
} from './types';
import { versionInfo } from './versionInfo';

export type {
  ApiServerFault,
  ApiServerFaultOptions,
  ApiServerHandle,
  ApiServerOptions,
} from './types';

const HEALTH_PATHS = new Set(['/healthz', '/livez', '/readyz']);

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
      writeJson(res, 200, versionInfo(options.gitVersion ?? 'v1.33.0'));
      return;
    }
    const doc = discoveryDocument(path, store, aggregation, address);
    if (doc === undefined) throw errors.notFoundPath();
    if (path === '/openapi/v2') {
      // kubectl explain (≤ 1.27 always, newer with --output=plaintext-openapiv2) asks for protobuf only
      openapiV2.serve(req, res, doc as Record<string, unknown>);
      return;
    }
    writeJson(res, 200, doc);
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
