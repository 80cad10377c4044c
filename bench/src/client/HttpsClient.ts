import http from 'node:http';
import https from 'node:https';

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
}

/** One timed response. */
export interface TimedResponse {
  status: number;
  /** From writing the request to the last byte of the body, in ms. */
  ms: number;
  bytes: number;
  /** The body, when asked for. */
  body?: Buffer;
}

/**
 * A minimal HTTPS client over one keep-alive agent: the same transport for the apiserver and
 * the baseline, so their timings differ only by what the servers do. It does not parse bodies:
 * a timing ends at the last byte received.
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
            ...this.options.headers,
            ...extra.headers,
            ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) } : {}),
          },
        },
        res => {
          const chunks: Buffer[] = [];
          let bytes = 0;
          res.on('data', (d: Buffer) => {
            bytes += d.length;
            if (extra.keepBody) chunks.push(d);
          });
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              ms: performance.now() - started,
              bytes,
              ...(extra.keepBody ? { body: Buffer.concat(chunks) } : {}),
            }),
          );
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
