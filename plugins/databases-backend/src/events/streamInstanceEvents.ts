import type { Response } from 'express';
import type { InstanceKubeEvent } from '@internal/plugin-databases-common';
import type { InstanceEventsWatch } from './InstanceEventsWatch';
import { HEARTBEAT_MS, openSse, sseFrame } from './openSse';

/**
 * Streams one instance's events to a browser from `first` (the list already made, so that a
 * refusal was answered as an error, not as a stream): `events` with the list, then `event` per
 * change, as long as the browser stays. When the cluster stops answering or refuses, an `error`
 * event says why and the stream ends; the browser opens it again (and lists again).
 */
export function streamInstanceEvents(
  res: Response,
  watch: InstanceEventsWatch,
  first: { items: InstanceKubeEvent[]; resourceVersion?: string },
  heartbeatMs = HEARTBEAT_MS,
): Promise<void> {
  openSse(res);
  res.write(sseFrame('events', { items: first.items }));
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), heartbeatMs);
  heartbeat.unref();
  const sink = {
    list: (items: InstanceKubeEvent[]) => res.write(sseFrame('events', { items })),
    change: (change: unknown) => res.write(sseFrame('event', change)),
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
