import https from 'node:https';
import { seen, type StreamRecord } from './checkEventStream';

/** How a watch stream ended. */
export type StreamEnd =
  /** the server ended the chunked body; `partial` is what was left after the last newline */
  | { how: 'clean'; partial: string; at: number }
  /** the connection broke mid-stream */
  | { how: 'reset'; partial: string; at: number; error?: string };

/** Where and as whom a watch connects. */
export interface WatchTarget {
  port: number;
  agent: https.Agent;
  /** Request headers (identity headers when the agent presents the front-proxy certificate). */
  headers: Record<string, string>;
  path: string;
}

/**
 * A raw watch client as client-go's reflector behaves: watches with bookmarks from a
 * resourceVersion, keeps the newest RV it saw (events and bookmarks), and resumes from it.
 * Records everything it received for {@link checkEventStream}.
 */
export class WatchClient {
  readonly records: StreamRecord[] = [];
  rv: string;
  ends: StreamEnd[] = [];
  private req: ReturnType<typeof https.request> | undefined;
  private endWaiters: Array<() => void> = [];
  opened = false;

  constructor(from: { resourceVersion: string; items: any[] }) {
    this.rv = from.resourceVersion;
    this.records.push({ kind: 'list', resourceVersion: from.resourceVersion, items: from.items.map(seen) });
  }

  /** Opens the watch; resolves once the server answered with headers (200 expected). */
  open(target: WatchTarget): Promise<number> {
    this.records.push({ kind: 'watch', from: this.rv });
    return new Promise((resolve, reject) => {
      const path = `${target.path}?watch=true&allowWatchBookmarks=true&resourceVersion=${this.rv}`;
      const req = https.request({ host: '127.0.0.1', port: target.port, path, agent: target.agent, headers: target.headers });
      this.req = req;
      req.on('error', err => {
        if (!this.opened) reject(err);
      });
      req.on('response', res => {
        this.opened = true;
        resolve(res.statusCode ?? 0);
        let buffer = '';
        let done = false;
        const finish = (end: StreamEnd) => {
          if (done) return;
          done = true;
          this.opened = false;
          this.ends.push(end);
          this.endWaiters.splice(0).forEach(w => w());
        };
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
            const line = buffer.slice(0, nl);
            buffer = buffer.slice(nl + 1);
            if (line.trim()) this.onLine(line);
          }
        });
        res.on('end', () => finish({ how: 'clean', partial: buffer, at: Date.now() }));
        res.on('aborted', () => finish({ how: 'reset', partial: buffer, at: Date.now() }));
        res.on('error', err => finish({ how: 'reset', partial: buffer, at: Date.now(), error: String(err) }));
      });
      req.end();
    });
  }

  /** Resolves when the current stream has ended. */
  ended(): Promise<void> {
    return this.opened ? new Promise(r => this.endWaiters.push(r)) : Promise.resolve();
  }

  close(): void {
    this.req?.destroy();
  }

  private onLine(line: string) {
    const event = JSON.parse(line);
    const rv = event.object?.metadata?.resourceVersion;
    if (event.type === 'ERROR') {
      this.records.push({ kind: 'error', code: event.object?.code });
      return;
    }
    if (rv) this.rv = rv;
    if (event.type === 'ADDED' || event.type === 'MODIFIED' || event.type === 'DELETED') {
      this.records.push({ kind: 'event', type: event.type, object: seen(event.object) });
    }
  }
}
