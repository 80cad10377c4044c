import https from 'node:https';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { lineReader } from './lineReader';

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
        const closed = new Promise<void>(done => {
          response.once('close', done);
          response.once('end', done);
          response.once('error', () => done());
        });
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
