import http from 'node:http';
import https from 'node:https';
import { lineReader } from './lineReader';

/** Options of {@link openEventStream}. */
export interface EventStreamOptions {
  url: URL;
  headers?: Record<string, string>;
  /** Called for every line of the stream, with when it arrived (`epochNow()`). */
  onLine(line: string, at: number): void;
}

/** An open `text/event-stream` response. */
export interface EventStream {
  bytes(): number;
  closed: Promise<void>;
  resume(): void;
  close(): void;
}

/** Opens a server-sent-event stream (as a browser's EventSource would) and splits it into lines. */
export function openEventStream(o: EventStreamOptions): Promise<EventStream> {
  const lib = o.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const lines = lineReader(o.onLine);
    const request = lib.request(
      o.url,
      { agent: false, headers: { Accept: 'text/event-stream', ...o.headers } },
      response => {
        if (response.statusCode !== 200) {
          reject(new Error(`event stream ${o.url.pathname} answered ${response.statusCode}`));
          response.resume();
          return;
        }
        const closed = new Promise<void>(done => {
          response.once('close', done);
          response.once('end', done);
        });
        response.on('data', lines.read);
        resolve({ bytes: lines.bytes, closed, resume: () => response.resume(), close: () => request.destroy() });
      },
    );
    request.on('error', reject);
    request.end();
  });
}
