/* eslint-disable no-console */
/**
 * The measuring client, in a process of its own: the harness process holds the emulator and its
 * tens of thousands of objects, whose garbage collections would otherwise land inside the
 * timings. The parent sends `{ id, op, args }` over IPC; every op answers `{ id, result }` or
 * `{ id, error }`. Times crossing processes are {@link epochNow} values.
 */
import https from 'node:https';
import { epochNow } from './epochNow';
import { HttpsClient, type HttpsClientOptions } from './HttpsClient';
import type http2 from 'node:http2';
import { connectLikeGo } from './connectLikeGo';
import { openWatch, openWatchH2, type WatchStream } from './WatchStream';
import { openEventStream, type EventStream } from './EventStream';

/** One request of a timed iteration. */
export interface PlannedRequest {
  method?: string;
  path: string;
  headers?: Record<string, string | string[]>;
  body?: unknown;
}

interface StreamSet {
  streams: Array<WatchStream | EventStream>;
  agent?: https.Agent;
  sessions?: http2.ClientHttp2Session[];
  /** What the current round waits for, and who has seen it. */
  needle?: string;
  arrivals: Map<number, number>;
  onAllSeen?: () => void;
}

/**
 * A full collection right before the timed requests: with the roomy old generation the client
 * is given (ClientProcess), what earlier figures and the warm-up left (the parsed 16 MiB lists of
 * the JSON.stringify comparisons) would otherwise be collected during the timed requests.
 */
function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

const clients = new Map<string, HttpsClient>();
const streamSets = new Map<number, StreamSet>();
let nextSet = 1;

function clientFor(target: HttpsClientOptions): HttpsClient {
  const key = JSON.stringify(target);
  let c = clients.get(key);
  if (!c) {
    c = new HttpsClient(target);
    clients.set(key, c);
  }
  return c;
}

/** An iteration's time, and (summed over its requests) when the headers and the last byte came. */
export interface IterationTimes {
  ms: number;
  headersMs: number;
  receivedMs: number;
}

async function runIteration(client: HttpsClient, plan: PlannedRequest[]): Promise<IterationTimes> {
  const sum = { ms: 0, headersMs: 0, receivedMs: 0 };
  for (const r of plan) {
    const res = await client.request(r.method ?? 'GET', r.path, r.body, { headers: r.headers });
    if (res.status >= 400) throw new Error(`${r.method ?? 'GET'} ${r.path} answered ${res.status}`);
    sum.ms += res.ms;
    sum.headersMs += res.headersMs;
    sum.receivedMs += res.receivedMs;
  }
  return sum;
}

function lineHandler(set: StreamSet, index: number) {
  return (line: string, at: number) => {
    if (set.needle && !set.arrivals.has(index) && line.includes(set.needle)) {
      set.arrivals.set(index, at);
      if (set.arrivals.size === set.streams.length) set.onAllSeen?.();
    }
  };
}

/** Opens `n` streams into `set`, `size` at a time; `open(i)` opens the i-th. */
async function openInBatches(set: StreamSet, n: number, size: number, open: (i: number) => Promise<WatchStream | EventStream>) {
  for (let i = 0; i < n; i += size) {
    set.streams.push(...(await Promise.all(Array.from({ length: Math.min(size, n - i) }, (_, j) => open(i + j)))));
  }
}

