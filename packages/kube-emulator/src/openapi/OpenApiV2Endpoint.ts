import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StoreError } from '../store/types';
import { encodeOpenApiV2Document } from './encodeOpenApiV2Document';
import type { JsonObject } from './jsonValues';
import { negotiateOpenApiV2, OPENAPI_V2_PROTOBUF } from './negotiateOpenApiV2';

interface Encoded {
  json: Buffer;
  etag: string;
  protobuf?: Buffer;
}

/** True when an If-None-Match header names `etag` (or is `*`). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header
    .split(',')
    .map(s => s.trim().replace(/^W\//, ''))
    .some(s => s === '*' || s === etag);
}

/**
 * Serves `GET /openapi/v2` as kube-apiserver (kube-openapi's handler) does: JSON or the gnostic
 * protobuf Document by Accept, `Vary: Accept`, one ETag for both representations (quoted
 * upper-case hex SHA-512 of the JSON), 304 on a matching If-None-Match, 406 when neither
 * representation is acceptable. The last document's encodings are cached: the merged document
 * is rebuilt per request but only changes when an APIService's spec does.
 */
export class OpenApiV2Endpoint {
  private last?: Encoded;

  private encode(doc: JsonObject): Encoded {
    const json = Buffer.from(JSON.stringify(doc));
    if (this.last && this.last.json.equals(json)) return this.last;
    const etag = `"${createHash('sha512').update(json).digest('hex').toUpperCase()}"`;
    this.last = { json, etag };
    return this.last;
  }

  /** Writes the response for `doc`; throws a 406 StoreError for an unacceptable Accept. */
  serve(req: IncomingMessage, res: ServerResponse, doc: JsonObject): void {
    const format = negotiateOpenApiV2(req.headers.accept);
    if (!format) {
      throw new StoreError(
        406,
        'NotAcceptable',
        `only the following media types are accepted: application/json, ${OPENAPI_V2_PROTOBUF}`,
      );
    }
    const encoded = this.encode(doc);
    let body = encoded.json;
    if (format === 'protobuf') {
      encoded.protobuf ??= encodeOpenApiV2Document(doc);
      body = encoded.protobuf;
    }
    const headers: Record<string, string | number> = {
      'Cache-Control': 'no-cache, private',
      'X-Content-Type-Options': 'nosniff',
      Vary: 'Accept',
      Etag: encoded.etag,
    };
    if (matchesEtag(req.headers['if-none-match'], encoded.etag)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    res.writeHead(200, {
      ...headers,
      'Content-Type': format === 'json' ? 'application/json' : OPENAPI_V2_PROTOBUF,
      'Content-Length': body.length,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }
}
