import http from 'node:http';
import { mockCredentials } from '@backstage/backend-test-utils';

/** A `GET /api/databases/events` stream being read. */
export interface EventStream {
  /** Every event so far, in order. */
  events: Array<{ event: string; data: any }>;
  /** Resolves once the stream is open. */
  ready: Promise<void>;
  close(): void;
}

/** Opens the server-sent event stream of the backend on `port` as `user` (e.g. `carol`). */
export function openEvents(port: number, user: string): EventStream {
  const events: EventStream['events'] = [];
  const req = http.get({
    host: '127.0.0.1',
    port,
    path: '/api/databases/events',
    headers: { Authorization: mockCredentials.user.header(`user:default/${user}`) },
  });
  const ready = new Promise<void>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', res => {
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
  return { events, ready, close: () => req.destroy() };
}
