import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';

/** One HTTP answer, its body parsed when it is JSON. */
export interface KubeHttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  /** The body as received. */
  text: string;
  /** Wall time from sending to the end of the body. */
  ms: number;
}

/**
 * One request with a kubeconfig's server, credentials and CA, answered with status, headers and
 * body whatever the status (client-node's typed clients throw on non-2xx and hide headers, and
 * these tests assert on Retry-After and Status bodies). Rejects only on transport errors or
 * when `timeoutMs` passes.
 */
export async function kubeHttp(
  kc: KubeConfig,
  method: string,
  path: string,
  options: { body?: unknown; contentType?: string; timeoutMs?: number; headers?: Record<string, string> } = {},
): Promise<KubeHttpResponse> {
  const server = kc.getCurrentCluster()!.server;
  const opts: https.RequestOptions = { method, headers: { Accept: 'application/json', ...options.headers } };
  await kc.applyToHTTPSOptions(opts);
  const payload = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body));
  if (payload) {
    Object.assign(opts.headers!, { 'Content-Type': options.contentType ?? 'application/json', 'Content-Length': payload.length });
  }
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const req = https.request(`${server}${path}`, opts, res => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          // plain text (health endpoints, proxies)
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text, ms: Date.now() - started });
      });
    });
    req.setTimeout(options.timeoutMs ?? 30_000, () => req.destroy(new Error(`${method} ${path}: no answer after ${options.timeoutMs ?? 30_000} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}
