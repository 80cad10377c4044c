import https from 'node:https';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { constants as http2Constants, type IncomingHttpHeaders } from 'node:http2';
import type { Readable, Writable } from 'node:stream';
import type { BackendConnection, BackendConnections } from './BackendConnections';
import type { backendTlsOptions } from './backendTls';
import { responseHeaders } from './proxyHeaders';

const REDIRECT_MESSAGE =
  'the backend attempted to redirect this request, which is not permitted';
/** Sends of one proxied request at most when the extension refuses it unprocessed. */
const MAX_ATTEMPTS = 3;

/** A plain-text answer (kube-aggregator's own errors); a response already started is cut instead. */
export function writePlain(res: ServerResponse, code: number, text: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(code, {
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** An HTTP/2 response's headers as `headersDistinct` (pseudo-headers left out). */
function distinctHeaders(h: IncomingHttpHeaders): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(h)) {
    if (name.startsWith(':') || value === undefined) continue;
    out[name] = Array.isArray(value) ? value : [String(value)];
  }
  return out;
}

/** A group-version's discovery document (`/apis/<group>/<version>`), which has a deadline. */
export function isDiscoveryPath(path: string): boolean {
  const segments = path.split('/').filter(Boolean);
  return segments.length === 3 && segments[0] === 'apis';
}

/** One proxied request, as kube-aggregator's proxy handler sends it on to the extension. */
export interface BackendRequest {
  req: IncomingMessage;
  res: ServerResponse;
  /** The body, when it was read already (the rest is streamed from `req`). */
  body: Buffer | undefined;
  headers: OutgoingHttpHeaders;
  /** Path and query as Go encodes them. */
  path: string;
  target: { host: string; port: number };
  tls: ReturnType<typeof backendTlsOptions>;
  connections: BackendConnections;
  /** A discovery request's deadline (kube-apiserver's aggregatedDiscoveryTimeout); none for others. */
  discoveryTimeoutMs?: number;
}

/**
 * Sends the request to the extension and relays its answer as it comes (a watch chunk by chunk),
 * over a pooled HTTP/2 connection or one TLS connection of its own; resolves when the exchange
 * is over. Go's HTTP/2 transport sends a request again when the server refused its stream
 * unprocessed (a GOAWAY below its id, REFUSED_STREAM: a request racing the extension's graceful
 * shutdown), if the body can be sent again: none, or one already read here. A streamed body
 * cannot. (A pooled connection that is closing is not handed out: BackendConnections forgets it.)
 * A redirect is refused (502), an unreachable extension is a 503 with the reason.
 */
export async function forwardToBackend(request: BackendRequest): Promise<void> {
  const { req, res, body, headers, path, target, tls, connections, discoveryTimeoutMs } = request;
  const bodyless =
    body === undefined &&
    ((headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) || headers['content-length'] === '0');
  const replayable = body !== undefined || bodyless;

  await new Promise<void>(resolve => {
    let timer: NodeJS.Timeout | undefined;
    /** Ends the backend request (the client left, or the discovery timeout fired). */
    let cancel: ((err?: Error) => void) | undefined;
    const finish = () => {
      if (timer) clearTimeout(timer);
      resolve();
    };
    const fail = (err: Error) => {
      if (!res.headersSent)
        writePlain(res, 503, `error trying to reach service: ${err.message}\n`);
      else res.destroy();
      finish();
    };
    if (discoveryTimeoutMs !== undefined) {
      timer = setTimeout(() => {
        const err = new Error('Timeout: request did not complete within the allowed duration');
        if (cancel) cancel(err);
        else fail(err);
      }, discoveryTimeoutMs);
    }
    // the client went away (e.g. a watch was cancelled): end the backend request too
    res.on('close', () => {
      if (!res.writableFinished) cancel?.();
      finish();
    });
    const relay = (status: number, upHeaders: Record<string, string[]>, upBody: Readable) => {
      if (status >= 300 && status <= 399 && upHeaders.location) {
        upBody.resume();
        writePlain(res, 502, REDIRECT_MESSAGE);
        return;
      }
      res.writeHead(status, responseHeaders(upHeaders));
      // watches: send headers now and every chunk as it comes (pipe does not buffer)
      res.flushHeaders();
      upBody.on('error', () => res.destroy());
      upBody.pipe(res);
    };
    const send = (upstream: Writable) => {
      if (body !== undefined) upstream.end(body);
      else if (bodyless || req.readableEnded) upstream.end();
      else req.pipe(upstream);
    };

    const { host, port } = target;
    const dialAndForward = (attempt: number) =>
      connections
        .open({ host, port, tls })
        // a header HTTP/2 refuses throws here: the client gets a 503, the process goes on
        .then(conn => forward(conn, attempt))
        .catch(fail);
    /** Sends the request again, as Go does: at once, then after 1 s, 2 s (its backoff). */
    const retry = (attempt: number, err: Error) => {
      if (!replayable || attempt + 1 >= MAX_ATTEMPTS) {
        fail(err);
        return;
      }
      const wait = setTimeout(() => dialAndForward(attempt + 1), attempt === 0 ? 0 : 1000 * 2 ** (attempt - 1));
      cancel = e => {
        clearTimeout(wait);
        if (e) fail(e);
      };
    };
    // a declaration: sending again dials again and forwards again
    function forward(conn: BackendConnection, attempt: number) {
      // the client left, or the discovery timeout answered, while the connection was opening
      if (res.destroyed || res.writableEnded) {
        if ('socket' in conn) conn.socket.destroy();
        return;
      }
      if ('session' in conn) {
        // Node ends a GET/DELETE stream at once unless told: a DELETE carries DeleteOptions
        const { 'transfer-encoding': _chunked, ...h2Headers } = headers; // HTTP/2 frames bodies itself
        const stream = conn.session.request({ ':method': req.method ?? 'GET', ':path': path, ...h2Headers }, { endStream: false });
        let answered = false;
        cancel = err => stream.destroy(err);
        stream.on('error', err => {
          if (!answered && stream.rstCode === http2Constants.NGHTTP2_REFUSED_STREAM) retry(attempt, err);
          else fail(err);
        });
        stream.on('response', h => {
          answered = true;
          relay(Number(h[':status']), distinctHeaders(h), stream);
        });
        send(stream);
        return;
      }
      const upstream = https.request({
        ...tls,
        // the negotiated connection, for this one request
        agent: undefined,
        createConnection: () => conn.socket,
        host,
        port,
        method: req.method,
        path,
        headers,
      });
      cancel = err => upstream.destroy(err);
      upstream.on('error', fail);
      upstream.on('response', upRes =>
        relay(upRes.statusCode ?? 502, upRes.headersDistinct as Record<string, string[]>, upRes),
      );
      send(upstream);
    }
    dialAndForward(0);
  });
}
