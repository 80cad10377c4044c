import http from 'node:http';
import https from 'node:https';
import { gunzipSync } from 'node:zlib';

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
}

/** One timed response. */
export interface TimedResponse {
  status: number;
  /** From writing the request to the last byte of the body (decompressed, when it was compressed), in ms. */
  ms: number;
  /** Body bytes (decompressed). */
  bytes: number;
  /** Bytes on the wire (less than `bytes` when the body was compressed). */
  wireBytes: number;
  /** The body, when asked for. */
  body?: Buffer;
}

/**
 * A minimal HTTPS client over one keep-alive agent: the same transport for the apiserver and
 * the baseline, so their timings differ only by what the servers do. It does not parse bodies:
 * a timing ends at the last byte received, or when a compressed body is decompressed (in one
 * call, as Go's gzip reader does inside client-go: Node's streaming gunzip hops to the thread
 * pool per chunk and would time Node, not the server).
 */
export class HttpsClient {
  private readonly agent: http.Agent;
  private readonly url: URL;
  private readonly lib: typeof http | typeof https;

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
  request(
    method: string,
    path: string,
    body: unknown,
    extra: { headers?: Record<string, string | string[]>; keepBody?: boolean } = {},
  ): Promise<TimedResponse> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const req = this.lib.request(
        {
          protocol: this.url.protocol,
          hostname: this.url.hostname,
          port: this.url.port,
          method,
          path,
          agent: this.agent,
          headers: {
            ...(this.options.compression === false ? {} : { 'Accept-Encoding': 'gzip' }),
            ...this.options.headers,
            ...extra.headers,
            ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) } : {}),
          },
        },
        res => {
          const chunks: Buffer[] = [];
          const gzip = res.headers['content-encoding'] === 'gzip';
          let wireBytes = 0;
          res.on('data', (d: Buffer) => {
            wireBytes += d.length;
            if (extra.keepBody || gzip) chunks.push(d);
          });
          res.on('end', () => {
            const received = gzip || extra.keepBody ? Buffer.concat(chunks) : undefined;
            const decoded = gzip ? gunzipSync(received!) : received;
            resolve({
              status: res.statusCode ?? 0,
              ms: performance.now() - started,
              bytes: decoded ? decoded.length : wireBytes,
              wireBytes,
              ...(extra.keepBody ? { body: decoded } : {}),
            });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.agent.destroy();
  }
}
