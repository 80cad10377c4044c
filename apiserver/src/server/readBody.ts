import type { IncomingMessage } from 'node:http';
import { requestEntityTooLarge } from './StatusError';

/**
 * Reads a request body up to `limit` bytes; more is a 413 Status (kube-apiserver's limit is 3 MiB).
 * Bodies are read by us, never by express's parsers, which answer in HTML and cap at 100 kB.
 */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw requestEntityTooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      // stop reading; the connection is closed after the 413 is sent
      req.unpipe();
      throw requestEntityTooLarge(limit);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
