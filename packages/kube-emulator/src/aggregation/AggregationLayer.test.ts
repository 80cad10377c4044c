import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
} from '@jest/globals';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { UserInfo } from '../api/types';
import {
  createCertificates,
  EmulatorCertificateSet,
} from '../certs/createCertificates';
import {
  createCertificateAuthority,
  issueServingCert,
} from '../certs/issueCertificate';
import type { PemKeyPair } from '../certs/types';
import {
  request,
  startHttpServer,
  TestServer,
} from '../auth/__testUtils__/servers';
import { AggregationLayer } from './AggregationLayer';
import { APISERVICES, availableCondition, SERVICES } from './apiService';
import { FakeObjectStore } from './__testUtils__/FakeObjectStore';

const GROUP = 'dbaas.platform.dev';
const GV = `/apis/${GROUP}/v1alpha1`;

interface Seen {
  httpVersion: string;
  method: string;
  url: string;
  headers: Record<string, string[]>;
  peerCN?: string;
  peerVerified: boolean;
  body: string;
}

/** Request headers by name, every line kept (HTTP/2 requests have no `headersDistinct`). */
function distinct(req: http.IncomingMessage): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i].toLowerCase();
    if (!name.startsWith(':')) (out[name] ??= []).push(req.rawHeaders[i + 1]);
  }
  return out;
}

/**
 * The extension apiserver stand-in: records what it receives, serves a few behaviours by path.
 * With `h2` it offers HTTP/2 (and HTTP/1.1) as our apiserver does.
 */
class Backend {
  seen: Seen[] = [];
  discoveryStatus = 200;
  closedStreams = 0;
  releaseStream?: () => void;
  server!: https.Server | http2.Http2SecureServer;
  port = 0;
  /** TLS connections accepted so far. */
  connections = 0;
  /** HTTP/2 only: this many next requests are refused unprocessed, as by a server shutting down. */
  refuseNext = 0;
  refused = 0;
  /** Open HTTP/2 sessions (h2 only). */
  readonly sessions = new Set<http2.ServerHttp2Session>();
  private readonly sockets = new Set<Socket>();

  constructor(private readonly h2: boolean) {}

  async start(serving: PemKeyPair, frontProxyCa: PemKeyPair): Promise<void> {
    const options = {
      cert: serving.certPem,
      key: serving.keyPem,
      requestCert: true,
      rejectUnauthorized: false,
      ca: frontProxyCa.certPem,
    };
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => void this.handle(req, res);
    this.server = this.h2
      ? http2.createSecureServer({ ...options, allowHTTP1: true }, handler as any)
      : https.createServer(options, handler);
    if (this.h2) {
      (this.server as http2.Http2SecureServer).on('session', s => {
        this.sessions.add(s);
        s.on('close', () => this.sessions.delete(s));
      });
    }
    this.server.on('secureConnection', (s: Socket) => {
      this.connections++;
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>(r => this.server.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise(r => this.server.close(r));
  }

  last(pathPrefix: string): Seen | undefined {
    return [...this.seen].reverse().find(s => s.url.startsWith(pathPrefix));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const { stream } = req as unknown as { stream?: http2.ServerHttp2Stream };
    if (this.refuseNext > 0 && stream) {
      this.refuseNext--;
      this.refused++;
      // GOAWAY below this stream's id: it and every later one were not processed
      stream.session?.goaway(http2.constants.NGHTTP2_NO_ERROR, Math.max(0, stream.id! - 2));
      stream.close(http2.constants.NGHTTP2_REFUSED_STREAM);
      return;
    }
    const socket = req.socket as TLSSocket;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    this.seen.push({
      httpVersion: req.httpVersion,
      method: req.method ?? '',
      url: req.url ?? '',
      headers: distinct(req),
      peerCN: String(socket.getPeerCertificate()?.subject?.CN ?? ''),
      peerVerified: socket.authorized,
      body: Buffer.concat(chunks).toString(),
    });
    const path = (req.url ?? '').split('?')[0];
    if (path === GV) {
      res.writeHead(this.discoveryStatus, {
        'Content-Type': 'application/json',
      });
      res.end(
        JSON.stringify({
          kind: 'APIResourceList',
          groupVersion: `${GROUP}/v1alpha1`,
          resources: [],
        }),
      );
    } else if (path === '/openapi/v3') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          paths: {
            [`apis/${GROUP}/v1alpha1`]: {
              serverRelativeURL: `/openapi/v3${GV}?hash=ABC`,
            },
            api: { serverRelativeURL: '/openapi/v3/api?hash=X' },
          },
        }),
      );
    } else if (path.endsWith('/redirect')) {
      res.writeHead(302, { Location: 'https://elsewhere.example/' });
      res.end();
    } else if (path.endsWith('/stream')) {
      res.on('close', () => this.closedStreams++);
      res.writeHead(200, {
        'Content-Type': 'application/json',
        'X-Backend': 'yes',
      });
      res.write('{"type":"ADDED"}\n');
      await new Promise<void>(r => (this.releaseStream = r));
      res.end('{"type":"DELETED"}\n');
    } else {
      res.writeHead(201, {
        'Content-Type': 'application/json',
        'X-Backend': 'yes',
      });
      res.end(JSON.stringify({ ok: true }));
    }
  }
}

