import http2 from 'node:http2';
import type { RequestOptions } from 'node:https';
import tls from 'node:tls';
import { GO_HTTP2_CONNECTION_WINDOW, GO_HTTP2_SETTINGS } from './goHttp2';

/** Where an extension server is and how to dial it (see `backendTlsOptions`). */
export interface BackendTarget {
  host: string;
  port: number;
  tls: RequestOptions;
}

/** A connection to a backend: a pooled HTTP/2 session, or a TLS socket for one HTTP/1.1 request. */
export type BackendConnection =
  | { session: http2.ClientHttp2Session }
  | { socket: tls.TLSSocket };

/** Go's `http.Transport.IdleConnTimeout` of client-go's transports. */
const IDLE_MS = 90_000;
/** Go's `http.Transport.TLSHandshakeTimeout` of client-go's transports. */
export const TLS_HANDSHAKE_TIMEOUT_MS = 10_000;

/**
 * Connections to extension servers as kube-apiserver's aggregator keeps them: TLS offering `h2`
 * and `http/1.1` (ALPN), and for a server that picks `h2` one pooled HTTP/2 connection that
 * carries every proxied request, watches included. A server that answers HTTP/1.1 gets a fresh
 * connection per request.
 */
export class BackendConnections {
  private readonly sessions = new Map<string, http2.ClientHttp2Session>();
  /** A negotiation in flight per backend, so concurrent first requests share one session. */
  private readonly pending = new Map<string, Promise<BackendConnection>>();
  private closed = false;

  constructor(private readonly handshakeTimeoutMs = TLS_HANDSHAKE_TIMEOUT_MS) {}

  async open(target: BackendTarget): Promise<BackendConnection> {
    if (this.closed) throw new Error('the aggregation layer is stopping');
    const key = keyOf(target);
    const pooled = this.sessions.get(key);
    if (pooled && !pooled.closed && !pooled.destroyed) return { session: pooled };
    const inFlight = this.pending.get(key);
    if (inFlight) {
      const shared = await inFlight.catch(() => undefined);
      // an HTTP/1.1 socket is the first caller's own; this one dials again
      if (shared && 'session' in shared) return shared;
      return this.negotiate(target, key);
    }
    const negotiation = this.negotiate(target, key);
    this.pending.set(key, negotiation);
    try {
      return await negotiation;
    } finally {
      this.pending.delete(key);
    }
  }

  /** Closes every pooled session (streams in flight are cut). */
  closeAll(): void {
    this.closed = true;
    for (const s of this.sessions.values()) s.destroy();
    this.sessions.clear();
  }

  private async negotiate(target: BackendTarget, key: string): Promise<BackendConnection> {
    const socket = await dial(target, this.handshakeTimeoutMs);
    if (socket.alpnProtocol !== 'h2') return { socket };
    const authority = `https://${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}`;
    const session = http2.connect(authority, { settings: GO_HTTP2_SETTINGS, createConnection: () => socket });
    session.on('error', () => {}); // each stream reports its own failure
    session.setTimeout(IDLE_MS, () => session.close());
    // a closing session takes no new streams: the next request dials again
    const forget = () => {
      if (this.sessions.get(key) === session) this.sessions.delete(key);
    };
    session.once('close', forget);
    session.once('goaway', forget);
    await new Promise<void>((resolve, reject) => {
      session.once('connect', () => resolve());
      session.once('error', reject);
    });
    session.setLocalWindowSize(GO_HTTP2_CONNECTION_WINDOW);
    if (this.closed) {
      session.destroy();
      throw new Error('the aggregation layer is stopping');
    }
    this.sessions.set(key, session);
    return { session };
  }
}

function keyOf(t: BackendTarget): string {
  const o = t.tls;
  return JSON.stringify([t.host, t.port, o.servername, o.ca, o.rejectUnauthorized, o.cert]);
}

function dial(target: BackendTarget, handshakeTimeoutMs: number): Promise<tls.TLSSocket> {
  const o = target.tls;
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host: target.host,
      port: target.port,
      ca: o.ca,
      cert: o.cert,
      key: o.key,
      servername: o.servername,
      rejectUnauthorized: o.rejectUnauthorized,
      minVersion: o.minVersion,
      ALPNProtocols: ['h2', 'http/1.1'],
    });
    // an extension that accepts the connection but never completes TLS must not hold it forever
    const timer = setTimeout(() => socket.destroy(new Error('net/http: TLS handshake timeout')), handshakeTimeoutMs);
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      socket.removeListener('error', reject);
      resolve(socket);
    });
    socket.once('error', err => {
      clearTimeout(timer);
      reject(err);
    });
  });
}
