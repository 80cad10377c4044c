import { constants as cryptoConstants } from 'node:crypto';
import http from 'node:http';
import http2, { type Http2Session, type ServerHttp2Stream } from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { answerClientError } from './clientError';
import type { DatabasesApp } from './createApp';

/** Largest request head accepted, as Go's `http.DefaultMaxHeaderBytes`. */
export const MAX_HEADER_BYTES = 1024 * 1024;

/** How long a client may take to send, in milliseconds; 0 = unbounded. */
export interface ServerTimeouts {
  /**
   * Request line and headers, counted from the request's first byte (for a connection's first
   * request, from the end of the TLS handshake, so a client that connects and sends nothing is
   * cut too). Answered with a `408` Status, then the connection is closed.
   */
  headersMs: number;
  /**
   * The whole request, body included, from the same start. Only receiving counts: a response may
   * take as long as it needs, so watches are never cut by it. A request cut while its body is
   * still arriving has its connection closed without an answer (its handler already owns it).
   */
  requestMs: number;
  /** TLS handshake, from the TCP connection; the connection is then closed. */
  handshakeMs: number;
}

/**
 * kube-apiserver's `http.Server` (k8s.io/apiserver/pkg/server/secure_serving.go) sets
 * `ReadHeaderTimeout: 32 * time.Second` ("just shy of requestTimeoutUpperBound"), and Go bounds the
 * TLS handshake by that same value (`tlsHandshakeTimeout()`: the least of ReadHeaderTimeout,
 * ReadTimeout, WriteTimeout), so both are 32 s here. Client-go gives up on a handshake after 10 s
 * (Go's `http.DefaultTransport`) but Node clients do not, and on a starved CPU a reconnect storm
 * comes near that: 1,000 watches took 10 s to open on a 2-core machine
 * (test/src/reliability/faults-sigterm.test.ts). kube sets no ReadTimeout: its 60 s
 * `--request-timeout` filter ends every non-long-running request instead, so 60 s is the bound
 * for receiving a whole request here (a 3 MiB body then needs about 52 kB/s).
 */
export const DEFAULT_SERVER_TIMEOUTS: ServerTimeouts = { headersMs: 32_000, requestMs: 60_000, handshakeMs: 32_000 };

/**
 * Node checks the header and request deadlines on a timer (30 s by default), so a bound is only
 * as exact as that period; a quarter of the smallest bound, within 50 ms..1 s, keeps the overshoot
 * small at the cost of one pass over the open connections per period.
 */
function connectionsCheckingIntervalMs(t: Pick<ServerTimeouts, 'headersMs' | 'requestMs'>): number {
  const bounds = [t.headersMs, t.requestMs].filter(ms => ms > 0);
  if (!bounds.length) return 30_000;
  return Math.min(1000, Math.max(50, Math.floor(Math.min(...bounds) / 4)));
}

/** A handshake that failed or timed out leaves nothing an HTTP answer could be written to. */
function onClientError(err: Error & { code?: string }, socket: Duplex): void {
  if ((socket as TLSSocket).encrypted && !(socket as TLSSocket & { _secureEstablished?: boolean })._secureEstablished) {
    socket.destroy();
    return;
  }
  answerClientError(err, socket);
}

/** Options of {@link startServer}. */
export interface StartServerOptions {
  app: DatabasesApp;
  tls: {
    key: string | Buffer;
    cert: string | Buffer;
    /** Trust anchors offered to clients for their certificates (request-header CA + client CA). */
    clientCa?: string | Buffer;
  };
  port: number;
  host?: string;
  /** Bounds for slow clients; each one not given is its {@link DEFAULT_SERVER_TIMEOUTS} value. */
  timeouts?: Partial<ServerTimeouts>;
}

/** A listening server. */
export interface RunningServer {
  server: http2.Http2SecureServer;
  port: number;
  /** Stops accepting connections, ends every watch cleanly, waits for in-flight requests. */
  close(): Promise<void>;
  /** Drops every connection at once, HTTP/1.1 and HTTP/2 (the end of a shutdown's grace period). */
  closeAllConnections(): void;
}

/**
 * Streams one HTTP/2 connection may carry at once. kube-apiserver's aggregator proxies every
 * request for an aggregated API over pooled HTTP/2 connections, watches included, and opens
 * another connection when one is full; Go's default of 250 made 1,000 proxied watches need four
 * (kubernetes/kubernetes#60042). A watch is a stream, so this bounds watches per connection.
 */
export const HTTP2_MAX_STREAMS = 1000;
/** An HTTP/2 connection without a stream for this long is closed, as HTTP/1.1 keep-alive. */
const IDLE_SESSION_MS = 120_000;

