import type { IncomingMessage, ServerResponse } from 'node:http';
import { DATABASES_GROUP_VERSION } from '@internal/plugin-databases-common';
import type { RequestInfo, UserInfo } from '../auth/types';
import { buildTable, encodeTableBytes } from '../table/buildTable';
import { acceptsGzip } from './compression/acceptsGzip';
import {
  encodeObject,
  encodeObjectBytes,
  encodePartialObjectMetadata,
  encodePartialObjectMetadataPieces,
  joinEncoded,
  toPartialObjectMetadata,
  type KubeObject,
} from './encode';
import { matchesFields, type FieldRequirement } from './fieldSelector';
import { matchesLabels, type LabelRequirement } from './labelSelector';
import { parseIncludeObject, parseListOptions, type ListOptions } from './listOptions';
import { decodeContinue, encodeContinue, type ListSnapshots } from './ListSnapshots';
import { ListBodyCache, type ListBodyGzipOptions } from './ListBodyCache';
import { sharedGzipBlocks } from './compression/sharedGzipBlocks';
import { negotiateOutput, type OutputFormat } from './negotiate';
import { sendEncoded, sendPieces } from './respond';
import type { ResourceDefinition } from './resources';
import type { ResourceSource } from './ResourceSource';
import { parseResourceVersion, waitForResourceVersion } from './resourceVersion';
import { badRequest, expired, notFound } from './StatusError';

/** What a read handler gets from the router. */
export interface HandlerContext {
  req: IncomingMessage;
  res: ServerResponse;
  info: RequestInfo;
  query: URLSearchParams;
  /** Name from the URL path (not one pinned by a field selector); '' for collections. */
  pathName: string;
  /** How long a request for a future resourceVersion waits before its 504. */
  tooLargeWaitMs: number;
  /** Request body (read with the size limit) for methods other than GET/HEAD. */
  body?: Buffer;
  /** The authenticated caller (writes record who asked). */
  user?: UserInfo;
}

const listBodies = new ListBodyCache(sharedGzipBlocks);
/**
 * How a Table is compressed. Its ages below 8 h step by the minute (`3h5m`), so every minute some
 * rows change (in `yarn bench`'s 10,000, a hundred over a few seconds): blocks half the usual
 * size keep those few rows to few blocks, and up to a quarter of the body (1 MiB at least, some
 * 7 ms at level 6 on libuv's thread pool) is recompressed for a request rather than the whole
 * Table sent uncompressed. Before, a minute's change sent it uncompressed for some 12 s.
 */
const TABLE_GZIP: ListBodyGzipOptions = {
  blockBytes: 64 * 1024,
  maxMissingBytes: bodyBytes => Math.max(1024 * 1024, bodyBytes / 4),
};

/** A predicate for "this object is in the request's namespace and matches its selectors". */
export function objectMatcher<T extends KubeObject>(
  def: ResourceDefinition<T>,
  namespace: string,
  labels: LabelRequirement[],
  fields: FieldRequirement[],
): (obj: T) => boolean {
  return obj =>
    (!namespace || obj.metadata.namespace === namespace) &&
    (labels.length === 0 || matchesLabels(labels, obj.metadata.labels)) &&
    (fields.length === 0 || matchesFields(fields, def.fieldsOf(obj)));
}

/** Waits for `rv` when it is ahead of the source (GET/LIST "not older than"). */
async function ensureNotOlderThan(ctx: HandlerContext, source: ResourceSource<any>, rv: string) {
  const wanted = parseResourceVersion(rv);
  if (BigInt(source.resourceVersion() || '0') < wanted) {
    await waitForResourceVersion(source, wanted, ctx.tooLargeWaitMs);
  }
  return wanted;
}

/** Encodes one object per the negotiated format. */
function encodeSingle<T extends KubeObject>(
  ctx: HandlerContext,
  def: ResourceDefinition<T>,
  obj: T,
  format: OutputFormat,
): string {
  const t = format.transform;
  if (t?.kind === 'Table') {
    return JSON.stringify(
      buildTable({
        printer: def.printer,
        objects: [obj],
        version: t.version,
        includeObject: parseIncludeObject(ctx.query),
        metadataOf: o => toPartialObjectMetadata(o, t.version),
        listMeta: { resourceVersion: obj.metadata.resourceVersion },
      }),
    );
  }
  if (t?.kind === 'PartialObjectMetadata') return encodePartialObjectMetadata(obj, t.version);
  return encodeObject(obj);
}

/** GET of one object (also its `status` subresource, which returns the whole object). */
export async function serveGet<T extends KubeObject>(ctx: HandlerContext, source: ResourceSource<T>) {
  const format = negotiateOutput(ctx.req.headers.accept, 'object');
  const rv = ctx.query.get('resourceVersion');
  if (rv && rv !== '0') await ensureNotOlderThan(ctx, source, rv);
  const obj = source.get(ctx.info.namespace, ctx.pathName);
  if (!obj) throw notFound(source.definition.plural, ctx.pathName);
  sendEncoded(ctx.res, 200, encodeSingle(ctx, source.definition, obj, format), format);
}