function apiService(
  name: string,
  group: string,
  version: string,
  ref: Record<string, unknown> | null,
  caPem?: string,
) {
  return {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name },
    spec: {
      group,
      version,
      groupPriorityMinimum: 1000,
      versionPriority: 15,
      ...(ref ? { service: ref } : {}),
      ...(caPem ? { caBundle: Buffer.from(caPem).toString('base64') } : {}),
    },
  };
}

function service(
  namespace: string,
  name: string,
  spec: Record<string, unknown>,
) {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { namespace, name },
    spec,
  };
}

describe.each([
  ['an HTTP/1.1 extension', false],
  ['an HTTP/2 extension', true],
])('AggregationLayer with %s', (_kind, h2) => {
  let certs: EmulatorCertificateSet;
  let store: FakeObjectStore;
  let layer: AggregationLayer;
  let backend: Backend;
  let front: TestServer;
  let user: UserInfo;

  const condition = (name: string) =>
    availableCondition(store.get(APISERVICES, undefined, name));

  beforeAll(async () => {
    certs = await createCertificates();
    const serving = await issueServingCert(
      certs.clusterCa,
      ['api.dbaas-system.svc', 'localhost'],
      ['127.0.0.1'],
    );
    backend = new Backend(h2);
    await backend.start(serving, certs.frontProxyCa);
    store = new FakeObjectStore();
    store.create(
      SERVICES,
      service('dbaas-system', 'api', {
        type: 'ClusterIP',
        clusterIP: '10.96.0.10',
        ports: [{ name: 'https', port: 443, targetPort: backend.port }],
      }),
    );
    store.create(
      APISERVICES,
      apiService(
        `v1alpha1.${GROUP}`,
        GROUP,
        'v1alpha1',
        { namespace: 'dbaas-system', name: 'api', port: 443 },
        certs.clusterCa.certPem,
      ),
    );
    layer = new AggregationLayer({
      store,
      frontProxyClient: certs.frontProxyClient,
      discoveryTimeoutMs: 2000,
    });
    layer.start();
    await layer.checkAvailability();
    // the pipeline in front of the layer: authn/authz are done, the body may or may not be read
    front = await startHttpServer(async (req, res) => {
      let body: Buffer | undefined;
      if (req.headers['x-test-read-body']) {
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        body = Buffer.concat(chunks);
      }
      await layer.proxy(req, res, user, body);
    });
  });

  afterAll(async () => {
    await layer.stop();
    await front.close();
    await backend.close();
  });

  // the front proxy's authenticated user; a test that needs another sets its own
  beforeEach(() => {
    user = { username: 'alice', groups: ['system:authenticated'] };
  });
  afterEach(() => {
    backend.releaseStream?.();
  });

  it('marks a reachable APIService Available=True (Passed) through the store status', () => {
    expect(condition(`v1alpha1.${GROUP}`)).toMatchObject({
      type: 'Available',
      status: 'True',
      reason: 'Passed',
      message: 'all checks passed',
    });
    expect(store.statusWrites.length).toBeGreaterThan(0);
  });

  it('probes discovery as system:kube-aggregator in system:masters with the front-proxy certificate', () => {
    const probe = backend.seen.find(s => s.url === GV);
    expect(probe).toMatchObject({
      method: 'GET',
      peerCN: 'front-proxy-client',
      peerVerified: true,
    });
    expect(probe?.headers['x-remote-user']).toEqual(['system:kube-aggregator']);
    expect(probe?.headers['x-remote-group']).toEqual(['system:masters']);
  });

  it('fetches the extension OpenAPI v3 index as system:aggregator and keeps only its group-version', () => {
    const fetch = backend.seen.find(s => s.url === '/openapi/v3');
    expect(fetch?.headers['x-remote-user']).toEqual(['system:aggregator']);
    expect(fetch?.headers['x-remote-group']).toBeUndefined();
    expect(layer.openapiV3Paths()).toEqual({
      [`apis/${GROUP}/v1alpha1`]: {
        serverRelativeURL: `/openapi/v3${GV}?hash=ABC`,
      },
    });
  });

  it('claims the group-version and its OpenAPI document, nothing else', () => {
    const info = (path: string) => ({
      isResourceRequest: false,
      path,
      verb: 'get',
      apiGroup: '',
      apiVersion: '',
      namespace: '',
      resource: '',
      subresource: '',
      name: '',
      parts: [],
    });
    expect(layer.handles(info(GV))).toBe(true);
    expect(layer.handles(info(`${GV}/namespaces/a/databaseinstances`))).toBe(
      true,
    );
    expect(layer.handles(info(`/openapi/v3${GV}`))).toBe(true);
    expect(layer.handles(info(`/apis/${GROUP}`))).toBe(false);
    expect(layer.handles(info('/apis/other.dev/v1/things'))).toBe(false);
    expect(layer.handles(info('/api/v1/namespaces'))).toBe(false);
  });

  it('lists its groups for /apis', () => {
    // other tests here register groups of their own, in whatever order the tests run
    const groups = layer.groups();
    expect(groups).toContainEqual({ name: GROUP, versions: ['v1alpha1'], preferredVersion: 'v1alpha1' });
    expect(new Set(groups.map(g => g.name)).size).toBe(groups.length);
  });

  it('rewrites identity headers as kube-apiserver does and drops client credentials', async () => {
    user = {
      username: 'alice',
      uid: 'u-1',
      groups: ['cn=dbas,dc=example', 'system:authenticated'],
      extra: { 'acme.com/project': ['p1'], scopes: ['openid', 'profile'] },
    };
    const res = await request(
      `${front.url}${GV}/namespaces/team-a/databaseinstances/a%3Ab?watch=0&b=2&a=x%20y`,
      {
        headers: {
          'X-Remote-User': 'mallory',
          'X-Remote-Group': 'system:masters',
          'X-Remote-Extra-Evil': 'yes',
          Authorization: 'Bearer secret',
          'Impersonate-User': 'root',
          'Audit-ID': 'audit-123',
          'X-Custom': 'kept',
        },
      },
    );
    expect(res.status).toBe(201);
    expect(res.headers['x-backend']).toBe('yes');
    const seen = backend.last(`${GV}/namespaces/team-a`)!;
    // kube-aggregator dials with ALPN h2,http/1.1: an extension that offers HTTP/2 gets it
    expect(seen.httpVersion).toBe(h2 ? '2.0' : '1.1');
    expect(seen.url).toBe(
      `${GV}/namespaces/team-a/databaseinstances/a%3Ab?a=x+y&b=2&watch=0`,
    );
    expect(seen.peerCN).toBe('front-proxy-client');
    expect(seen.peerVerified).toBe(true);
    expect(seen.headers['x-remote-user']).toEqual(['alice']);
    expect(seen.headers['x-remote-uid']).toEqual(['u-1']);
    expect(seen.headers['x-remote-group']).toEqual([
      'cn=dbas,dc=example',
      'system:authenticated',
    ]);
    expect(seen.headers['x-remote-extra-acme.com%2fproject']).toEqual(['p1']);
    expect(seen.headers['x-remote-extra-scopes']).toEqual([
      'openid',
      'profile',
    ]);
    expect(seen.headers['x-remote-extra-evil']).toBeUndefined();
    expect(seen.headers.authorization).toBeUndefined();
    expect(seen.headers['impersonate-user']).toBeUndefined();
    expect(seen.headers['audit-id']).toEqual(['audit-123']);
    expect(seen.headers['x-custom']).toEqual(['kept']);
  });

  it.each([
    ['POST', 'already read by the pipeline', { 'x-test-read-body': '1' }],
    ['POST', 'still in the request stream', {}],
    // kubectl delete sends DeleteOptions; Node's HTTP/2 client ends a DELETE stream unless told
    ['DELETE', 'already read by the pipeline', { 'x-test-read-body': '1' }],
    ['DELETE', 'still in the request stream', {}],
  ])('forwards a %s body %s', async (method, _, extraHeaders) => {
    user = { username: 'alice', groups: ['system:authenticated'] };
    const body = JSON.stringify({
      metadata: { name: `db-${method}-${Object.keys(extraHeaders).length}` },
    });
    const res = await request(
      `${front.url}${GV}/namespaces/team-a/databaseinstances`,
      {
        method,
        // as kubectl sends it (Node's client would send a DELETE body unframed)
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...extraHeaders },
        body,
      },
    );
    expect(res.status).toBe(201);
    const seen = backend.last(`${GV}/namespaces/team-a/databaseinstances`)!;
    expect(seen.method).toBe(method);
    expect(seen.body).toBe(body);
    expect(seen.headers['content-type']).toEqual(['application/json']);
  });

  // HTTP/2: every proxied request over one pooled connection; HTTP/1.1: a connection each
  it('dials the extension once over HTTP/2, once per request over HTTP/1.1', async () => {
    user = { username: 'alice', groups: ['system:authenticated'] };
    const path = `${front.url}${GV}/namespaces/team-a/databaseinstances`;
    expect((await request(path)).status).toBe(201);
    const before = backend.connections;
    const answers = await Promise.all(Array.from({ length: 5 }, () => request(path)));
    expect(answers.map(r => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(backend.connections - before).toBe(h2 ? 0 : 5);
  });

  if (h2) {
    it('dials again when the extension ends the pooled connection (GOAWAY, as at its shutdown)', async () => {
      user = { username: 'alice', groups: ['system:authenticated'] };
      const path = `${front.url}${GV}/namespaces/team-a/databaseinstances`;
      expect((await request(path)).status).toBe(201);
      const before = backend.connections;
      for (const s of backend.sessions) s.close();
      const answers = await Promise.all(Array.from({ length: 3 }, () => request(path)));
      expect(answers.map(r => [r.status, r.body])).toEqual(Array.from({ length: 3 }, () => [201, '{"ok":true}']));
      expect(backend.connections).toBeGreaterThan(before);
    });
  }

  if (h2) {
    // Go's HTTP/2 transport sends such a request again on a new connection (a request racing
    // the extension's graceful shutdown would otherwise fail with 503)
    it.each([
      ['GET', 'no body', {}],
      ['POST', 'a body already read by the pipeline', { 'x-test-read-body': '1' }],
      ['DELETE', 'a body already read by the pipeline', { 'x-test-read-body': '1' }],
    ])('sends a %s with %s again when the extension refuses its stream unprocessed', async (method, _, extraHeaders) => {
      user = { username: 'alice', groups: ['system:authenticated'] };
      const path = `${front.url}${GV}/namespaces/team-a/databaseinstances`;
      expect((await request(path)).status).toBe(201);
      const before = { connections: backend.connections, refused: backend.refused, seen: backend.seen.length };
      backend.refuseNext = 1;
      const body = method === 'GET' ? undefined : JSON.stringify({ metadata: { name: `again-${method}` } });
      const res = await request(path, {
        method,
        headers: body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...extraHeaders } : {},
        body,
      });
      expect([res.status, res.body]).toEqual([201, '{"ok":true}']);
      expect(backend.refused - before.refused).toBe(1);
      // processed once, on a new connection, with its body (the layer's own OpenAPI and
      // discovery fetches may come in between)
      const resource = backend.seen.slice(before.seen).filter(x => x.url.startsWith(`${GV}/namespaces/`));
      expect(resource.map(x => [x.method, x.body])).toEqual([[method, body ?? '']]);
      expect(backend.connections).toBeGreaterThan(before.connections);
    });

    it('does not send a streamed body twice: a refused one is a 503', async () => {
      user = { username: 'alice', groups: ['system:authenticated'] };
      const before = backend.seen.length;
      backend.refuseNext = 1;
      const body = JSON.stringify({ metadata: { name: 'streamed' } });
      const res = await request(`${front.url}${GV}/namespaces/team-a/databaseinstances`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
        body,
      });
      expect(res.status).toBe(503);
      expect(res.body).toContain('error trying to reach service');
      expect(backend.seen.slice(before).filter(x => x.url.startsWith(`${GV}/namespaces/`))).toEqual([]);
    });

    it('gives up after three refusals (a second of backoff) with a 503', async () => {
      user = { username: 'alice', groups: ['system:authenticated'] };
      const before = backend.refused;
      backend.refuseNext = 5;
      const res = await request(`${front.url}${GV}/namespaces/team-a/databaseinstances`);
      expect(res.status).toBe(503);
      expect(backend.refused - before).toBe(3);
      backend.refuseNext = 0;
      expect((await request(`${front.url}${GV}/namespaces/team-a/databaseinstances`)).status).toBe(201);
    });
  }

  it('streams a chunked response as it arrives and ends the backend request when the client leaves', async () => {
    user = { username: 'alice', groups: ['system:authenticated'] };
    const closedBefore = backend.closedStreams;
    const firstChunk = await new Promise<{
      status: number;
      chunk: string;
      req: http.ClientRequest;
    }>((resolve, reject) => {
      const req = http.get(
        `${front.url}${GV}/namespaces/team-a/databaseinstances/stream?watch=1`,
        { agent: false },
        res => {
          res.once('data', (c: Buffer) =>
            resolve({ status: res.statusCode ?? 0, chunk: c.toString(), req }),
          );
        },
      );
      req.on('error', reject);
    });
    // the backend has not finished its response: the first event got through unbuffered
    expect(firstChunk.status).toBe(200);
    expect(firstChunk.chunk).toBe('{"type":"ADDED"}\n');
    firstChunk.req.destroy();
    await waitFor(() => backend.closedStreams > closedBefore);
  });

  it('delivers the rest of a stream when the backend continues', async () => {
    user = { username: 'alice', groups: ['system:authenticated'] };
    backend.releaseStream = undefined;
    const pending = request(
      `${front.url}${GV}/namespaces/team-a/databaseinstances/stream`,
    );
    await waitFor(() => !!backend.releaseStream);
    backend.releaseStream!();
    const res = await pending;
    expect(res.body).toBe('{"type":"ADDED"}\n{"type":"DELETED"}\n');
  });

  it('turns a backend redirect into 502', async () => {
    const res = await request(`${front.url}${GV}/namespaces/team-a/redirect`);
    expect(res.status).toBe(502);
    expect(res.body).toBe(
      'the backend attempted to redirect this request, which is not permitted',
    );
    expect(res.headers.location).toBeUndefined();
  });

  it('writes FailedDiscoveryCheck when discovery is refused, and answers 503 service unavailable meanwhile', async () => {
    backend.discoveryStatus = 403;
    try {
      await layer.checkAvailability(`v1alpha1.${GROUP}`);
      const c = condition(`v1alpha1.${GROUP}`);
      expect(c).toMatchObject({
        status: 'False',
        reason: 'FailedDiscoveryCheck',
      });
      expect(c?.message).toContain(
        `bad status from https://127.0.0.1:${backend.port}${GV}: 403`,
      );
      expect(layer.openapiV3Paths()).toEqual({});
      const res = await request(
        `${front.url}${GV}/namespaces/team-a/databaseinstances`,
      );
      expect(res.status).toBe(503);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).toBe('service unavailable\n');
    } finally {
      backend.discoveryStatus = 200;
      await layer.checkAvailability(`v1alpha1.${GROUP}`);
    }
    expect(condition(`v1alpha1.${GROUP}`)).toMatchObject({
      status: 'True',
      reason: 'Passed',
    });
  });

  it.each<
    [
      string,
      Record<string, unknown> | null,
      Record<string, unknown> | null,
      string,
      string,
    ]
  >([
    [
      'ServiceNotFound',
      { namespace: 'nowhere', name: 'missing', port: 443 },
      null,
      'ServiceNotFound',
      'service/missing in "nowhere" is not present',
    ],
    [
      'ServicePortError',
      { namespace: 'dbaas-system', name: 'wrong-port', port: 443 },
      { ports: [{ port: 8443, targetPort: 1 }] },
      'ServicePortError',
      'service/wrong-port in "dbaas-system" is not listening on port 443',
    ],
  ])('writes %s', async (_, ref, svcSpec, reason, message) => {
    const name = `v1.${reason.toLowerCase()}.example.com`;
    if (svcSpec)
      store.create(
        SERVICES,
        service(String(ref!.namespace), String(ref!.name), svcSpec),
      );
    store.create(
      APISERVICES,
      apiService(name, `${reason.toLowerCase()}.example.com`, 'v1', ref),
    );
    await layer.checkAvailability(name);
    expect(condition(name)).toMatchObject({ status: 'False', reason, message });
    const res = await request(
      `${front.url}/apis/${reason.toLowerCase()}.example.com/v1/things`,
    );
    expect(res.status).toBe(503);
  });

  it('rejects a serving certificate the caBundle does not vouch for', async () => {
    const otherCa = await createCertificateAuthority('other');
    const name = 'v1.wrongca.example.com';
    store.create(
      SERVICES,
      service('dbaas-system', 'wrongca', {
        type: 'ExternalName',
        externalName: '127.0.0.1',
      }),
    );
    store.create(
      APISERVICES,
      apiService(
        name,
        'wrongca.example.com',
        'v1',
        { namespace: 'dbaas-system', name: 'wrongca', port: backend.port },
        otherCa.certPem,
      ),
    );
    await layer.checkAvailability(name);
    expect(condition(name)).toMatchObject({
      status: 'False',
      reason: 'FailedDiscoveryCheck',
    });
  });

  it('marks a local APIService (no service) available and never proxies it', async () => {
    const name = 'v1.local.example.com';
    store.create(
      APISERVICES,
      apiService(name, 'local.example.com', 'v1', null),
    );
    await layer.checkAvailability(name);
    expect(condition(name)).toMatchObject({ status: 'True', reason: 'Local' });
    expect(layer.groups().map(g => g.name)).not.toContain('local.example.com');
  });

  it('checks a new APIService as soon as it is created and follows deletions', async () => {
    const name = 'v1beta1.dbaas.platform.dev';
    store.create(APISERVICES, {
      ...apiService(
        name,
        GROUP,
        'v1beta1',
        { namespace: 'dbaas-system', name: 'api', port: 443 },
        certs.clusterCa.certPem,
      ),
    });
    await waitFor(() => condition(name)?.status === 'True');
    expect(layer.groups().find(g => g.name === GROUP)?.versions).toEqual([
      'v1beta1',
      'v1alpha1',
    ]);
    store.delete(APISERVICES, undefined, name);
    expect(layer.groups().find(g => g.name === GROUP)?.versions).toEqual([
      'v1alpha1',
    ]);
  });

  it('answers 503 with the proxy error when the extension is down, then marks it unavailable', async () => {
    const serving = await issueServingCert(certs.clusterCa, ['api.down.svc']);
    const down = new Backend(h2);
    await down.start(serving, certs.frontProxyCa);
    const name = 'v1.down.example.com';
    store.create(
      SERVICES,
      service('down', 'api', { ports: [{ port: 443, targetPort: down.port }] }),
    );
    store.create(APISERVICES, {
      ...apiService(
        name,
        'down.example.com',
        'v1',
        { namespace: 'down', name: 'api' },
        certs.clusterCa.certPem,
      ),
    });
    await layer.checkAvailability(name);
    expect(condition(name)?.status).toBe('True');
    await down.close();
    const res = await request(`${front.url}/apis/down.example.com/v1/things`);
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toMatch(/^error trying to reach service: .*ECONNREFUSED/);
    await layer.checkAvailability(name);
    expect(condition(name)).toMatchObject({
      status: 'False',
      reason: 'FailedDiscoveryCheck',
    });
    expect(
      (await request(`${front.url}/apis/down.example.com/v1/things`)).body,
    ).toBe('service unavailable\n');
  });
});

async function waitFor(
  predicate: () => boolean,
  timeoutMs = 5000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise(r => setTimeout(r, 10));
  }
}
