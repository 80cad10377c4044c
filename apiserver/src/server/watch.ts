import type { DatabaseInstance } from '@internal/plugin-databases-common';
import { DATABASES_GROUP_VERSION } from '@internal/plugin-databases-common';
import type { InstanceEvent, WatchableStore, WatchSubscription } from '../cache/types';
import { ResourceVersionExpiredError } from '../cache/types';
import type { ApiserverMetrics } from '../metrics/createMetrics';
import { buildTable } from '../table/buildTable';
import { encodeObjectBytes, encodePartialObjectMetadataBytes, toPartialObjectMetadata, withResourceVersion, type KubeObject } from './encode';
import { parseIncludeObject, parseListOptions, type ListOptions } from './listOptions';
import { negotiateOutput, type OutputFormat } from './negotiate';
import { objectMatcher, type HandlerContext } from './readHandlers';
import { API_HEADERS, contentTypeOf, drained } from './respond';
import { endWatchResponse, watchChunk, writeWatchChunk, type WatchChunk } from './watchChunk';
import type { ResourceDefinition } from './resources';
import { parseResourceVersion, waitForResourceVersion } from './resourceVersion';
import { internalError, StatusError } from './StatusError';
import type { Logger } from './logger';
import { responseClosed } from './responseClosed';

/** Open watches, so shutdown can end each one cleanly. */
export interface WatchRegistry {
  add(end: () => void): void;
  delete(end: () => void): void;
}

/** Settings of {@link serveWatch}. */
export interface WatchSettings<T extends KubeObject = DatabaseInstance> {
  store: WatchableStore<T>;
  definition: ResourceDefinition<T>;
  registry: WatchRegistry;
  metrics: ApiserverMetrics;
  logger: Logger;
  bookmarkIntervalMs: number;
}

/** The annotation marking the end of a WatchList's initial events (`metav1.InitialEventsAnnotationKey`). */
export const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

/** A watch stays above this many buffered bytes only for a stuck client; it is ended (clients resume). */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;
/**
 * A client that keeps more than this buffered for `SLOW_GRACE_MS` is not keeping up: its watch
 * is ended (kube-apiserver likewise drops watchers whose buffer stays full). Bursts (a flush of
 * thousands of changes is written in one go) pass if the client drains them in time.
 */
const SLOW_BUFFERED_BYTES = 8 * 1024 * 1024;
const SLOW_GRACE_MS = 5000;

const NEWLINE_CLOSE = Buffer.from('}\n');

/**
 * Encoded event lines of the events being fanned out, keyed by the (memoised) object bytes: the
 * store calls every watcher in turn with the same object, so the line is built once per event
 * and format instead of once per watcher. A few slots cover watchers of different formats.
 */
const recentLines: Array<{ bytes: Buffer; type: string; chunk: WatchChunk }> = [];

function eventLine(type: string, bytes: Buffer): WatchChunk {
  const hit = recentLines.find(l => l.bytes === bytes && l.type === type);
  if (hit) return hit.chunk;
  const chunk = watchChunk(`{"type":"${type}","object":`, bytes, NEWLINE_CLOSE);
  recentLines.unshift({ bytes, type, chunk });
  recentLines.length = Math.min(recentLines.length, 4);
  return chunk;
}


/** Default duration of a watch without timeoutSeconds: random in [30, 60) minutes like kube-apiserver. */
const defaultTimeoutMs = () => (30 + Math.random() * 30) * 60_000;

/**
 * WATCH of databaseinstances (contract §7): JSON lines, headers flushed at once, synthetic ADDED
 * events for the state when asked (no RV, RV=0, or sendInitialEvents), then every change after
 * the snapshot's resourceVersion; bookmarks, selector transitions, Table/metadata transforms,
 * 410 as an ERROR event, and a clean end on timeout, disconnect or shutdown.
 */
