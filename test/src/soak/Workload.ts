import https from 'node:https';

/** Counts of one kind of operation. */
export interface OpStats {
  count: number;
  /** By HTTP status (0 = no answer). */
  codes: Record<string, number>;
  errors: number;
  latencyMs: number[];
}

/** What the workload did and what went wrong. */
export interface WorkloadStats {
  ops: Record<string, OpStats>;
  /** 503s with Retry-After that were retried, as client-go does (not errors unless the retries run out). */
  retried503: number;
  errors: number;
  firstErrors: string[];
  /** Ticks where the previous operations had not finished and the cap held new ones back. */
  skipped: number;
}

export interface WorkloadOptions {
  port: number;
  agent: https.Agent;
  /** Operations per second. */
  rate: number;
  /** Instances the soak keeps alive (creates add, deletes remove the oldest beyond it). */
  population: number;
  /** Deterministic choices (a seeded PRNG), so two runs do the same thing. */
  random: () => number;
}

const GROUP_PATH = '/apis/dbaas.platform.dev/v1alpha1';
const NAMESPACES = ['team-a', 'team-b', 'team-c'];
const MAX_IN_FLIGHT = 100;

/**
 * The soak's clients: at a fixed rate, a mix of list (40 %), get (20 %), create (13 %), update
 * (merge patch of a label, 14 %) and delete (13 %) through the aggregation layer, over a
 * population of instances it creates and deletes itself. An answer it did not expect (any 5xx,
 * no answer, a 4xx other than 404 for an instance it is deleting) is an error.
 */
export class Workload {
  readonly stats: WorkloadStats = { ops: {}, retried503: 0, errors: 0, firstErrors: [], skipped: 0 };
  private readonly live: Array<{ namespace: string; name: string }> = [];
  private readonly deleting = new Set<string>();
  private next = 0;
  private inFlight = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly idle: Array<() => void> = [];
  private outage = false;

  private engines: string[] = [];

  constructor(private readonly options: WorkloadOptions) {}

  /** The engines it creates: every one the apiserver's DatabaseEngine list names, so a new operator is soaked too. */
  async loadEngines(): Promise<void> {
    const { status, text } = await this.send('GET', `${GROUP_PATH}/databaseengines`);
    if (status !== 200) throw new Error(`listing databaseengines answered ${status}: ${text.slice(0, 200)}`);
    this.engines = (JSON.parse(text).items as Array<{ metadata: { name: string } }>).map(e => e.metadata.name);
    if (this.engines.length === 0) throw new Error('the apiserver lists no DatabaseEngine');
  }

  start(): void {
    // ticks of about 100 ms; what is due follows the clock (a late tick starts more), with the
    // fraction carried over, so the rate holds on average on a busy machine too
    let due = 0;
    let last = Date.now();
    this.timer = setInterval(() => {
      const now = Date.now();
      due += (this.options.rate * (now - last)) / 1000;
      last = now;
      while (due >= 1) {
        due -= 1;
        if (this.inFlight >= MAX_IN_FLIGHT) {
          this.stats.skipped++;
          continue;
        }
        this.inFlight++;
        this.one().finally(() => {
          this.inFlight--;
          if (this.inFlight === 0) this.idle.splice(0).forEach(r => r());
        });
      }
    }, 100);
  }

  /** While the Kubernetes API is out, a write answered 503 (with Retry-After) is what is expected. */
  setOutage(on: boolean): void {
    this.outage = on;
  }

