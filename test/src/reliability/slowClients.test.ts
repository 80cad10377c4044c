import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { KubeConfig, Watch } from '@kubernetes/client-node';
import { kubectlBinaries, runKubectl } from '../support/kubectl';
import { startSystem, type System } from '../support/startSystem';
import { eventually } from './support/eventually';
import { kubeHttp } from './support/kubeHttp';

// Small bounds so each attack is cut within seconds (defaults: 32 s, 60 s, 32 s). Node checks the
// header and request deadlines every quarter of the smallest one (250 ms here).
const HEADER_S = 1;
const REQUEST_S = 2;
const HANDSHAKE_S = 1;
const TEAM_A = '/apis/dbaas.platform.dev/v1alpha1/namespaces/team-a/databaseinstances';

/** A raw connection to the apiserver's port and what became of it. */
interface Probe {
  received: Buffer;
  /** ms from `since` (the handshake's end, or the TCP connect for raw sockets) to the close. */
  closedAfter: Promise<number>;
  sent: number;
}

function observe(socket: net.Socket, since: number): Probe {
  const probe: Probe = { received: Buffer.alloc(0), sent: 0, closedAfter: undefined as never };
  socket.on('data', d => (probe.received = Buffer.concat([probe.received, d])));
  socket.on('error', () => undefined);
  probe.closedAfter = new Promise(resolve => socket.on('close', () => resolve(Date.now() - since)));
  return probe;
}

/** A TLS connection to the apiserver (no client certificate: an attacker has none). */
function tlsConnect(port: number): Promise<{ socket: tls.TLSSocket; probe: Probe }> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      socket.off('error', reject);
      resolve({ socket, probe: observe(socket, Date.now()) });
    });
    socket.once('error', reject);
  });
}

/** Writes `data` one byte every `everyMs` until it is all sent or the server closed the socket. */
function trickle(socket: net.Socket, probe: Probe, data: string, everyMs: number): void {
  const timer = setInterval(() => {
    if (probe.sent >= data.length || socket.destroyed) {
      clearInterval(timer);
      return;
    }
    socket.write(data[probe.sent++]);
  }, everyMs);
  socket.on('close', () => clearInterval(timer));
}

/**
 * Slowloris in `lanes` lanes: each lane opens a new attacker (trickling `head`) every half
 * header bound, and the server cuts each at the bound, so every lane has one connected at any
 * moment however long the client under test takes to start. `stop` ends the new connections and
 * returns every attacker opened.
 */
function attackInLanes(port: number, lanes: number, head: string) {
  const opened: Array<{ lane: number; socket: tls.TLSSocket; probe: Probe }> = [];
  const connecting: Array<Promise<void>> = [];
  const timers = new Map<number, NodeJS.Timeout>();
  let stopped = false;
  const open = (lane: number) => {
    if (stopped) return;
    connecting.push(
      tlsConnect(port).then(({ socket, probe }) => {
        opened.push({ lane, socket, probe });
        trickle(socket, probe, head, 100);
      }),
    );
    timers.set(lane, setTimeout(() => open(lane), (HEADER_S * 1000) / 2));
  };
  for (let lane = 0; lane < lanes; lane++) open(lane);
  return {
    /** Lanes with an attacker connected now. */
    connectedLanes: () => new Set(opened.filter(a => !a.socket.destroyed).map(a => a.lane)).size,
    stop: async () => {
      stopped = true;
      timers.forEach(t => clearTimeout(t));
      await Promise.all(connecting);
      return opened;
    },
  };
}

