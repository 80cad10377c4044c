import type { IncomingMessage } from 'node:http';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A request body past the server's limit (kube-apiserver answers 413). */
export class BodyTooLarge extends Error {}

/**
 * Reads the whole body of a method that may carry one; rejects with {@link BodyTooLarge} as
 * soon as the declared or received size passes `limit`, without buffering the rest.
 */
export function readBody(
  req: IncomingMessage,
  limit: number,
): Promise<Buffer | undefined> {
  if (!BODY_METHODS.has(req.method ?? '')) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) {
      reject(new BodyTooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () =>
      resolve(chunks.length ? Buffer.concat(chunks) : undefined),
    );
    req.on('error', reject);
  });
}