const ops: Record<string, (args: any) => Promise<unknown>> = {
  /**
   * Times iterations (each the sum of its requests' times); the first `warmup` are dropped. With
   * `warmupMs`, the whole plan is also gone round untimed until that long has passed. With
   * `phases`, each timed iteration's {@link IterationTimes} instead of its time alone.
   */
  async timeIterations(args: { target: HttpsClientOptions; iterations: PlannedRequest[][]; warmup: number; warmupMs?: number; phases?: boolean }) {
    const client = clientFor(args.target);
    const started = performance.now();
    for (let i = 0; performance.now() - started < (args.warmupMs ?? 0); i++) {
      await runIteration(client, args.iterations[i % args.iterations.length]);
    }
    const out: IterationTimes[] = [];
    for (let i = 0; i < args.iterations.length; i++) {
      if (i === args.warmup) collectGarbage();
      const times = await runIteration(client, args.iterations[i]);
      if (i >= args.warmup) out.push(times);
    }
    return args.phases ? out : out.map(t => t.ms);
  },
  /** Fetches once and times `JSON.stringify` of the parsed body (or of its `items`). */
  async timeStringify(args: { target: HttpsClientOptions; request: PlannedRequest; field?: string; n: number; warmup: number }) {
    const res = await clientFor(args.target).request('GET', args.request.path, undefined, { headers: args.request.headers, keepBody: true });
    const parsed = JSON.parse(res.body!.toString());
    const value = args.field ? parsed[args.field] : parsed;
    const out: number[] = [];
    for (let i = 0; i < args.n + args.warmup; i++) {
      const started = performance.now();
      JSON.stringify(value);
      if (i >= args.warmup) out.push(performance.now() - started);
    }
    return { ms: out, bytes: res.bytes, wireBytes: res.wireBytes, protocol: res.protocol, count: Array.isArray(value) ? value.length : (value.rows ?? value.items ?? []).length };
  },
  /** One request, its status, its bytes (decompressed) and on the wire, and (JSON) body (unless `withoutBody`). */
  async fetch(args: { target: HttpsClientOptions; request: PlannedRequest; withoutBody?: boolean }) {
    const r = args.request;
    const keepBody = !args.withoutBody;
    const res = await clientFor(args.target).request(r.method ?? 'GET', r.path, r.body, { headers: r.headers, keepBody });
    return { status: res.status, ms: res.ms, bytes: res.bytes, wireBytes: res.wireBytes, ...(keepBody ? { body: res.body!.toString() } : {}) };
  },
  /** Sends requests `concurrency` at a time on their own connections; each with its send time. */
  async burst(args: { target: HttpsClientOptions; requests: PlannedRequest[]; concurrency: number }) {
    const client = new HttpsClient({ ...args.target, maxSockets: args.concurrency });
    const results: Array<{ sentAt: number; ms: number; status: number; error?: string; body?: string }> = new Array(args.requests.length);
    let next = 0;
    const worker = async () => {
      while (next < args.requests.length) {
        const i = next++;
        const r = args.requests[i];
        const sentAt = epochNow();
        try {
          const res = await client.request(r.method ?? 'GET', r.path, r.body, { headers: r.headers, keepBody: true });
          results[i] = { sentAt, ms: res.ms, status: res.status, ...(res.status >= 400 ? { body: res.body!.toString().slice(0, 500) } : {}) };
        } catch (e) {
          results[i] = { sentAt, ms: epochNow() - sentAt, status: 0, error: String(e) };
        }
      }
    };
    await Promise.all(Array.from({ length: args.concurrency }, worker));
    client.close();
    return results;
  },
  /**
   * Opens `n` watches (`neverRead`: the last one never reads) and returns the set's id. With
   * `streamsPerConnection` they are HTTP/2 streams, that many to a connection (kube-apiserver's
   * aggregator multiplexes proxied watches so); otherwise one HTTPS/1.1 connection each.
   */
  async openWatches(args: { target: HttpsClientOptions; path: string; n: number; parallel?: number; neverReadLast?: boolean; streamsPerConnection?: number }) {
    const set: StreamSet = { streams: [], arrivals: new Map() };
    const id = nextSet++;
    streamSets.set(id, set);
    const neverRead = (i: number) => !!args.neverReadLast && i === args.n - 1;
    if (args.streamsPerConnection) {
      const per = args.streamsPerConnection;
      set.sessions = await Promise.all(Array.from({ length: Math.ceil(args.n / per) }, () => connectLikeGo(args.target)));
      await openInBatches(set, args.n, per, i =>
        openWatchH2({ session: set.sessions![Math.floor(i / per)], path: args.path, headers: args.target.headers, neverRead: neverRead(i), onLine: lineHandler(set, i) }),
      );
      return id;
    }
    set.agent = new https.Agent({ keepAlive: false, maxSockets: Infinity, ca: args.target.ca, cert: args.target.cert, key: args.target.key });
    const url = new URL(`${args.target.baseUrl}${args.path}`);
    await openInBatches(set, args.n, args.parallel ?? 50, i =>
      openWatch({ url, agent: set.agent!, headers: args.target.headers, neverRead: neverRead(i), onLine: lineHandler(set, i) }),
    );
    return id;
  },
  /** Opens `n` server-sent-event streams over plain HTTP (the Backstage backend). */
  async openEventStreams(args: { url: string; headers?: Record<string, string>; n: number; parallel?: number }) {
    const set: StreamSet = { streams: [], arrivals: new Map() };
    const id = nextSet++;
    streamSets.set(id, set);
    await openInBatches(set, args.n, args.parallel ?? 50, i =>
      openEventStream({ url: new URL(args.url), headers: args.headers, onLine: lineHandler(set, i) }),
    );
    return id;
  },
  /** Starts a round: from now on, the first line containing `needle` on each stream is timed. */
  async arm(args: { set: number; needle: string }) {
    const set = streamSets.get(args.set)!;
    set.arrivals = new Map();
    set.needle = args.needle;
    return null;
  },
  /**
   * Ends a round: waits until every reading stream saw the needle (or `timeoutMs`), returns
   * arrival − `writtenAt` per stream that saw it, and how many did not.
   */
  async collect(args: { set: number; writtenAt: number; timeoutMs: number; expect?: number }) {
    const set = streamSets.get(args.set)!;
    const expect = args.expect ?? set.streams.length;
    if (set.arrivals.size < expect) {
      await new Promise<void>(resolve => {
        const timer = setTimeout(resolve, args.timeoutMs);
        set.onAllSeen = () => {
          clearTimeout(timer);
          resolve();
        };
        if (set.arrivals.size >= expect) set.onAllSeen();
      });
    }
    set.onAllSeen = undefined;
    set.needle = undefined;
    const latencies = [...set.arrivals.values()].map(at => at - args.writtenAt);
    return { latencies, missed: expect - set.arrivals.size };
  },
  /** Bytes received and whether each stream has closed. */
  async streamState(args: { set: number }) {
    const set = streamSets.get(args.set)!;
    return Promise.all(
      set.streams.map(async s => ({
        bytes: s.bytes(),
        closed: await Promise.race([s.closed.then(() => true), new Promise<boolean>(r => setTimeout(() => r(false), 0))]),
      })),
    );
  },
  /** Lets the never-reading stream read again; resolves when it closes or after `timeoutMs`. */
  async resumeLast(args: { set: number; timeoutMs: number }) {
    const set = streamSets.get(args.set)!;
    const last = set.streams[set.streams.length - 1];
    last.resume();
    const closed = await Promise.race([last.closed.then(() => true), new Promise<boolean>(r => setTimeout(() => r(false), args.timeoutMs))]);
    return { closed, bytes: last.bytes() };
  },
  async closeStreams(args: { set: number }) {
    const set = streamSets.get(args.set);
    set?.streams.forEach(s => s.close());
    set?.agent?.destroy();
    set?.sessions?.forEach(s => s.destroy());
    streamSets.delete(args.set);
    return null;
  },
};

process.on('message', async (msg: { id: number; op: string; args: unknown }) => {
  try {
    const op = ops[msg.op];
    if (!op) throw new Error(`unknown op ${msg.op}`);
    const result = await op(msg.args);
    process.send?.({ id: msg.id, result });
  } catch (e) {
    process.send?.({ id: msg.id, error: String((e as Error)?.stack ?? e) });
  }
});
process.on('disconnect', () => process.exit(0));
process.send?.({ ready: true });
