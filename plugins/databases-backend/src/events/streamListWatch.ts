import type { Response } from 'express';
import type { SelectedListWatch } from '../kube/SelectedListWatch';
import { HEARTBEAT_MS, openSse, sseFrame } from './openSse';

/** The server-sent event names of one stream: the whole list, and one change. */
export interface StreamFrames {
  list: string;
  change: string;
  /** Fields every list frame carries beside `items` (the cluster). */
  with?: Record<string, unknown>;
}

/**
 * Streams a SelectedListWatch to a browser from `first` (the list already made, so that a refusal
 * was answered as an error, not as a stream): a `frames.list` event with the list, then a
 * `frames.change` event per change, as long as the browser stays. When the cluster stops
 * answering or refuses, an `error` event says why and the stream ends; the browser opens it again
 * (and lists again). An instance's events and its backups stream so.
 */
export function streamListWatch<T, C>(
  res: Response,
  watch: SelectedListWatch<T, C>,
  first: { items: T[]; resourceVersion?: string },
  frames: StreamFrames,
  heartbeatMs = HEARTBEAT_MS,
): Promise<void> {
  openSse(res);
  const listFrame = (items: T[]) => sseFrame(frames.list, { ...frames.with, items });
  res.write(listFrame(first.items));
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), heartbeatMs);
  heartbeat.unref();
  const sink = {
    list: (items: T[]) => res.write(listFrame(items)),
    change: (change: C) => res.write(sseFrame(frames.change, change)),
  };
  return watch
    .follow(sink, first.resourceVersion, gone.signal)
    .catch(e => {
      if (!gone.signal.aborted) res.write(sseFrame('error', { message: (e as Error).message }));
    })
    .finally(() => {
      clearInterval(heartbeat);
      res.end();
    });
}
