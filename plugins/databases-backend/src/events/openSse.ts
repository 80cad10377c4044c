import type { Response } from 'express';

/** How often an idle stream gets a comment, so that proxies keep it open. */
export const HEARTBEAT_MS = 15_000;

/** Answers `res` as a server-sent event stream (headers sent now, nothing buffered on the way). */
export function openSse(res: Response): void {
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  res.write('retry: 3000\n\n');
}

/** One server-sent event. */
export const sseFrame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
