import type { ServerResponse } from 'node:http';

/**
 * Whether a response is closed: sent, or its client gone. Over HTTP/2, Node's compatibility
 * response has neither `closed` nor `destroyed` (its stream has them), so asking the response
 * alone never learns that a client reset its stream: a writer waited for a drain that could not
 * come, and the request kept its in-flight slot for ever.
 */
export function responseClosed(res: ServerResponse): boolean {
  const stream = (res as { stream?: { closed?: boolean; destroyed?: boolean } }).stream;
  return res.closed || res.destroyed || !!stream?.closed || !!stream?.destroyed;
}
