import type { DatabaseInstance } from '@internal/plugin-databases-common';
import { DATABASES_GROUP_VERSION } from '@internal/plugin-databases-common';
import type { InstanceEvent, InstanceStore, WatchSubscription } from '../cache/types';
import { ResourceVersionExpiredError } from '../cache/types';
import type { ApiserverMetrics } from '../metrics/createMetrics';
import { buildTable } from '../table/buildTable';
import { encodeObject, encodePartialObjectMetadata, toPartialObjectMetadata, withResourceVersion } from './encode';
import { parseIncludeObject, parseListOptions, type ListOptions } from './listOptions';
import { negotiateOutput, type OutputFormat } from './negotiate';
import { objectMatcher, type HandlerContext } from './readHandlers';
import { API_HEADERS, contentTypeOf } from './respond';
import type { ResourceDefinition } from './resources';
import { parseResourceVersion, waitForResourceVersion } from './resourceVersion';
import { internalError, StatusError } from './StatusError';
import type { Logger } from './logger';

/** Open watches, so shutdown can end each one cleanly. */
export interface WatchRegistry {
  add(end: () => void): void;
  delete(end: () => void): void;
}

/** Settings of {@link serveWatch}. */
export interface WatchSettings {
  store: InstanceStore;
  definition: ResourceDefinition<DatabaseInstance>;
  registry: WatchRegistry;
  metrics: ApiserverMetrics;
  logger: Logger;
  bookmarkIntervalMs: number;
}

/** The annotation marking the end of a WatchList's initial events (`metav1.InitialEventsAnnotationKey`). */
export const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

/** A watch stays above this many buffered bytes only for a stuck client; it is ended (clients resume). */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

/** Default duration of a watch without timeoutSeconds: random in [30, 60) minutes like kube-apiserver. */
const defaultTimeoutMs = () => (30 + Math.random() * 30) * 60_000;

/**
 * WATCH of databaseinstances (contract §7): JSON lines, headers flushed at once, synthetic ADDED
 * events for the state when asked (no RV, RV=0, or sendInitialEvents), then every change after
 * the snapshot's resourceVersion; bookmarks, selector transitions, Table/metadata transforms,
 * 410 as an ERROR event, and a clean end on timeout, disconnect or shutdown.
 */
export async function serveWatch(ctx: HandlerContext, settings: WatchSettings, parsed?: ListOptions) {
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
      if (BigInt(current()) < wanted) await waitForResourceVersion(current, wanted, ctx.tooLargeWaitMs);
      startRv = opts.sendInitialEvents ? undefined : wanted.toString();
    }
    initialEvents = opts.sendInitialEvents;
  } else if (!rv || rv === '0') {
    initialEvents = true;
  } else {
    const wanted = parseResourceVersion(rv);
    if (BigInt(current()) < wanted) await waitForResourceVersion(current, wanted, ctx.tooLargeWaitMs);
    initialEvents = false;
    startRv = wanted.toString();
  }
  const timeoutMs =
    opts.timeoutSeconds !== undefined && opts.timeoutSeconds > 0 ? opts.timeoutSeconds * 1000 : defaultTimeoutMs();

  const matches = objectMatcher(def, ctx.info.namespace, opts.labelSelector, opts.fieldSelector);
  const { res } = ctx;
  res.writeHead(200, { ...API_HEADERS, 'Content-Type': contentTypeOf(format) });
  res.flushHeaders();
  ctx.req.socket.setNoDelay(true);

  let ended = false;
  let sub: WatchSubscription | undefined;
  const timers: NodeJS.Timeout[] = [];
  let firstTableEvent = true;
  const resourceLabel = { resource: def.plural };

  const end = () => {
    if (ended) return;
    ended = true;
    sub?.stop();
    timers.forEach(t => clearTimeout(t));
    settings.registry.delete(end);
    metrics.watchers.dec(resourceLabel);
    if (!res.writableEnded) res.end();
  };
  settings.registry.add(end);
  metrics.watchers.inc(resourceLabel);
  // the response's close (not the request's, which fires once the body is read) means disconnect
  res.on('close', end);

  const write = (type: string, objectJson: string) => {
    if (ended) return;
    res.write(`{"type":"${type}","object":${objectJson}}\n`);
    metrics.watchEvents.inc({ type });
    if (res.writableLength > MAX_BUFFERED_BYTES) {
      logger.warn('Ending watch of a client that does not read', { resource: def.plural });
      end();
    }
  };

  const encodeEventObject = (obj: DatabaseInstance, f: OutputFormat): string => {
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
    if (t) return encodePartialObjectMetadata(obj, t.version);
    return encodeObject(obj);
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

  const onEvent = (ev: InstanceEvent) => {
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

  try {
    if (initialEvents) {
      const snapshotRv = current();
      seenRv = snapshotRv;
      for (const obj of store.list(ctx.info.namespace || undefined)) {
        if (matches(obj)) write('ADDED', encodeEventObject(obj, format));
      }
      if (opts.sendInitialEvents && opts.allowWatchBookmarks) write('BOOKMARK', bookmarkJson(snapshotRv, true));
      sub = store.watch(snapshotRv, onEvent);
    } else {
      sub = store.watch(startRv, onEvent);
    }
  } catch (e) {
    if (e instanceof ResourceVersionExpiredError) {
      write('ERROR', JSON.stringify(new StatusError(410, 'Expired', e.message).status));
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
    const bookmark = () => write('BOOKMARK', bookmarkJson(seenRv, false));
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
