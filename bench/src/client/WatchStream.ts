import https from 'node:https';
import http2 from 'node:http2';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { lineReader } from './lineReader';

/** Resolves when the response ends, its connection closes, or it fails. */
function whenClosed(stream: NodeJS.EventEmitter): Promise<void> {
  return new Promise<void>(done => {
    stream.once('close', done);
    stream.once('end', done);
    stream.once('error', () => done());
  });
}

/** Options of {@link openWatch}. */
export interface WatchStreamOptions {
  url: URL;
  agent: https.Agent;
  headers?: Record<string, string | string[]>;
  /** Called for every complete line (one watch event), with when it arrived (`epochNow()`). */
  onLine(line: string, at: number): void;
  /** Never read: the socket is paused as soon as the response starts (a stuck client). */
  neverRead?: boolean;
}

/** An open watch request. */
export interface WatchStream {
  response: IncomingMessage;
  request: ClientRequest;
  /** Bytes received so far (while reading). */
  bytes(): number;
  /** Resolves when the server ends the response or the connection closes. */
  closed: Promise<void>;
  /** Starts reading a paused stream. */
  resume(): void;
  close(): void;
}

/**
 * Opens one watch (`?watch=1…`) and splits what arrives into lines. Resolves once the response
 * headers are in, so a caller opening many knows they are all registered with the server.
 */
export function openWatch(o: WatchStreamOptions): Promise<WatchStream> {
  return new Promise((resolve, reject) => {
    const lines = lineReader(o.onLine);
    const request = https.request(
      { protocol: 'https:', hostname: o.url.hostname, port: o.url.port, path: `${o.url.pathname}${o.url.search}`, agent: o.agent, headers: o.headers },
      response => {
        if (response.statusCode !== 200) {
          reject(new Error(`watch ${o.url.pathname}${o.url.search} answered ${response.statusCode}`));
          response.resume();
          return;
        }
        const closed = whenClosed(response);
        if (o.neverRead) {
          response.pause();
          response.socket.pause();
        } else {
          response.on('data', lines.read);
        }
        resolve({
          response,
          request,
          bytes: lines.bytes,
          closed,
          resume: () => {
            response.on('data', lines.read);
            response.socket.resume();
            response.resume();
          },
          close: () => request.destroy(),
        });
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/** Options of {@link openWatchH2}. */
export interface H2WatchOptions {
  session: http2.ClientHttp2Session;
  /** Path and query. */
  path: string;
  headers?: Record<string, string | string[]>;
  onLine(line: string, at: number): void;
  neverRead?: boolean;
}

/** One watch as a stream of an HTTP/2 connection (as kube-apiserver's aggregator proxies it). */
export function openWatchH2(o: H2WatchOptions): Promise<WatchStream> {
  return new Promise((resolve, reject) => {
    const lines = lineReader(o.onLine);
    const headers: http2.OutgoingHttpHeaders = { ':path': o.path };
    for (const [k, v] of Object.entries(o.headers ?? {})) headers[k.toLowerCase()] = v;
    const stream = o.session.request(headers);
    stream.once('error', reject);
    stream.once('response', h => {
      if (h[':status'] !== 200) {
        reject(new Error(`watch ${o.path} answered ${h[':status']}`));
        stream.close();
        return;
      }
      const closed = whenClosed(stream);
      if (o.neverRead) stream.pause();
      else stream.on('data', lines.read);
      resolve({
        response: stream as unknown as IncomingMessage,
        request: stream as unknown as ClientRequest,
        bytes: lines.bytes,
        closed,
        resume: () => {
          stream.on('data', lines.read);
          stream.resume();
        },
        close: () => stream.close(),
      });
    });
  });
}
