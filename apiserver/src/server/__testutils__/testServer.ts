import https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { adapters as allAdapters } from '../../adapters/registry';
import { createApp, type CreateAppOptions, type DatabasesApp } from '../createApp';
import type { Readiness } from '../health';
import type { Logger } from '../logger';
import { startServer, type RunningServer, type ServerTimeouts } from '../startServer';
import { testServingCert } from './certs';
import { FakeAuthenticator, FakeAuthorizer } from './FakeAuth';
import { FakeInstanceStore } from './FakeInstanceStore';
import { FakeKubeWriter } from './FakeKubeWriter';
import type { PolicyChecker } from '../mutate/PolicyChecker';

/** A logger that keeps what it got. */
export function recordingLogger(): Logger & { entries: Array<{ level: string; message: string; fields?: unknown }> } {
  const entries: Array<{ level: string; message: string; fields?: unknown }> = [];
  return {
    entries,
    info: (message, fields) => entries.push({ level: 'info', message, fields }),
    warn: (message, fields) => entries.push({ level: 'warn', message, fields }),
    error: (message, fields) => entries.push({ level: 'error', message, fields }),
  };
}

/** A running HTTPS test server with its fakes. */
export interface TestServer {
  server: RunningServer;
  app: DatabasesApp;
  store: FakeInstanceStore;
  /** The fake kube-apiserver behind writes (operator objects, Secrets). */
  writer: FakeKubeWriter;
  authenticator: FakeAuthenticator;
  authorizer: FakeAuthorizer;
  logger: ReturnType<typeof recordingLogger>;
  readiness: Readiness;
  port: number;
  ca: string;
  request(path: string, init?: RequestInit): Promise<TestResponse>;
  watch(path: string, init?: RequestInit): Promise<WatchStream>;
  close(): Promise<void>;
}

/** Request options of the test client. */
export interface RequestInit {
  method?: string;
  headers?: Record<string, string>;
  /** Bearer token for the FakeAuthenticator (default `admin`, a system:masters user); null = none. */
  token?: string | null;
  body?: string;
}

/** A buffered response. */
export interface TestResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body's bytes as received (compressed when the server compressed it). */
  raw: Buffer;
  json(): any;
}

/** An open watch stream read line by line. */
export interface WatchStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** Resolves with the next event (parsed line), or rejects after `timeoutMs`. */
  next(timeoutMs?: number): Promise<any>;
  /** Resolves once the server ended the response (with the events still unread). */
  ended: Promise<void>;
  close(): void;
}

/**
 * Starts createApp on 127.0.0.1:0 over HTTPS with fake store, authn and authz, and writes
 * through a FakeKubeWriter over the real adapters (pass `writes: undefined` for a read-only app).
 */
export async function startTestServer(
  overrides: Partial<CreateAppOptions> = {},
  extra: { policy?: PolicyChecker; timeouts?: Partial<ServerTimeouts> } = {},
): Promise<TestServer> {
  const store = new FakeInstanceStore();
  const writer = new FakeKubeWriter(store, allAdapters);
  const authenticator = new FakeAuthenticator();
  const authorizer = new FakeAuthorizer();
  const logger = recordingLogger();
  const readiness: Readiness = { ready: true, checks: [{ name: 'informers-synced', ok: true }] };
  const app = createApp({
    store,
    authenticator,
    authorizer,
    logger,
    readiness: () => readiness,
    tooLargeWaitMs: 200,
    writes: { writer, adapters: allAdapters, cacheWaitMs: 200, policy: extra.policy },
    ...overrides,
  });
  const cert = testServingCert();
  const server = await startServer({ app, tls: cert, port: 0, host: '127.0.0.1', timeouts: extra.timeouts });
  const agent = new https.Agent({ ca: cert.cert, keepAlive: true });

  const open = (path: string, init: RequestInit = {}) =>
    new Promise<import('node:http').IncomingMessage & { req: import('node:http').ClientRequest }>((resolve, reject) => {
      const token = init.token === undefined ? 'admin' : init.token;
      const req = https.request(
        {
          host: '127.0.0.1',
          port: server.port,
          path,
          method: init.method ?? 'GET',
          agent,
          headers: {
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            // Node sends DELETE bodies unframed unless their length is given
            ...(init.body !== undefined ? { 'content-length': String(Buffer.byteLength(init.body)) } : {}),
            ...init.headers,
          },
        },
        res => resolve(Object.assign(res, { req })),
      );
      req.on('error', reject);
      if (init.body !== undefined) req.write(init.body);
      req.end();
    });

  const request = async (path: string, init?: RequestInit): Promise<TestResponse> => {
    const res = await open(path, init);
    const chunks: Buffer[] = [];
    for await (const c of res) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const body = raw.toString('utf8');
    return { status: res.statusCode ?? 0, headers: res.headers, body, raw, json: () => JSON.parse(body) };
  };

  const watch = async (path: string, init?: RequestInit): Promise<WatchStream> => {
    const res = await open(path, init);
    const queue: any[] = [];
    const waiters: Array<(v: any) => void> = [];
    let buffer = '';
    let resolveEnded!: () => void;
    const ended = new Promise<void>(r => (resolveEnded = r));
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (!line.trim()) continue;
        const ev = JSON.parse(line);
        const w = waiters.shift();
        if (w) w(ev);
        else queue.push(ev);
      }
    });
    res.on('end', () => resolveEnded());
    res.on('close', () => resolveEnded());
    return {
      status: res.statusCode ?? 0,
      headers: res.headers,
      ended,
      next: (timeoutMs = 2000) =>
        queue.length
          ? Promise.resolve(queue.shift())
          : new Promise((resolve, reject) => {
              let timer: NodeJS.Timeout | undefined = undefined;
              const done = (v: any) => {
                clearTimeout(timer);
                resolve(v);
              };
              timer = setTimeout(() => {
                const i = waiters.indexOf(done);
                if (i >= 0) waiters.splice(i, 1);
                reject(new Error(`no watch event within ${timeoutMs} ms`));
              }, timeoutMs);
              waiters.push(done);
            }),
      close: () => res.req.destroy(),
    };
  };

  return {
    server,
    app,
    store,
    writer,
    authenticator,
    authorizer,
    logger,
    readiness,
    port: server.port,
    ca: cert.cert,
    request,
    watch,
    close: async () => {
      agent.destroy();
      await server.close();
    },
  };
}