/** The parts of a raw HTTP/1.1 answer. */
function parseAnswer(raw: Buffer): { status: number; headers: string; body: string } {
  const text = raw.toString('utf8');
  const end = text.indexOf('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), headers: text.slice(0, end), body: text.slice(end + 4) };
}

describe('slow clients (slowloris) against the apiserver port', () => {
  let system: System;
  let kc: KubeConfig;
  let port: number;
  const kubectl = () => kubectlBinaries([])[0].file;

  beforeAll(async () => {
    system = await startSystem({
      seed: true,
      apiserver: {
        readHeaderTimeoutSeconds: HEADER_S,
        readTimeoutSeconds: REQUEST_S,
        tlsHandshakeTimeoutSeconds: HANDSHAKE_S,
        // one write at a time, so the test can see how long a trickled body holds its slot
        maxMutatingRequestsInflight: 1,
      },
    });
    system.emulator.operators.settle();
    kc = new KubeConfig();
    kc.loadFromString(system.emulator.kubeconfig('admin'));
    port = system.apiserver.port;
  }, 60_000);

  afterAll(async () => {
    await system?.stop();
  });

  /** kube-apiserver's `apiserver_current_inflight_requests{request_kind="mutating"}`, as the apiserver reports it. */
  const mutatingInFlight = async () => {
    const text = await system.apiserver.app.control.metrics.registry.metrics();
    return Number(/^apiserver_current_inflight_requests\{request_kind="mutating"\} (\d+)$/m.exec(text)?.[1] ?? NaN);
  };

  it('cuts request headers sent byte by byte at the header bound with a 408 Status, and serves kubectl meanwhile', async () => {
    const head = `GET ${TEAM_A} HTTP/1.1\r\nHost: api\r\nAuthorization: Bearer alice-token\r\nAccept: application/json\r\nUser-Agent: ${'s'.repeat(200)}\r\n\r\n`;
    // 20 lanes of attackers; each byte is activity, so only an absolute deadline (not an idle
    // timeout) cuts them
    const lanes = attackInLanes(port, 20, head);
    // also a client that completes the handshake and then sends nothing at all
    const silent = await tlsConnect(port);
    await eventually(() => lanes.connectedLanes() === 20, 10_000, () => `${lanes.connectedLanes()} lanes connected`);

    let lanesWhenServed: number | undefined = undefined;
    const onRequest = (req: { url?: string }) => {
      if (lanesWhenServed === undefined && req.url?.startsWith(TEAM_A)) lanesWhenServed = lanes.connectedLanes();
    };
    system.apiserver.server.server.on('request', onRequest);
    let attackers: Array<{ probe: Probe }>;
    try {
      const listed = await runKubectl(kubectl(), system.kubeconfig, system.dir, ['get', 'dbi', '-n', 'team-a', '-o', 'name']);
      expect(listed.stderr).toBe('');
      expect(listed.stdout).toContain('databaseinstance.dbaas.platform.dev/orders-db');
    } finally {
      system.apiserver.server.server.off('request', onRequest);
      attackers = await lanes.stop();
    }
    // kubectl's list reached the apiserver while an attacker of every lane was connected
    expect(lanesWhenServed).toBe(20);

    for (const { probe } of [...attackers, silent]) {
      const after = await probe.closedAfter;
      expect(after).toBeGreaterThanOrEqual(HEADER_S * 1000 - 50);
      expect(after).toBeLessThan(HEADER_S * 1000 + 4000);
      expect(probe.sent).toBeLessThan(head.length);
      const answer = parseAnswer(probe.received);
      expect(answer.status).toBe(408);
      expect(answer.headers).toMatch(/\r\nConnection: close/i);
      expect(JSON.parse(answer.body)).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'the request was not received in time',
        reason: 'Timeout',
        code: 408,
      });
    }
  }, 30_000);

  it('cuts a body trickled slower than the request bound without an answer: nothing is written, and its write slot comes back', async () => {
    const body = JSON.stringify({
      apiVersion: 'dbaas.platform.dev/v1alpha1',
      kind: 'DatabaseInstance',
      metadata: { name: 'trickled-db', namespace: 'team-a' },
      spec: { engine: 'redis', topology: 'standalone' },
    });
    const { socket, probe } = await tlsConnect(port);
    const head = `POST ${TEAM_A} HTTP/1.1\r\nHost: api\r\nAuthorization: Bearer alice-token\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    socket.write(head);
    trickle(socket, probe, body, 100);

    // the trickled create holds the only write slot (once authenticated): another writer is
    // turned away meanwhile
    await eventually(async () => (await mutatingInFlight()) === 1, REQUEST_S * 1000, () => 'the trickled create never took the write slot');
    const direct = (method: string, path: string, payload?: string) =>
      new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
        const req = https.request(
          { host: '127.0.0.1', port, path, method, rejectUnauthorized: false, headers: { Authorization: 'Bearer alice-token', 'Content-Type': 'application/json' } },
          res => {
            let text = '';
            res.on('data', d => (text += d));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
          },
        );
        req.on('error', reject);
        req.end(payload);
      });
    const other = JSON.stringify({ metadata: { name: 'after-trickle' }, spec: { engine: 'redis', topology: 'standalone' } });
    const refused = await direct('POST', TEAM_A, other);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(JSON.parse(refused.body)).toMatchObject({ kind: 'Status', code: 429, reason: 'TooManyRequests' });
    // reads are another pool
    expect((await direct('GET', `${TEAM_A}/orders-db`)).status).toBe(200);

    const after = await probe.closedAfter;
    expect(after).toBeGreaterThanOrEqual(REQUEST_S * 1000 - 50);
    expect(after).toBeLessThan(REQUEST_S * 1000 + 4000);
    expect(probe.sent).toBeLessThan(body.length);
    // Node closes a connection whose request is already being handled: no answer at all
    expect(probe.received.length).toBe(0);
    expect((await kubeHttp(kc, 'GET', `${TEAM_A}/trickled-db`)).status).toBe(404);

    const accepted = await direct('POST', TEAM_A, other);
    expect(accepted.status).toBe(201);
    expect((await kubeHttp(kc, 'DELETE', `${TEAM_A}/after-trickle`)).status).toBe(200);
  }, 30_000);

  it('closes TCP connections that never finish a TLS handshake at the handshake bound', async () => {
    const started = Date.now();
    const connect = () =>
      new Promise<net.Socket>((resolve, reject) => {
        const s = net.connect(port, '127.0.0.1', () => resolve(s));
        s.once('error', reject);
      });
    // one says nothing, one starts a ClientHello and stalls, one sends a ClientHello a byte every
    // 100 ms (a 256-byte TLS record: OpenSSL waits for all of it, so only the deadline ends this)
    const [quiet, partial, dribbling] = await Promise.all([connect(), connect(), connect()]);
    const probes = [quiet, partial, dribbling].map(s => observe(s, started));
    const hello = Buffer.concat([Buffer.from([0x16, 0x03, 0x01, 0x01, 0x00, 0x01, 0x00, 0x00, 0xfc, 0x03, 0x03]), Buffer.alloc(245)]);
    partial.write(hello.subarray(0, 6));
    let dripped = 0;
    const drip = setInterval(() => dribbling.writable && dribbling.write(hello.subarray(dripped, ++dripped)), 100);
    try {
      for (const probe of probes) {
        const after = await probe.closedAfter;
        expect(after).toBeGreaterThanOrEqual(HANDSHAKE_S * 1000 - 50);
        expect(after).toBeLessThan(HANDSHAKE_S * 1000 + 4000);
        expect(probe.received.length).toBe(0);
      }
      expect(dripped).toBeLessThan(hello.length);
    } finally {
      clearInterval(drip);
    }
  }, 30_000);

  it('keeps serving kubectl and client-node with 200 idle keep-alive connections open', async () => {
    // idle between requests is not "sending slowly": only the keep-alive timeout (120 s) applies
    const idle = await Promise.all(
      Array.from({ length: 200 }, async () => {
        const { socket, probe } = await tlsConnect(port);
        socket.write('GET /healthz HTTP/1.1\r\nHost: api\r\n\r\n');
        await eventually(() => probe.received.toString().endsWith('ok'), 10_000);
        return { socket, probe };
      }),
    );
    try {
      // longer than both bounds: the idle connections are still open
      await new Promise(r => setTimeout(r, (REQUEST_S + 1) * 1000));
      expect(idle.filter(c => c.socket.destroyed)).toHaveLength(0);
      const listed = await runKubectl(kubectl(), system.kubeconfig, system.dir, ['get', 'dbi', '-A', '-o', 'name']);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain('databaseinstance.dbaas.platform.dev/orders-db');
      const res = await kubeHttp(kc, 'GET', TEAM_A, { timeoutMs: 10_000 });
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeGreaterThan(0);
      expect(idle.every(c => parseAnswer(c.probe.received).status === 200)).toBe(true);
    } finally {
      idle.forEach(c => c.socket.destroy());
    }
  }, 40_000);

  it('does not cut a watch that lives longer than the request bound: it keeps streaming events', async () => {
    const events: Array<{ type: string; at: number; name?: string }> = [];
    let ended: unknown = 'open';
    const started = Date.now();
    const controller = await new Watch(kc).watch(
      TEAM_A,
      { allowWatchBookmarks: true, resourceVersion: '0' },
      (type, obj) => events.push({ type, at: Date.now() - started, name: obj?.metadata?.name }),
      err => (ended = err ?? 'ended'),
    );
    try {
      const lifetime = (REQUEST_S + 2) * 1000;
      await new Promise(r => setTimeout(r, lifetime));
      const patched = await kubeHttp(kc, 'PATCH', `${TEAM_A}/orders-db`, {
        body: { metadata: { labels: { 'slow-clients': String(Date.now()) } } },
        contentType: 'application/merge-patch+json',
      });
      expect(patched.status).toBe(200);
      await eventually(() => events.some(e => e.type === 'MODIFIED' && e.name === 'orders-db' && e.at >= lifetime), 10_000, () => JSON.stringify(events.slice(-5)));
      expect(ended).toBe('open');
      // bookmarks (1 s in these tests) kept arriving through the request bound too
      expect(events.some(e => e.type === 'BOOKMARK' && e.at > REQUEST_S * 1000)).toBe(true);
    } finally {
      controller.abort();
    }
  }, 30_000);
});
