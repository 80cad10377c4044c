import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

const CRLF = Buffer.from('\r\n');

/**
 * One watch line framed as an HTTP/1.1 chunk (`<hex length>\r\n<line>\r\n`). Built once per
 * event and shared by every watcher that sends it.
 */
export interface WatchChunk {
  /** The whole chunk, for a chunked response. */
  framed: Buffer;
  /** The line alone (a view into `framed`), for a response that is not chunked. */
  line: Buffer;
}

/** Frames the line made of `parts` (the last ends with its newline) as one chunk, in one copy. */
export function watchChunk(...parts: Array<Buffer | string>): WatchChunk {
  const bodies = parts.map(p => (typeof p === 'string' ? Buffer.from(p) : p));
  let length = 0;
  for (const b of bodies) length += b.length;
  const head = Buffer.from(`${length.toString(16)}\r\n`);
  const framed = Buffer.concat([head, ...bodies, CRLF]);
  return { framed, line: framed.subarray(head.length, head.length + length) };
}

/**
 * Writes one watch line. `ServerResponse.write` frames a chunk as four writes into a socket it
 * corks until the next tick, so an event fanned out to 1,000 watches reached the first socket
 * only after all 1,000 had been framed, and every socket paid for four buffered pieces. A chunk
 * framed once is one write that leaves at once. The response's own state stays right: its
 * headers were flushed before the first line, `res.end()` writes the last chunk, and
 * `res.writableLength` counts the socket's buffer.
 */
export function writeWatchChunk(res: ServerResponse, chunk: WatchChunk): void {
  const socket = res.socket as (Socket & { _httpMessage?: unknown }) | null;
  const own = res as ServerResponse & { chunkedEncoding?: boolean; outputData?: unknown[] };
  // only while this response owns the socket and nothing of it waits in its own queue (a
  // pipelined request's response is queued until the ones before it finish)
  const direct =
    own.chunkedEncoding === true && socket?._httpMessage === res && res.headersSent && !res.writableEnded && !own.outputData?.length;
  if (direct && socket) {
    if (!socket.destroyed) socket.write(chunk.framed);
    return;
  }
  res.write(chunk.line);
}

const NOTHING = Buffer.alloc(0);

/**
 * Ends a watch response once the chunks written straight to its socket have left it. TLS writes
 * complete on a later tick, so `res.end()` right after one would leave the last chunk (`0\r\n\r\n`)
 * in the socket's own buffer, and closing idle connections at shutdown (which counts a response
 * as done once `end()` was called) would destroy the socket with it: the client would see its
 * watch cut instead of ended. An empty write's callback runs after every write before it.
 */
export function endWatchResponse(res: ServerResponse): void {
  const socket = res.socket;
  const end = () => {
    if (!res.writableEnded) res.end();
  };
  if (socket && !socket.destroyed && socket.writableLength > 0 && (socket as Socket & { _httpMessage?: unknown })._httpMessage === res) {
    socket.write(NOTHING, end);
  } else {
    end();
  }
}
