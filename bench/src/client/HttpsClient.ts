import http from 'node:http';
import type http2 from 'node:http2';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { connectLikeGo, negotiate } from './connectLikeGo';

/** Options of {@link HttpsClient}. */
export interface HttpsClientOptions {
  /** `https://…` (or `http://…` for the Backstage backend, which serves plain HTTP here). */
  baseUrl: string;
  ca?: string;
  /** Client certificate and key (PEM). */
  cert?: string;
  key?: string;
  /** Headers sent with every request (identity headers of the aggregation layer, a token…). */
  headers?: Record<string, string | string[]>;
  /** Parallel connections kept alive (default 1: timed requests run one at a time). */
  maxSockets?: number;
  /**
   * Ask for gzip (`Accept-Encoding: gzip`), as client-go does by default (kubectl unless
   * `--disable-compression`); a compressed body is decompressed inside the timing. Default true.
   */
  compression?: boolean;
  /**
   * `negotiate`: offer `h2` and `http/1.1` as Go's client does (kube-apiserver's aggregator,
   * client-go) and use HTTP/2 with Go's settings when the server picks it; one connection then
   * carries every request, as the aggregator's pooled connection does. Default `http/1.1`.
   */
  protocol?: 'negotiate' | 'http/1.1';
}

/** One timed response. */
export interface TimedResponse {
  status: number;
  /** From writing the request to the last byte of the body (decompressed, when it was compressed), in ms. */
  ms: number;
  /** From writing the request to its response headers, in ms. */
  headersMs: number;
  /** From writing the request to the last byte on the wire (before any inflating), in ms. */
  receivedMs: number;
  /** Body bytes (decompressed). */
  bytes: number;
  /** Bytes on the wire (less than `bytes` when the body was compressed). */
  wireBytes: number;
  /** `h2` or `http/1.1`. */
  protocol: string;
  /** The body, when asked for. */
  body?: Buffer;
}

/**
 * A minimal HTTPS client over one keep-alive agent (or one HTTP/2 connection): the same transport
 * for the apiserver and the baseline, so their timings differ only by what the servers do. It
 * does not parse bodies: a timing ends at the last byte received, or when a compressed body is
 * inflated. That is one call once the body is in: Go's gzip reader inflates as the body is read,
 * on the reading goroutine, but Node's streaming gunzip hops to the thread pool for every chunk
 * (a 10,000-row Table took 11–16 ms that way against 9–11 ms in one call) and would time Node.
 */
export class HttpsClient {
  private readonly agent: http.Agent;
  private readonly url: URL;
  private readonly lib: typeof http | typeof https;
  private session?: Promise<http2.ClientHttp2Session | undefined>;

  constructor(private readonly options: HttpsClientOptions) {
    this.url = new URL(options.baseUrl);
    const plain = this.url.protocol === 'http:';
    this.lib = plain ? http : https;
    this.agent = plain
      ? new http.Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 1 })
      : new https.Agent({
          keepAlive: true,
          maxSockets: options.maxSockets ?? 1,
          ca: options.ca,
          cert: options.cert,
          key: options.key,
        });
  }

  /** GET `path`; the body is kept only with `keepBody`. */
  get(path: string, extra: { headers?: Record<string, string | string[]>; keepBody?: boolean } = {}): Promise<TimedResponse> {
    return this.request('GET', path, undefined, extra);
  }

  /** A request with an optional JSON body. */
  async request(
    method: string,
    path: string,
    body: unknown,
    extra: { headers?: Record<string, string | string[]>; keepBody?: boolean } = {},
  ): Promise<TimedResponse> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers = {
      ...(this.options.compression === false ? {} : { 'accept-encoding': 'gzip' }),
      ...this.options.headers,
      ...extra.headers,
      // a server-side apply says so (application/apply-patch+yaml; its JSON body is YAML)
      ...(payload ? { 'content-type': extra.headers?.['content-type'] ?? 'application/json', 'content-length': String(payload.length) } : {}),
    };
    const session = await this.http2Session();
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const done = (status: number, encoding: unknown, stream: Readable, protocol: string) => {
        const headersMs = performance.now() - started;
        readBody(stream, encoding === 'gzip', !!extra.keepBody).then(
          ({ receivedAt, ...r }) => resolve({ status, ms: performance.now() - started, headersMs, receivedMs: receivedAt - started, protocol, ...r }),
          reject,
        );
      };
      if (session) {
        const stream = session.request({ ':method': method, ':path': path, ...headers });
        stream.once('response', h => done(Number(h[':status']), h['content-encoding'], stream, 'h2'));
        stream.once('error', reject);
        stream.end(payload);
        return;
      }
      const req = this.lib.request(
        { protocol: this.url.protocol, hostname: this.url.hostname, port: this.url.port, method, path, agent: this.agent, headers },
        res => done(res.statusCode ?? 0, res.headers['content-encoding'], res, 'http/1.1'),
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** The HTTP/2 connection when the server chose `h2`; undefined for HTTP/1.1 (decided once). */
  private http2Session(): Promise<http2.ClientHttp2Session | undefined> {
    if (this.options.protocol !== 'negotiate' || this.url.protocol !== 'https:') return Promise.resolve(undefined);
    this.session ??= negotiate(this.options).then(({ protocol, socket }) => {
      if (protocol === 'h2') return connectLikeGo(this.options, socket);
      socket.destroy();
      return undefined;
    });
    return this.session;
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.agent.destroy();
    void this.session?.then(s => s?.destroy(), () => {});
  }
}

/** Reads a response body; a compressed one is decompressed in one call (see {@link HttpsClient}). */
function readBody(
  stream: Readable,
  gzip: boolean,
  keep: boolean,
): Promise<Omit<TimedResponse, 'status' | 'ms' | 'headersMs' | 'receivedMs' | 'protocol'> & { receivedAt: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let wireBytes = 0;
    stream.on('data', (d: Buffer) => {
      wireBytes += d.length;
      if (keep || gzip) chunks.push(d);
    });
    stream.on('end', () => {
      const receivedAt = performance.now();
      const received = gzip || keep ? Buffer.concat(chunks) : undefined;
      const decoded = gzip ? gunzipSync(received!) : received;
      resolve({ bytes: decoded ? decoded.length : wireBytes, wireBytes, receivedAt, ...(keep ? { body: decoded } : {}) });
    });
    stream.on('error', reject);
  });
}
