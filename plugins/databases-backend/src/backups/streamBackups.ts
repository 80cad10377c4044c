import type { Response } from 'express';
import type { DatabaseBackup } from '@internal/plugin-databases-common';
import { HEARTBEAT_MS, openSse, sseFrame } from '../events/openSse';
import type { BackupsWatch } from './BackupsWatch';

/**
 * Streams one instance's backups to a browser from `first` (the list already made, so that a
 * refusal was answered as an error, not as a stream): `backups` with the list, then `backup` per
 * change, as long as the browser stays. When the cluster stops answering or refuses, an `error`
 * event says why and the stream ends; the browser opens it again (and lists again).
 */
export function streamBackups(
  res: Response,
  cluster: string,
  watch: BackupsWatch,
  first: { items: DatabaseBackup[]; resourceVersion?: string },
  heartbeatMs = HEARTBEAT_MS,
): Promise<void> {
  openSse(res);
  res.write(sseFrame('backups', { cluster, items: first.items }));
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), heartbeatMs);
  heartbeat.unref();
  const sink = {
    list: (items: DatabaseBackup[]) => res.write(sseFrame('backups', { cluster, items })),
    change: (change: unknown) => res.write(sseFrame('backup', change)),
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
