import type { ServerResponse } from 'node:http';
import YAML from 'yaml';
import type { StatusError } from './StatusError';
import type { OutputFormat } from './negotiate';
import { GZIP_THRESHOLD_BYTES } from './compression/acceptsGzip';
import { sharedGzipBlocks } from './compression/sharedGzipBlocks';
import { responseClosed } from './responseClosed';
import type { ListBody } from './ListBodyCache';

/** Headers k8s.io/apiserver puts on every API response. */
export const API_HEADERS = {
  'Cache-Control': 'no-cache, private',
  'X-Content-Type-Options': 'nosniff',
} as const;

const WRITE_CHUNK_BYTES = 256 * 1024;

/** Content-Type of a (possibly transformed) JSON response, as kube-apiserver writes it. */
export function contentTypeOf(format: OutputFormat): string {
  const base = format.encoding === 'yaml' ? 'application/yaml' : 'application/json';
  const t = format.transform;
  return t ? `${base};as=${t.kind};v=${t.version};g=meta.k8s.io` : base;
}

/** Sends an already-encoded JSON body (text or UTF-8 bytes), re-encoded as YAML when that was negotiated. */
export function sendEncoded(
  res: ServerResponse,
  code: number,
  json: string | Buffer,
  format: OutputFormat = { encoding: 'json' },
  extraHeaders: Record<string, string> = {},
): void {
  const body = format.encoding === 'yaml' ? YAML.stringify(JSON.parse(json.toString())) : json;
  res.writeHead(code, {
    ...API_HEADERS,
    'Content-Type': contentTypeOf(format),
    'Content-Length': Buffer.byteLength(body),
    ...extraHeaders,
  });
  res.end(body);
}

/** The wait of each response that is waiting for its buffer to drain (one, however many ask). */
const draining = new WeakMap<ServerResponse, Promise<void>>();

/**
 * Resolves when `res` has flushed its buffer to the socket, or is closed. Writers that wait at
 * once (a watch's deliveries) share one wait: one listener each on the response and its stream,
 * not one per writer (an HTTP/2 stream warned of 11 `drain` listeners under a burst of events).
 */
export function drained(res: ServerResponse): Promise<void> {
  const waiting = draining.get(res);
  if (waiting) return waiting;
  const wait = new Promise<void>(resolve => {
    // a close that already happened would never be heard
    if (responseClosed(res)) {
      resolve();
      return;
    }
    // watches write their chunks to the socket itself (writeWatchChunk): its drain is theirs
    const socket = res.socket;
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      socket?.off('drain', done);
      draining.delete(res);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
    socket?.on('drain', done);
  });
  // a response closed already resolved at once: nothing to share
  if (!responseClosed(res)) draining.set(res, wait);
  return wait;
}

/** Write buffers given back once the socket has taken their bytes (see {@link sendPieces}). */
const spareChunks: Buffer[] = [];

/**
 * Sends a large JSON body given as its UTF-8 pieces (pre-encoded objects and the separators
 * between them), as the client reads it. The pieces are copied into a few reused 256 KiB
 * buffers: one write per piece cost more CPU (tens of thousands of calls), and a fresh body-sized
 * buffer per request (16 MiB at 10,000 instances, 80 MiB at 50,000) made V8 collect its whole
 * heap every few requests. With `gzip` (the client accepts it) a body above kube-apiserver's
 * threshold is sent compressed, from blocks compressed once (`GzipBlocks`). Resolves when
 * the body is written, or the client went away. `body` is a cached middle part (the items) to
 * send between the first and the last piece.
 */
export async function sendPieces(
  res: ServerResponse,
  code: number,
  given: readonly Buffer[],
  format: OutputFormat = { encoding: 'json' },
  gzip = false,
  body?: ListBody,
): Promise<void> {
  // the cached middle part is not copied into one array with the ends: at 10,000 instances that
  // was 20,000–60,000 elements per request
  const parts: ReadonlyArray<readonly Buffer[]> = body ? [[given[0]], body.pieces, [given[given.length - 1]]] : [given];
  if (format.encoding === 'yaml') {
    sendEncoded(res, code, Buffer.concat(parts.flat()), format);
    return;
  }
  let length = body ? given[0].length + body.bytes + given[given.length - 1].length : 0;
  if (!body) for (const piece of given) length += piece.length;
  // a cached body says itself whether its gzip is ready enough to send (ListBody.gzipped)
  const worthIt = gzip && length > GZIP_THRESHOLD_BYTES;
  const bodyGzip = worthIt ? body?.gzipped() : undefined;
  if (worthIt && (!body || bodyGzip)) {
    const members = body
      ? [sharedGzipBlocks.end(given[0]), ...(await bodyGzip!), sharedGzipBlocks.end(given[given.length - 1])]
      : await sharedGzipBlocks.compress(given);
    if (responseClosed(res)) return;
    let compressed = 0;
    for (const m of members) compressed += m.length;
    res.writeHead(code, {
      ...API_HEADERS,
      'Content-Type': contentTypeOf(format),
      'Content-Encoding': 'gzip',
      Vary: 'Accept-Encoding',
      'Content-Length': compressed,
    });
    // a few hundred small members: one write each would be one TLS record each
    res.cork();
    for (const m of members) res.write(m);
    res.uncork();
    res.end();
    return;
  }
  res.writeHead(code, { ...API_HEADERS, 'Content-Type': contentTypeOf(format), 'Content-Length': length });
  let chunk = spareChunks.pop() ?? Buffer.allocUnsafeSlow(WRITE_CHUNK_BYTES);
  let used = 0;
  const flush = async () => {
    const full = chunk;
    // handed back only once written: until then the socket may still read from it
    const more = res.write(full.subarray(0, used), () => {
      if (spareChunks.length < 8) spareChunks.push(full);
    });
    chunk = spareChunks.pop() ?? Buffer.allocUnsafeSlow(WRITE_CHUNK_BYTES);
    used = 0;
    if (!more && !responseClosed(res)) await drained(res);
  };
  for (const part of parts) {
    for (const piece of part) {
      let offset = 0;
      while (offset < piece.length) {
        const n = piece.copy(chunk, used, offset);
        used += n;
        offset += n;
        if (used === chunk.length) {
          await flush();
          if (responseClosed(res)) return;
        }
      }
    }
  }
  const last = chunk;
  res.end(last.subarray(0, used), () => {
    if (spareChunks.length < 8) spareChunks.push(last);
  });
}

/** Sends a `metav1.Status` error body with its code and headers (always JSON). */
export function sendStatusError(res: ServerResponse, err: StatusError): void {
  sendEncoded(res, err.code, JSON.stringify(err.status), { encoding: 'json' }, err.headers);
}
