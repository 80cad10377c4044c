import http from 'node:http';
import { mockCredentials } from '@backstage/backend-test-utils';

/** A `GET /api/databases/events` stream (or another server-sent event stream) being read. */
export interface EventStream {
  /** Every event so far, in order. */
  events: Array<{ event: string; data: any }>;
  /** Resolves once the stream answered (whatever its status). */
  ready: Promise<void>;
  /** The answer's status, once {@link ready}. */
  status?: number;
  close(): void;
}

/** Opens the server-sent event stream of the backend on `port` as `user` (e.g. `carol`). */
export function openEvents(port: number, user: string, path = '/api/databases/events'): EventStream {
  const events: EventStream['events'] = [];
  const answered: { status?: number } = {};
  const req = http.get({
    host: '127.0.0.1',
    port,
    path,
    headers: { Authorization: mockCredentials.user.header(`user:default/${user}`), Accept: 'text/event-stream' },
  });
  const ready = new Promise<void>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', res => {
      answered.status = res.statusCode;
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', chunk => {
        buffer += chunk;
        for (let i = buffer.indexOf('\n\n'); i >= 0; i = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) });
        }
      });
      res.on('error', () => undefined);
      resolve();
    });
  });
  return {
    events,
    ready,
    get status() {
      return answered.status;
    },
    close: () => req.destroy(),
  };
}
