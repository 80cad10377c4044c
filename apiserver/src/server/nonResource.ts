import type { IncomingMessage, ServerResponse } from 'node:http';
import { DATABASES_API_GROUP, DATABASES_API_VERSION } from '@internal/plugin-databases-common';
import type { DiscoveryDocuments, EncodedDocument } from './discovery';
import { parseAccept } from './negotiate';
import { API_HEADERS } from './respond';
import { methodNotAllowed, notAcceptable, resourceNotFound } from './StatusError';

/** Everything the non-resource paths serve, built once at startup. */
export interface NonResourceDocuments {
  discovery: DiscoveryDocuments;
  openapiV2: EncodedDocument;
  openapiV3: EncodedDocument;
  openapiV3Index: EncodedDocument;
  version: EncodedDocument;
  metrics(): Promise<{ contentType: string; body: string }>;
}

const GROUP_PATH = `/apis/${DATABASES_API_GROUP}`;
const GV_PATH = `${GROUP_PATH}/${DATABASES_API_VERSION}`;
/** Key of our group-version in the `/openapi/v3` index (relative, no leading slash). */
export const OPENAPI_V3_KEY = `apis/${DATABASES_API_GROUP}/${DATABASES_API_VERSION}`;

/** The `/openapi/v3` index pointing at our GV document by content hash. */
export function openapiV3Index(gvHash: string) {
  return {
    paths: { [OPENAPI_V3_KEY]: { serverRelativeURL: `/openapi/v3/${OPENAPI_V3_KEY}?hash=${gvHash}` } },
  };
}

const send = (res: ServerResponse, code: number, headers: Record<string, string>, body = '') => {
  res.writeHead(code, { ...headers, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
};

const notModified = (req: IncomingMessage, etag: string) => req.headers['if-none-match'] === etag;

/** The aggregated discovery version an `Accept` header asks for first, if any (contract §4.5). */
export function aggregatedDiscoveryVersion(accept: string | undefined): 'v2' | 'v2beta1' | undefined {
  for (const c of parseAccept(accept)) {
    const isJson = (c.type === 'application' && c.subtype === 'json') || (c.type === '*' && c.subtype === '*');
    if (!isJson) continue;
    const { g, v, as } = c.params;
    if (!as && !g && !v) return undefined; // plain JSON ⇒ v1 APIGroupList
    if (g === 'apidiscovery.k8s.io' && as === 'APIGroupDiscoveryList' && (v === 'v2' || v === 'v2beta1')) return v;
  }
  return undefined;
}

/** JSON is acceptable for an OpenAPI document (protobuf-only ⇒ 406). */
function openapiAcceptsJson(accept: string | undefined): boolean {
  const clauses = parseAccept(accept);
  return (
    clauses.length === 0 ||
    clauses.some(
      c =>
        (c.type === '*' && c.subtype === '*') ||
        (c.type === 'application' && (c.subtype === 'json' || c.subtype === '*')),
    )
  );
}

function serveDocument(
  req: IncomingMessage,
  res: ServerResponse,
  doc: EncodedDocument,
  extra: Record<string, string> = {},
) {
  const headers = { 'Content-Type': 'application/json', ETag: doc.etag, Vary: 'Accept', ...extra };
  if (notModified(req, doc.etag)) send(res, 304, headers);
  else send(res, 200, headers, doc.body);
}

/**
 * Serves discovery, OpenAPI, `/version` and `/metrics` from memory (never from the store, never a
 * redirect). Returns false for paths it does not own.
 */
export async function serveNonResource(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  query: URLSearchParams,
  docs: NonResourceDocuments,
): Promise<void> {
  const p = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const known = ['/apis', GROUP_PATH, GV_PATH, '/version', '/openapi/v2', '/openapi/v3', `/openapi/v3/${OPENAPI_V3_KEY}`, '/metrics'];
  if (!known.includes(p)) throw resourceNotFound();
  if (req.method !== 'GET' && req.method !== 'HEAD') throw methodNotAllowed(req.method);

  switch (p) {
    case '/apis': {
      const v = aggregatedDiscoveryVersion(req.headers.accept);
      if (v) {
        const doc = docs.discovery.aggregated[v];
        const headers = {
          'Content-Type': `application/json;g=apidiscovery.k8s.io;v=${v};as=APIGroupDiscoveryList`,
          ETag: doc.etag,
          Vary: 'Accept',
          'Cache-Control': 'public',
          'X-Content-Type-Options': 'nosniff',
        };
        if (notModified(req, doc.etag)) send(res, 304, headers);
        else send(res, 200, headers, doc.body);
        return;
      }
      send(res, 200, { ...API_HEADERS, 'Content-Type': 'application/json', Vary: 'Accept' }, docs.discovery.apiGroupList.body);
      return;
    }
    case GROUP_PATH:
      send(res, 200, { ...API_HEADERS, 'Content-Type': 'application/json' }, docs.discovery.apiGroup.body);
      return;
    case GV_PATH:
      send(res, 200, { ...API_HEADERS, 'Content-Type': 'application/json' }, docs.discovery.apiResourceList.body);
      return;
    case '/version':
      send(res, 200, { ...API_HEADERS, 'Content-Type': 'application/json' }, docs.version.body);
      return;
    case '/openapi/v2':
      if (!openapiAcceptsJson(req.headers.accept)) throw notAcceptable();
      serveDocument(req, res, docs.openapiV2);
      return;
    case '/openapi/v3':
      if (!openapiAcceptsJson(req.headers.accept)) throw notAcceptable();
      serveDocument(req, res, docs.openapiV3Index);
      return;
    case `/openapi/v3/${OPENAPI_V3_KEY}`: {
      if (!openapiAcceptsJson(req.headers.accept)) throw notAcceptable();
      // a stale ?hash= gets the current document without immutable caching, never a redirect
      const immutable: Record<string, string> =
        query.get('hash') === docs.openapiV3.hash
          ? { 'Cache-Control': 'public, immutable', Expires: new Date(Date.now() + 365 * 24 * 3600_000).toUTCString() }
          : { 'Cache-Control': 'no-cache, private' };
      serveDocument(req, res, docs.openapiV3, immutable);
      return;
    }
    case '/metrics': {
      const m = await docs.metrics();
      send(res, 200, { 'Content-Type': m.contentType }, m.body);
      return;
    }
    default:
      throw resourceNotFound();
  }
}