  /** Stops starting operations and waits for those in flight. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    if (this.inFlight > 0) await new Promise<void>(r => this.idle.push(r));
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.options.random() * items.length)];
  }

  private async one(): Promise<void> {
    const r = this.options.random();
    if (r < 0.4) {
      await this.call('list', 'GET', `${GROUP_PATH}/databaseinstances`);
    } else if (r < 0.6) {
      const target = this.live.length ? this.pick(this.live) : undefined;
      // a 404 is right for an instance this workload deleted meanwhile
      if (target) await this.call('get', 'GET', this.path(target), undefined, () => (this.deleting.has(this.key(target)) ? [404] : []));
      else await this.call('list', 'GET', `${GROUP_PATH}/namespaces/${this.pick(NAMESPACES)}/databaseinstances`);
    } else if (r < 0.73) {
      await this.create();
    } else if (r < 0.87) {
      const target = this.live.length ? this.pick(this.live) : undefined;
      if (target) await this.call('update', 'PATCH', this.path(target), { metadata: { labels: { 'soak-rev': String(this.next) } } }, () => (this.deleting.has(this.key(target)) ? [404] : []));
      else await this.create();
    } else if (this.live.length > this.options.population / 2) {
      const target = this.live.shift()!;
      this.deleting.add(this.key(target));
      await this.call('delete', 'DELETE', this.path(target));
      setTimeout(() => this.deleting.delete(this.key(target)), 60_000).unref();
    } else {
      await this.create();
    }
  }

  private async create(): Promise<void> {
    if (this.live.length >= this.options.population) {
      await this.call('list', 'GET', `${GROUP_PATH}/databaseinstances`);
      return;
    }
    const n = this.next++;
    const target = { namespace: NAMESPACES[n % NAMESPACES.length], name: `soak-${n}` };
    const body = {
      apiVersion: 'dbaas.platform.dev/v1alpha1',
      kind: 'DatabaseInstance',
      metadata: { name: target.name, namespace: target.namespace },
      spec: { engine: this.engines[n % this.engines.length] },
    };
    const status = await this.call('create', 'POST', `${GROUP_PATH}/namespaces/${target.namespace}/databaseinstances`, body);
    if (status === 201) this.live.push(target);
  }

  private key(t: { namespace: string; name: string }) {
    return `${t.namespace}/${t.name}`;
  }

  private path(t: { namespace: string; name: string }) {
    return `${GROUP_PATH}/namespaces/${t.namespace}/databaseinstances/${t.name}`;
  }

  /**
   * One operation; records its final status and latency, counts what was not expected as an
   * error. A 503 with Retry-After is retried after it, up to 3 times, as client-go does with
   * every request (kubectl included); outside an outage each retry is counted in `retried503`.
   */
  private async call(op: string, method: string, path: string, body?: unknown, alsoFine: () => number[] = () => []): Promise<number> {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      const { status, retryAfter, detail } = await this.send(method, path, body);
      const refusedInOutage = this.outage && method !== 'GET' && status === 503;
      if (status === 503 && retryAfter !== undefined && attempt <= 3 && !refusedInOutage) {
        this.stats.retried503++;
        await new Promise(r => setTimeout(r, retryAfter * 1000));
        continue;
      }
      this.record(op, method, path, status, detail, Date.now() - started, alsoFine());
      return status;
    }
  }

  private record(op: string, method: string, path: string, status: number, detail: string, ms: number, alsoFine: number[]) {
    const stats = (this.stats.ops[op] ??= { count: 0, codes: {}, errors: 0, latencyMs: [] });
    stats.count++;
    stats.codes[status] = (stats.codes[status] ?? 0) + 1;
    // a reservoir of latencies: enough for percentiles without growing with the run
    if (stats.latencyMs.length < 20_000) stats.latencyMs.push(ms);
    else stats.latencyMs[Math.floor(this.options.random() * 20_000)] = ms;
    const refusedInOutage = this.outage && method !== 'GET' && status === 503;
    const fine = (status >= 200 && status < 300) || alsoFine.includes(status) || refusedInOutage;
    if (!fine) {
      stats.errors++;
      this.stats.errors++;
      if (this.stats.firstErrors.length < 20) this.stats.firstErrors.push(`${method} ${path}: ${status} after ${ms} ms ${detail}`);
    }
  }

  private send(method: string, path: string, body?: unknown): Promise<{ status: number; retryAfter?: number; detail: string; text: string }> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise(resolve => {
      const done = (status: number, detail: string, retryAfter?: number, text = '') => resolve({ status, detail, retryAfter, text });
      const req = https.request(
        {
          host: '127.0.0.1',
          port: this.options.port,
          method,
          path,
          agent: this.options.agent,
          headers: payload ? { 'Content-Type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' } : {},
          timeout: 30_000,
        },
        res => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', c => (text += c));
          const retryAfter = res.headers['retry-after'] === undefined ? undefined : Number(res.headers['retry-after']);
          res.on('end', () => done(res.statusCode ?? 0, res.statusCode && res.statusCode >= 300 ? text.slice(0, 200) : '', retryAfter, text));
        },
      );
      req.on('timeout', () => req.destroy(new Error('no answer in 30 s')));
      req.on('error', e => done(0, String(e)));
      req.end(payload);
    });
  }
}
