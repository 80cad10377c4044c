import https from 'node:https';
import type { RequestOptions } from 'node:https';

/** The outcome of {@link backendGet}. */
export type BackendGetResult =
  { ok: true; status: number; body: Buffer } | { ok: false; error: string };

/**
 * One GET to an extension server with a hard timeout and no redirect following, as the
 * aggregator's availability probe and OpenAPI downloader do. Never rejects.
 */
export function backendGet(
  url: string,
  options: RequestOptions & { timeoutMs: number; maxBytes?: number },
): Promise<BackendGetResult> {
  const { timeoutMs, maxBytes = 32 * 1024 * 1024, ...rest } = options;
  return new Promise(resolve => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined = undefined;
    const done = (r: BackendGetResult) => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        resolve(r);
      }
    };
    const req = https.request(url, { ...rest, method: 'GET' }, res => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > maxBytes) req.destroy(new Error('response too large'));
        else chunks.push(c);
      });
      res.on('end', () =>
        done({
          ok: true,
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks),
        }),
      );
      res.on('error', e => done({ ok: false, error: e.message }));
    });
    timer = setTimeout(() => {
      req.destroy(
        new Error(
          `Client.Timeout exceeded while awaiting headers (${timeoutMs}ms)`,
        ),
      );
    }, timeoutMs);
    req.on('error', e => done({ ok: false, error: e.message }));
    req.end();
  });
}
