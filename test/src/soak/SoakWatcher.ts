import https from 'node:https';

/** What one long-lived watcher saw over the soak. */
export interface WatcherStats {
  events: number;
  bookmarks: number;
  /** Streams the server ended at their timeout, resumed from the last RV. */
  resumes: number;
  /** 410s answered by a fresh list (none expected within the history window). */
  relists: number;
  /** Inconsistencies (ADDED for a present key, MODIFIED/DELETED for an absent one) and broken streams. */
  errorCount: number;
  /** The first few of them. */
  errors: string[];
}

/**
 * A client as client-go's reflector: list, then watch with bookmarks from the list's RV, each
 * stream with a server-side timeout, resumed from the newest RV seen. Keeps only what it needs
 * to check consistency (key → uid), so a long soak does not grow the soak process.
 */
export class SoakWatcher {
  readonly stats: WatcherStats = { events: 0, bookmarks: 0, resumes: 0, relists: 0, errorCount: 0, errors: [] };
  private readonly state = new Map<string, string>();
  private rv = '';
  private stopped = false;
  private req: ReturnType<typeof https.request> | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly target: { port: number; agent: https.Agent; path: string },
    private readonly timeoutSeconds: () => number,
  ) {}

  start(): void {
    this.running = this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.req?.destroy();
    await this.running;
  }

  private error(message: string): void {
    this.stats.errorCount++;
    if (this.stats.errors.length < 20) this.stats.errors.push(message);
  }

  private get(path: string): Promise<{ status: number; body: any }> {
    return new Promise((resolve, reject) => {
      const req = https.request({ host: '127.0.0.1', port: this.target.port, path, agent: this.target.agent }, res => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', c => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  }

  private async list(): Promise<void> {
    const res = await this.get(this.target.path);
    if (res.status !== 200) throw new Error(`list: HTTP ${res.status}`);
    this.state.clear();
    for (const i of res.body.items) this.state.set(`${i.metadata.namespace}/${i.metadata.name}`, i.metadata.uid);
    this.rv = res.body.metadata.resourceVersion;
  }

  private async loop(): Promise<void> {
    try {
      await this.list();
    } catch (e) {
      this.error(`first list: ${e}`);
      return;
    }
    while (!this.stopped) {
      const outcome = await this.watchOnce().catch(e => `reset: ${e}`);
      if (this.stopped) return;
      if (outcome === 'expired') {
        this.stats.relists++;
        await this.list().catch(e => this.error(`relist: ${e}`));
      } else if (outcome === 'timeout') {
        this.stats.resumes++;
      } else {
        this.error(outcome);
        await new Promise(r => setTimeout(r, 1000));
      }
    }
  }

  /** One watch stream; resolves how it ended. */
  private watchOnce(): Promise<'timeout' | 'expired' | string> {
    const path = `${this.target.path}?watch=true&allowWatchBookmarks=true&resourceVersion=${this.rv}&timeoutSeconds=${this.timeoutSeconds()}`;
    return new Promise((resolve, reject) => {
      const req = https.request({ host: '127.0.0.1', port: this.target.port, path, agent: this.target.agent });
      this.req = req;
      req.on('error', reject);
      req.on('response', res => {
        if (res.statusCode !== 200) {
          res.resume();
          resolve(`watch: HTTP ${res.statusCode}`);
          return;
        }
        let buffer = '';
        let expired = false;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
            const line = buffer.slice(0, nl);
            buffer = buffer.slice(nl + 1);
            if (line.trim() && this.onEvent(JSON.parse(line))) expired = true;
          }
        });
        res.on('end', () => {
          if (buffer) resolve(`stream ended inside an event: ${buffer.slice(0, 80)}`);
          else resolve(expired ? 'expired' : 'timeout');
        });
        res.on('aborted', () => resolve('stream reset'));
      });
      req.end();
    });
  }

  /** Applies one event; true when it says the RV expired. */
  private onEvent(e: { type: string; object: any }): boolean {
    if (e.type === 'ERROR') {
      if (e.object?.code === 410) return true;
      this.error(`ERROR event ${e.object?.code} ${e.object?.message}`);
      return false;
    }
    const rv = e.object?.metadata?.resourceVersion;
    if (rv) this.rv = rv;
    if (e.type === 'BOOKMARK') {
      this.stats.bookmarks++;
      return false;
    }
    this.stats.events++;
    const key = `${e.object.metadata.namespace}/${e.object.metadata.name}`;
    const uid = this.state.get(key);
    if (e.type === 'ADDED' && uid) this.error(`ADDED ${key} already present`);
    if (e.type === 'MODIFIED' && uid !== e.object.metadata.uid) this.error(`MODIFIED ${key}: ${uid ? 'uid changed' : 'absent'}`);
    if (e.type === 'DELETED' && !uid) this.error(`DELETED ${key} absent`);
    if (e.type === 'DELETED') this.state.delete(key);
    else this.state.set(key, e.object.metadata.uid);
    return false;
  }
}
