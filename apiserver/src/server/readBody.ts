import type { IncomingMessage } from 'node:http';
import { badRequest, requestEntityTooLarge } from './StatusError';

/**
 * How much of an oversized body is still read and dropped after the 413. Closing a connection
 * while the client is still sending makes the kernel reset it, and the client may lose the 413
 * it has not read yet; past this much the connection is cut anyway (Go drops 256 KiB).
 */
export const DROPPED_BODY_BYTES = 8 * 1024 * 1024;

/** Reads and drops the rest of a refused body (keep-alive goes on); cuts the connection past DROPPED_BODY_BYTES. */
function dropRest(req: IncomingMessage): void {
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DROPPED_BODY_BYTES) req.socket.destroy();
  });
  req.on('error', () => undefined);
  req.resume();
}

/**
 * Reads a request body up to `limit` bytes; more is a 413 Status (kube-apiserver's limit is 3 MiB).
 * A declared Content-Length over the limit is refused before anything is read; a chunked body is
 * counted as it arrives. Bodies are read by us, never by a framework's parsers, which answer in HTML
 * and cap at 100 kB.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  if (Number(req.headers['content-length'] ?? 0) > limit) {
    dropRest(req);
    return Promise.reject(requestEntityTooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
    };
    function onData(chunk: Buffer) {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      stop();
      dropRest(req);
      reject(requestEntityTooLarge(limit));
    }
    function onEnd() {
      stop();
      resolve(Buffer.concat(chunks));
    }
    // a client that goes away mid-body must not leave the request waiting forever
    function onClose() {
      stop();
      reject(badRequest('the request body ended before its end'));
    }
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
    req.on('error', () => undefined);
  });
}