/** Encodes a list page per the negotiated format, from pre-encoded items (bytes, no re-encoding). */
function encodeList<T extends KubeObject>(
  ctx: HandlerContext,
  def: ResourceDefinition<T>,
  items: T[],
  listMeta: { resourceVersion: string; continue?: string; remainingItemCount?: number },
  format: OutputFormat,
  now?: number,
  validity?: { until: number },
): Buffer[] {
  const t = format.transform;
  if (t?.kind === 'Table') {
    return encodeTableBytes({
      now,
      validity,
      printer: def.printer,
      objects: items,
      version: t.version,
      includeObject: parseIncludeObject(ctx.query),
      encodedMetadataOf: o => encodePartialObjectMetadataPieces(o, t.version),
      encodedObjectOf: o => encodeObjectBytes(o),
      listMeta,
    });
  }
  const meta = JSON.stringify(listMeta);
  if (t?.kind === 'PartialObjectMetadataList') {
    return joinEncoded(
      `{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/${t.version}","metadata":${meta},"items":[`,
      items.map(o => encodePartialObjectMetadataPieces(o, t.version)),
      ']}',
    );
  }
  return joinEncoded(
    `{"apiVersion":"${DATABASES_GROUP_VERSION}","kind":"${def.listKind}","metadata":${meta},"items":[`,
    items.map(o => encodeObjectBytes(o)),
    ']}',
  );
}

/**
 * The candidates for a list: from the label index when the selector pins one label to one
 * value (`key=value`, `key==value`, `key in (value)`), else every object of the namespace.
 * The caller still applies the whole selector.
 */
function candidates<T extends KubeObject>(source: ResourceSource<T>, namespace: string, labels: LabelRequirement[]): T[] {
  if (source.listByLabel) {
    const pinned = labels.find(r => r.operator === '=' || r.operator === '==' || (r.operator === 'in' && r.values.length === 1));
    if (pinned) return source.listByLabel(pinned.key, pinned.values[0], namespace);
  }
  return source.list(namespace);
}

/**
 * LIST with selectors, limit/continue from a consistent snapshot and the resourceVersion
 * semantics of contract §6.5 (Most Recent / Any / Not older than / Exact).
 */
export async function serveList<T extends KubeObject>(
  ctx: HandlerContext,
  source: ResourceSource<T>,
  snapshots: ListSnapshots<T>,
  parsed?: ListOptions,
) {
  const def = source.definition;
  const opts = parsed ?? parseListOptions(ctx.query, def.fieldSelectors);
  const format = negotiateOutput(ctx.req.headers.accept, 'list');
  // snapshots are only reused by requests for the same list (resource, namespace, selectors)
  const key = JSON.stringify([def.plural, ctx.info.namespace, ctx.query.get('labelSelector') ?? '', ctx.query.get('fieldSelector') ?? '']);
  const rv = opts.resourceVersion;

  let snapshotRv: string;
  let items: T[];
  let offset = 0;
  let limit = opts.limit !== undefined && opts.limit > 0 ? opts.limit : undefined;

  if (opts.continueToken) {
    if (rv && rv !== '0') throw badRequest('specifying resource version is not allowed when using continue');
    const token = decodeContinue(opts.continueToken);
    const snap = snapshots.resume(token, key);
    snapshotRv = snap.rv;
    items = snap.items;
    offset = token.o;
  } else {
    // exact semantics: an explicit Exact, or a paginated list from a given RV
    const exact = rv && rv !== '0' && (opts.resourceVersionMatch === 'Exact' || (!opts.resourceVersionMatch && limit !== undefined));
    if (rv && rv !== '0') await ensureNotOlderThan(ctx, source, rv);
    if (rv === '0') limit = undefined; // like the watch cache: "Any" lists are not paginated
    const current = source.resourceVersion() || '0';
    if (exact && BigInt(rv) !== BigInt(current)) {
      const kept = snapshots.findAt(key, BigInt(rv).toString());
      if (!kept) throw expired('The resourceVersion for the provided list is too old.');
      snapshotRv = BigInt(rv).toString();
      items = kept;
    } else {
      snapshotRv = current;
      const matches = objectMatcher(def, ctx.info.namespace, opts.labelSelector, opts.fieldSelector);
      const all = candidates(source, ctx.info.namespace, opts.labelSelector);
      items = opts.labelSelector.length || opts.fieldSelector.length ? all.filter(matches) : all;
    }
  }

  const listMeta: { resourceVersion: string; continue?: string; remainingItemCount?: number } = {
    resourceVersion: snapshotRv,
  };
  let page = offset === 0 ? items : items.slice(offset);
  if (limit !== undefined && page.length > limit) {
    const id = opts.continueToken
      ? decodeContinue(opts.continueToken).s
      : snapshots.save(key, snapshotRv, items);
    page = page.slice(0, limit);
    listMeta.continue = encodeContinue({ rv: snapshotRv, s: id, o: offset + limit });
    listMeta.remainingItemCount = items.length - offset - limit;
  }
  const gzip = acceptsGzip(ctx.req.headers['accept-encoding']);
  // A whole, unfiltered list is the store's shared array: its encoded body is cached with it
  if (page === items && !opts.continueToken && !opts.labelSelector.length && !opts.fieldSelector.length) {
    const ends = encodeList(ctx, def, [], listMeta, format);
    if (ends.length === 2) {
      const t = format.transform;
      const table = t?.kind === 'Table';
      const now = Date.now();
      const formatKey = `${def.plural}|${t?.kind ?? ''}|${t?.version ?? ''}|${table ? parseIncludeObject(ctx.query) : ''}`;
      // a Table's ages are those of the moment it was built; it is rebuilt when one would change
      const body = listBodies.body(
        page,
        formatKey,
        now,
        () => {
          const validity = { until: Infinity };
          const pieces = encodeList(ctx, def, page, listMeta, format, now, validity).slice(1, -1);
          return { pieces, validUntil: validity.until };
        },
        table ? TABLE_GZIP : undefined,
      );
      await sendPieces(ctx.res, 200, ends, format, gzip, body);
      return;
    }
  }
  await sendPieces(ctx.res, 200, encodeList(ctx, def, page, listMeta, format), format, gzip);
}
