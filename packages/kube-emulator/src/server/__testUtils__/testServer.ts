import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { MemoryObjectStore } from '../../store/MemoryObjectStore';
import type {
  Authenticator,
  Authorizer,
  RequestInfo,
  UserInfo,
} from '../../api/types';
import {
  type ApiServerHandle,
  type ApiServerOptions,
  createApiServer,
} from '../createApiServer';
import { createTestCerts, type TestCerts } from './testCerts';

/** Bearer tokens the fake authenticator accepts; `bad-token` is rejected with 401. */
export const TOKENS: Record<string, UserInfo> = {
  'admin-token': { username: 'admin', groups: ['system:masters'] },
  'alice-token': { username: 'alice', groups: ['dev'] },
};

/** Accepts the tokens in {@link TOKENS}. */
export class FakeAuthenticator implements Authenticator {
  async authenticate(req: IncomingMessage): Promise<UserInfo | null> {
    const auth = req.headers.authorization;
    if (!auth) return null;
    const user = TOKENS[auth.replace(/^Bearer /, '')];
    if (!user) throw Object.assign(new Error('Unauthorized'), { code: 401 });
    return user;
  }
}

/** Allows what `allow` says; records every call. */
export class FakeAuthorizer implements Authorizer {
  readonly calls: Array<{ user: UserInfo; info: RequestInfo }> = [];
  constructor(
    private readonly allow: (
      user: UserInfo,
      info: RequestInfo,
    ) => boolean = () => true,
  ) {}
  authorize(user: UserInfo, info: RequestInfo) {
    this.calls.push({ user, info });
    return {
      allowed: this.allow(user, info),
      ...(this.allow(user, info) ? {} : { reason: '' }),
    };
  }
}

/** A started server with helpers for requests. */
export interface TestServer {
  handle: ApiServerHandle;
  store: MemoryObjectStore;
  certs: TestCerts;
  authorizer: FakeAuthorizer;
  request(
    method: string,
    path: string,
    opts?: RequestOptions,
  ): Promise<TestResponse>;
  /** Opens a stream and collects JSON lines until `until` returns true or `timeoutMs` passes. */
  watch(
    path: string,
    until: (events: any[]) => boolean,
    opts?: WatchOptions,
  ): Promise<WatchResult>;
}

export interface RequestOptions {
  token?: string | null;
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface WatchOptions extends RequestOptions {
  timeoutMs?: number;
  /** Called once the response headers arrived (the watch is established). */
  onOpen?: () => void;
}

export interface TestResponse {
  status: number;
  headers: IncomingMessage['headers'];
  text: string;
  json: any;
}

export interface WatchResult {
  status: number;
  headers: IncomingMessage['headers'];
  events: any[];
  /** true when the server ended the stream itself. */
  ended: boolean;
}

/** Starts createApiServer on 127.0.0.1:0 with throw-away certs and fake auth. */
export async function startTestServer(
  overrides: Partial<ApiServerOptions> & {
    allow?: (user: UserInfo, info: RequestInfo) => boolean;
  } = {},
): Promise<TestServer> {
  const certs = await createTestCerts();
  const store =
    (overrides.store as MemoryObjectStore) ?? new MemoryObjectStore();
  const authorizer = new FakeAuthorizer(overrides.allow);
  const handle = await createApiServer({
    store,
    tls: certs,
    authenticator: new FakeAuthenticator(),
    authorizer,
    ...overrides,
  });
  const agent = new https.Agent({ ca: certs.ca, keepAlive: false });

  const send = (method: string, path: string, opts: RequestOptions = {}) => {
    const token = opts.token === undefined ? 'admin-token' : opts.token;
    let body: string | Buffer | undefined;
    if (typeof opts.body === 'string' || Buffer.isBuffer(opts.body))
      body = opts.body;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    return https
      .request(`${handle.url}${path}`, {
        method,
        agent,
        headers: {
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...(body !== undefined
            ? { 'Content-Type': opts.contentType ?? 'application/json' }
            : {}),
          ...opts.headers,
        },
      })
      .end(body);
  };

  return {
    handle,
    store,
    certs,
    authorizer,
    request(method, path, opts = {}) {
      return new Promise((resolve, reject) => {
        const req = send(method, path, opts);
        req.on('error', reject);
        req.on('response', res => {
          const chunks: Buffer[] = [];
          res.on('data', c => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let json: any;
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text,
              json,
            });
          });
        });
      });
    },
    watch(path, until, opts = {}) {
      return new Promise((resolve, reject) => {
        const req = send('GET', path, opts);
        req.on('error', reject);
        req.on('response', res => {
          const events: any[] = [];
          let buffer = '';
          let done = false;
          let timer: NodeJS.Timeout | undefined = undefined;
          const finish = (ended: boolean) => {
            if (done) return;
            done = true;
            clearTimeout(timer);
            res.destroy();
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              events,
              ended,
            });
          };
          timer = setTimeout(() => finish(false), opts.timeoutMs ?? 5000);
          opts.onOpen?.();
          res.on('data', (c: Buffer) => {
            buffer += c.toString('utf8');
            for (
              let nl = buffer.indexOf('\n');
              nl >= 0;
              nl = buffer.indexOf('\n')
            ) {
              const line = buffer.slice(0, nl);
              buffer = buffer.slice(nl + 1);
              if (line.trim()) events.push(JSON.parse(line));
            }
            if (until(events)) finish(false);
          });
          res.on('end', () => {
            if (buffer.trim()) events.push(JSON.parse(buffer));
            finish(true);
          });
          res.on('error', () => finish(true));
        });
      });
    },
  };
}
