import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  ObjectStore,
  ResourceDefinition,
  StoreEvent,
  StoredObject,
} from '../store/types';
import { StoreError } from '../store/types';
import { matchesFields } from './fieldSelector';
import { matchesLabels } from './labelSelector';
import type { ListOptions } from './listOptions';
import type { OutputTarget } from './negotiate';
import { toStatus } from './status';
import { type IncludeObject, partialObjectMetadata, toTable } from './table';
import { waitForResourceVersion } from './waitForResourceVersion';

/** What a watch needs besides the request. */
export interface WatchContext {
  store: ObjectStore;
  /** How often BOOKMARK events are sent when the client allows them. */
  bookmarkIntervalMs: number;
  /**
   * Called with a function that ends this watch cleanly (server shutdown), with a final
   * bookmark unless told otherwise (fault injection wants clients to resume from their own RV).
   */
  register?: (end: (finalBookmark?: boolean) => void) => () => void;
}

const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

/**
 * Serves a watch as kube-apiserver does (contract §7): headers flushed at once, one compact JSON
 * event per line, synthetic ADDED events or a WatchList snapshot with the initial-events-end
 * bookmark, selector transitions, periodic bookmarks, 410 as an ERROR event, timeoutSeconds,
 * and a clean end (never a destroyed socket) on timeout; client disconnects release everything.
 */
export async function watchResource(
  req: IncomingMessage,
  res: ServerResponse,
  def: ResourceDefinition,
  namespace: string | undefined,
  opts: ListOptions,
  output: OutputTarget,
  includeObject: IncludeObject,
  ctx: WatchContext,
): Promise<void> {
  const { store } = ctx;
  const apiVersion = def.group ? `${def.group}/${def.version}` : def.version;
  const matches = (o: StoredObject | undefined): boolean =>
    !!o &&
    (!namespace || !def.namespaced || o.metadata.namespace === namespace) &&
    matchesLabels(opts.labelSelector, o.metadata.labels) &&
    matchesFields(opts.fieldSelector, o);

  const requestedRV =
    opts.resourceVersion === undefined
      ? undefined
      : Number(opts.resourceVersion);
  if (requestedRV !== undefined && requestedRV > 0)
    await waitForResourceVersion(store, requestedRV);
  // Where live events start and whether the current state is sent first (contract §7.4, §7.6).
  let initial = false;
  let fromRV: number | undefined;
  if (opts.sendInitialEvents === true) initial = true;
  else if (opts.sendInitialEvents === false)
    fromRV = requestedRV && requestedRV > 0 ? requestedRV : undefined;
  else if (requestedRV === undefined || requestedRV === 0) initial = true;
  else fromRV = requestedRV;

  let tableColumnsSent = false;
  const transform = (o: StoredObject): unknown => {
    const obj = { ...o, apiVersion };
    if (
      output === 'PartialObjectMetadata' ||
      output === 'PartialObjectMetadataList'
    )
      return partialObjectMetadata(obj);
    if (output === 'Table') {
      const table = toTable(def, [obj], {
        includeObject,
        omitColumns: tableColumnsSent,
      });
      tableColumnsSent = true;
      return table;
    }
    return obj;
  };
  const bookmarkObject = (rv: number, annotations?: Record<string, string>) => {
    const metadata = {
      resourceVersion: String(rv),
      ...(annotations ? { annotations } : {}),
    };
    if (
      output === 'PartialObjectMetadata' ||
      output === 'PartialObjectMetadataList'
    ) {
      return {
        kind: 'PartialObjectMetadata',
        apiVersion: 'meta.k8s.io/v1',
        metadata,
      };
    }
    return { kind: def.kind, apiVersion, metadata };
  };

  const pending: StoreEvent[] = [];
  let live = false;
  let closed = false;
  const write = (type: string, object: unknown) => {
    if (!closed) res.write(`${JSON.stringify({ type, object })}\n`);
  };
  const send = (ev: StoreEvent) => {
    const now = matches(ev.object);
    const before =
      ev.type === 'ADDED' ? false : matches(ev.oldObject ?? ev.object);
    if (ev.type === 'DELETED') {
      if (before) write('DELETED', transform(ev.object));
    } else if (now && !before) write('ADDED', transform(ev.object));
    else if (now && before)
      write(ev.type === 'ADDED' ? 'ADDED' : 'MODIFIED', transform(ev.object));
    else if (!now && before && ev.oldObject) {
      // stopped matching: the previous state with the RV of this change (§7.7)
      const gone = structuredClone(ev.oldObject);
      gone.metadata.resourceVersion = ev.object.metadata.resourceVersion;
      write('DELETED', transform(gone));
    }
  };
  const onStoreEvent = (ev: StoreEvent) => {
    if (ev.resource.group !== def.group || ev.resource.plural !== def.plural)
      return;
    if (!live) {
      pending.push(ev);
      return;
    }
    send(ev);
  };

  let subscription: { stop(): void } | undefined;
  let expired: StoreError | undefined;
  const snapshotRV = store.currentRV();
  try {
    subscription = store.watch(initial ? snapshotRV : fromRV, onStoreEvent);
  } catch (err) {
    if (err instanceof StoreError && err.code === 410) expired = err;
    else throw err;
  }

  res.writeHead(200, {
    'Content-Type':
      output === 'Table'
        ? 'application/json;as=Table;g=meta.k8s.io;v=v1'
        : 'application/json',
    'Cache-Control': 'no-cache, private',
    'X-Content-Type-Options': 'nosniff',
    'Transfer-Encoding': 'chunked',
  });
  res.flushHeaders();
  req.socket.setNoDelay(true);

  if (expired) {
    write('ERROR', toStatus(expired));
    res.end();
    return;
  }

  const timers: NodeJS.Timeout[] = [];
  const registration: { unregister?: () => void } = {};
  const finish = (finalBookmark: boolean) => {
    if (closed) return;
    subscription?.stop();
    timers.forEach(t => clearTimeout(t));
    registration.unregister?.();
    if (finalBookmark && opts.allowWatchBookmarks)
      write('BOOKMARK', bookmarkObject(store.currentRV()));
    closed = true;
    res.end();
  };
  req.on('close', () => finish(false));
  res.on('close', () => finish(false));
  registration.unregister = ctx.register?.((finalBookmark = true) => finish(finalBookmark));

  try {
    if (initial) {
      for (const o of store.list(def, def.namespaced ? namespace : undefined)) {
        if (matches(o) && Number(o.metadata.resourceVersion) <= snapshotRV)
          write('ADDED', transform(o));
      }
      if (opts.sendInitialEvents && opts.allowWatchBookmarks) {
        write(
          'BOOKMARK',
          bookmarkObject(snapshotRV, { [INITIAL_EVENTS_END]: 'true' }),
        );
      }
    }
    live = true;
    for (const ev of pending.splice(0)) send(ev);
  } catch (err) {
    write('ERROR', toStatus(err));
    finish(false);
    return;
  }

  if (opts.allowWatchBookmarks) {
    const tick = () => {
      write('BOOKMARK', bookmarkObject(store.currentRV()));
      timers[0] = setTimeout(tick, ctx.bookmarkIntervalMs);
    };
    timers[0] = setTimeout(tick, ctx.bookmarkIntervalMs);
  }
  // Without timeoutSeconds kube picks a random duration in [30 min, 60 min).
  const timeoutMs =
    opts.timeoutSeconds && opts.timeoutSeconds > 0
      ? opts.timeoutSeconds * 1000
      : (1800 + Math.random() * 1800) * 1000;
  timers[1] = setTimeout(() => finish(true), timeoutMs);
}