export async function serveWatch<T extends KubeObject>(ctx: HandlerContext, settings: WatchSettings<T>, parsed?: ListOptions) {
  const { store, definition: def, metrics, logger } = settings;
  const opts = parsed ?? parseListOptions(ctx.query, def.fieldSelectors, true);
  if (ctx.pathName) {
    // `/watch/namespaces/ns/databaseinstances/<name>` watches one object
    opts.fieldSelector = [...opts.fieldSelector, { field: 'metadata.name', operator: '=', value: ctx.pathName }];
  }
  const format = negotiateOutput(ctx.req.headers.accept, 'watch');
  const includeObject = format.transform?.kind === 'Table' ? parseIncludeObject(ctx.query) : 'Metadata';

  const rv = opts.resourceVersion;
  const current = () => store.resourceVersion() || '0';
  let initialEvents: boolean;
  let startRv: string | undefined;
  if (opts.sendInitialEvents !== undefined) {
    if (rv && rv !== '0') {
      const wanted = parseResourceVersion(rv);
      if (BigInt(current()) < wanted) await waitForResourceVersion(store, wanted, ctx.tooLargeWaitMs);
      startRv = opts.sendInitialEvents ? undefined : wanted.toString();
    }
    initialEvents = opts.sendInitialEvents;
  } else if (!rv || rv === '0') {
    initialEvents = true;
  } else {
    const wanted = parseResourceVersion(rv);
    if (BigInt(current()) < wanted) await waitForResourceVersion(store, wanted, ctx.tooLargeWaitMs);
    initialEvents = false;
    startRv = wanted.toString();
  }
  const timeoutMs =
    opts.timeoutSeconds !== undefined && opts.timeoutSeconds > 0 ? opts.timeoutSeconds * 1000 : defaultTimeoutMs();

  const matches = objectMatcher(def, ctx.info.namespace, opts.labelSelector, opts.fieldSelector);
  const { res } = ctx;
  // the client may have left while the watch waited for its resourceVersion: its close is past,
  // so nothing below would ever end the watch (over HTTP/2 the socket is gone with it)
  if (responseClosed(res)) return;
  res.writeHead(200, { ...API_HEADERS, 'Content-Type': contentTypeOf(format) });
  res.flushHeaders();
  ctx.req.socket.setNoDelay(true);

  let ended = false;
  let sub: WatchSubscription | undefined;
  const timers: NodeJS.Timeout[] = [];
  let firstTableEvent = true;
  const resourceLabel = { resource: def.plural };

  // set below, once bookmarks can be written: how shutdown ends this watch
  let endForShutdown: () => void = () => {};
  const end = () => {
    if (ended) return;
    ended = true;
    sub?.stop();
    timers.forEach(t => clearTimeout(t));
    settings.registry.delete(endForShutdown);
    metrics.watchers.dec(resourceLabel);
    endWatchResponse(res);
  };
  metrics.watchers.inc(resourceLabel);
  // the response's close (not the request's, which fires once the body is read) means disconnect
  res.on('close', end);

  let slowSince: NodeJS.Timeout | undefined;
  const dropSlowClient = () => {
    logger.warn('Ending watch of a client that does not read', { resource: def.plural, bufferedBytes: res.writableLength });
    end();
    // what is buffered would never be read: free it now rather than when TCP gives up
    res.destroy();
  };
  // bound once per type: labelling on every write hashed the labels 1,000 times per fanned-out change
  const eventCounters = new Map<string, { inc(): void }>();
  /** Writes one event; `object` is its JSON text, or its memoised bytes (shared line). */
  const write = (type: string, object: string | Buffer) => {
    if (ended) return;
    writeWatchChunk(res, typeof object === 'string' ? watchChunk(`{"type":"${type}","object":${object}}\n`) : eventLine(type, object));
    let counter = eventCounters.get(type);
    if (!counter) {
      counter = metrics.watchEvents.labels({ type });
      eventCounters.set(type, counter);
    }
    counter.inc();
    if (res.writableLength > MAX_BUFFERED_BYTES) {
      dropSlowClient();
    } else if (res.writableLength > SLOW_BUFFERED_BYTES && !slowSince) {
      // harmless after the watch ended: it only acts on a live one
      slowSince = setTimeout(() => {
        slowSince = undefined;
        if (!ended && res.writableLength > SLOW_BUFFERED_BYTES) dropSlowClient();
      }, SLOW_GRACE_MS);
      slowSince.unref?.();
    }
  };

  const encodeEventObject = (obj: T, f: OutputFormat): string | Buffer => {
    const t = f.transform;
    if (t?.kind === 'Table') {
      const table = buildTable({
        printer: def.printer,
        objects: [obj],
        version: t.version,
        includeObject,
        metadataOf: o => toPartialObjectMetadata(o, t.version),
        listMeta: { resourceVersion: obj.metadata.resourceVersion },
        withColumns: firstTableEvent,
      });
      firstTableEvent = false;
      return JSON.stringify(table);
    }
    if (t) return encodePartialObjectMetadataBytes(obj, t.version);
    return encodeObjectBytes(obj);
  };

  const bookmarkJson = (resourceVersion: string, initialEnd: boolean): string => {
    const metadata = {
      resourceVersion,
      ...(initialEnd ? { annotations: { [INITIAL_EVENTS_END]: 'true' } } : {}),
    };
    const t = format.transform;
    if (t?.kind === 'Table') {
      return JSON.stringify({ kind: 'Table', apiVersion: `meta.k8s.io/${t.version}`, metadata: { resourceVersion }, columnDefinitions: [], rows: [] });
    }
    if (t) return JSON.stringify({ kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${t.version}`, metadata });
    return JSON.stringify({ apiVersion: DATABASES_GROUP_VERSION, kind: def.kind, metadata });
  };

  // Everything up to this RV has been written (or filtered out): what bookmarks may promise.
  let seenRv = startRv ?? current();
  // The store's RV also moves with the cluster's when no instance changes (watch progress), and
  // every event up to it has reached this watch: bookmarks carry it so clients hold a recent RV.
  const progressRv = () => {
    const now = current();
    if (BigInt(now) > BigInt(seenRv)) seenRv = now;
    return seenRv;
  };
  // a last bookmark, so the client resumes on another replica from a fresh RV (no re-list)
  endForShutdown = () => {
    if (opts.allowWatchBookmarks && !ended) write('BOOKMARK', bookmarkJson(progressRv(), false));
    end();
  };
  settings.registry.add(endForShutdown);

  const onEvent = (ev: InstanceEvent<T>) => {
    if (ended) return;
    if (BigInt(ev.resourceVersion) > BigInt(seenRv)) seenRv = ev.resourceVersion;
    const nowMatches = matches(ev.object);
    if (ev.type === 'ADDED') {
      if (nowMatches) write('ADDED', encodeEventObject(ev.object, format));
      return;
    }
    if (ev.type === 'DELETED') {
      const old = ev.oldObject ?? ev.object;
      if (nowMatches || matches(old)) write('DELETED', encodeEventObject(nowMatches ? ev.object : withResourceVersion(old, ev.resourceVersion), format));
      return;
    }
    // MODIFIED: selector transitions (contract §7.7); without the old object assume it matched as now
    const oldMatched = ev.oldObject ? matches(ev.oldObject) : nowMatches;
    if (oldMatched && nowMatches) write('MODIFIED', encodeEventObject(ev.object, format));
    else if (!oldMatched && nowMatches) write('ADDED', encodeEventObject(ev.object, format));
    else if (oldMatched && !nowMatches) {
      write('DELETED', encodeEventObject(withResourceVersion(ev.oldObject!, ev.resourceVersion), format));
    }
  };

  // the store cannot tell this watcher a change at a newer RV (EventFeed.reissue): 410, list again
  const expired = (message: string) => write('ERROR', JSON.stringify(new StatusError(410, 'Expired', message).status));
  const onExpired = () => {
    expired('the watch could not be continued: list again');
    end();
  };
  try {
    if (initialEvents) {
      const snapshotRv = current();
      seenRv = snapshotRv;
      for (const obj of store.list(ctx.info.namespace || undefined)) {
        if (!matches(obj)) continue;
        write('ADDED', encodeEventObject(obj, format));
        // The initial state goes out as fast as the client reads it (50,000 instances are more
        // than a watch may buffer); changes made meanwhile are replayed from history below.
        if (res.writableLength > SLOW_BUFFERED_BYTES / 2) await drained(res);
        if (ended) return;
      }
      if (opts.sendInitialEvents && opts.allowWatchBookmarks) write('BOOKMARK', bookmarkJson(snapshotRv, true));
      sub = store.watch(snapshotRv, onEvent, onExpired);
    } else {
      sub = store.watch(startRv, onEvent, onExpired);
    }
  } catch (e) {
    if (e instanceof ResourceVersionExpiredError) {
      expired(e.message);
    } else {
      logger.error('Watch failed', { resource: def.plural, error: String((e as Error)?.stack ?? e) });
      const status = e instanceof StatusError ? e.status : internalError((e as Error)?.message ?? String(e)).status;
      write('ERROR', JSON.stringify(status));
    }
    end();
    return;
  }
  if (ended) {
    sub.stop();
    return;
  }

  if (opts.allowWatchBookmarks) {
    const bookmark = () => write('BOOKMARK', bookmarkJson(progressRv(), false));
    const periodic = () => {
      bookmark();
      timers[0] = setTimeout(periodic, settings.bookmarkIntervalMs);
    };
    timers[0] = setTimeout(periodic, settings.bookmarkIntervalMs);
    // one shortly before the deadline, so the client resumes from a fresh RV instead of re-listing
    if (timeoutMs > 2000) timers.push(setTimeout(bookmark, timeoutMs - 2000));
  }
  timers.push(setTimeout(end, timeoutMs));
}
