import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';

/**
 * Gives an HTTP/2 request the `headersDistinct` of an HTTP/1.1 one (Node's compatibility request
 * lacks it): header lines by lower-cased name, one entry per line, pseudo-headers left out. The
 * request-header authenticator reads identities from it and strips them from it, so a proxy's
 * `X-Remote-Group` sent as several lines keeps every group over either protocol.
 */
export function withHeadersDistinct(req: IncomingMessage | Http2ServerRequest): IncomingMessage {
  if (req.httpVersionMajor >= 2 && !Object.prototype.hasOwnProperty.call(req, 'headersDistinct')) {
    const distinct: Record<string, string[]> = Object.create(null);
    const raw = req.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i].toLowerCase();
      if (name.startsWith(':')) continue;
      (distinct[name] ??= []).push(raw[i + 1]);
    }
    Object.defineProperty(req, 'headersDistinct', { value: distinct, writable: true, configurable: true, enumerable: true });
  }
  return req as IncomingMessage;
}