/**
 * Serves the app over HTTPS only. Client certificates are requested but not enforced by TLS: the
 * authenticator verifies the peer chain itself, so token and anonymous clients still get in.
 * Keep-alive outlives the aggregator's 90 s idle connections (contract §12 #11); an idle
 * keep-alive connection is not subject to the header bound, only to keep-alive. Slow clients
 * (slowloris: a handshake, headers or a body sent byte by byte) are cut by `timeouts`; responses
 * are never timed here (watches end by their own timers), so the socket inactivity timeout is off.
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const timeouts = { ...DEFAULT_SERVER_TIMEOUTS, ...options.timeouts };
  // HTTP/2 where the client offers it (ALPN h2: kube-apiserver's aggregator, client-go), HTTP/1.1
  // otherwise. Over HTTP/2 a change fanned out to many watches on one connection is written in a
  // few large socket writes instead of one TLS write per watch.
  const server = http2.createSecureServer(
    {
      allowHTTP1: true,
      // Node applies a handshake timeout of 0 as its default of 120 s; 0 means unbounded here
      handshakeTimeout: timeouts.handshakeMs > 0 ? timeouts.handshakeMs : 2 ** 31 - 1,
      key: options.tls.key,
      cert: options.tls.cert,
      ...(options.tls.clientCa ? { ca: options.tls.clientCa } : {}),
      requestCert: true,
      rejectUnauthorized: false,
      minVersion: 'TLSv1.2',
      // A connection's client certificate is read and verified once for its life
      // (peerCertificateChain, VerificationMemo): a TLS 1.2 renegotiation must not swap it.
      // Go's TLS server, kube-apiserver's, never renegotiates either.
      secureOptions: cryptoConstants.SSL_OP_NO_RENEGOTIATION,
      settings: { maxConcurrentStreams: HTTP2_MAX_STREAMS, maxHeaderListSize: MAX_HEADER_BYTES },
      maxHeaderListPairs: 2000,
      // what nghttp2 may hold for a connection's streams (MiB); Node's 10 refuses new streams
      // once a thousand watches have a little queued each
      maxSessionMemory: 256,
    },
    options.app,
  );
  // The HTTP/1.1 side takes http.Server's settings as properties (Node reads them per connection).
  const http1 = server as unknown as http.Server & { maxHeaderSize: number; connectionsCheckingInterval: number };
  http1.headersTimeout = timeouts.headersMs;
  http1.requestTimeout = timeouts.requestMs;
  // kube-apiserver (Go's default) takes 1 MiB of headers; Node's 16 KiB would refuse long
  // selectors and names that kube answers with a Status
  http1.maxHeaderSize = MAX_HEADER_BYTES;
  http1.keepAliveTimeout = 120_000;
  http1.connectionsCheckingInterval = connectionsCheckingIntervalMs(timeouts);
  http1.timeout = 0;
  server.on('clientError', onClientError);

  // every TCP connection, whatever it became (HTTP/1.1, an HTTP/2 session, a TLS handshake that
  // never finished): the grace period's end must cut them all, or server.close() waits for ever
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const sessions = new Set<Http2Session>();
  server.on('session', session => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
    session.on('error', () => {}); // a reset connection: its streams see it, nothing to answer
    let open = 0;
    session.on('stream', (stream: ServerHttp2Stream) => {
      open++;
      stream.once('close', () => open--);
      // what requestTimeout bounds over HTTP/1.1: receiving the whole request
      if (!stream.endAfterHeaders && timeouts.requestMs > 0) {
        const cut = setTimeout(() => stream.close(http2.constants.NGHTTP2_CANCEL), timeouts.requestMs);
        cut.unref();
        stream.once('end', () => clearTimeout(cut));
        stream.once('close', () => clearTimeout(cut));
      }
    });
    session.setTimeout(IDLE_SESSION_MS, () => {
      if (open === 0) session.close();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => {
      server.off('error', reject);
      resolve();
    });
  });

  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // ended watches leave keep-alive sockets behind that only become idle once flushed
        const reaper = setInterval(() => http1.closeIdleConnections(), 50);
        server.close(err => {
          clearInterval(reaper);
          if (err) reject(err);
          else resolve();
        });
        options.app.control.beginShutdown();
        options.app.control.endWatches();
        http1.closeIdleConnections();
        // GOAWAY: no new streams; each connection closes once its last stream is done
        sessions.forEach(s => s.close());
      }),
    closeAllConnections: () => {
      // http.Server's own, on the HTTP/1.1 connections Node tracks for this server (as Node's
      // Http2SecureServer.closeIdleConnections does)
      http.Server.prototype.closeAllConnections.call(http1);
      sessions.forEach(s => s.destroy());
      sockets.forEach(s => s.destroy());
    },
  };
}
