import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { StatusError } from './StatusError';
import { API_HEADERS } from './respond';

/**
 * Answers a request Node's HTTP parser refused (bad request line or header, headers over the
 * size limit, a header timeout) with a Kubernetes Status instead of Node's bare status line, so
 * that clients see the same kind of error as for every other refusal. The rejected bytes are
 * never echoed back. A connection that already has a response under way is just closed.
 */
export function answerClientError(err: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex): void {
  // Only HTTP's own refusals get an answer. Anything else (a TLS alert, a refused renegotiation,
  // a reset) leaves nothing to write to: ending such a socket gracefully never completes, and it
  // stayed open for ever (server.close waited on it).
  const http = err.code?.startsWith('HPE_') || err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  if (!http || !socket.writable || (socket as Duplex & { _httpMessage?: unknown })._httpMessage) {
    socket.destroy();
    return;
  }
  let status: StatusError;
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    status = new StatusError(431, 'RequestHeaderFieldsTooLarge', 'the request headers are larger than the server accepts');
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = new StatusError(408, 'Timeout', 'the request was not received in time');
  } else {
    status = new StatusError(400, 'BadRequest', `the request could not be parsed as HTTP/1.1${err.code ? ` (${err.code})` : ''}`);
  }
  const json = JSON.stringify(status.status);
  const headers = { ...API_HEADERS, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(json), Connection: 'close' };
  // a HEAD answer must not have a body, or the client reads it as the next response
  const isHead = err.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
  socket.end(
    `HTTP/1.1 ${status.code} ${STATUS_CODES[status.code]}\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n${isHead ? '' : json}`,
  );
}
