import { randomUUID } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { UserInfo } from '../api/types';
import { compareStrings } from './discoveryGroups';

/** Hop-by-hop headers (RFC 7230 §6.1) that a proxy never forwards. */
export const HOP_BY_HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

const LEGAL_HEADER_KEY_BYTE = /^[A-Za-z0-9!#$&'*+\-.^_`|~]$/;

/**
 * client-go's `headerKeyEscape` for `X-Remote-Extra-<key>`: every byte that is not a legal
 * header-name byte, and `%` itself, becomes `%XX` (upper-case hex) of its UTF-8 encoding.
 */
export function escapeHeaderKey(key: string): string {
  let out = '';
  for (const byte of Buffer.from(key, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out +=
      byte < 0x80 && LEGAL_HEADER_KEY_BYTE.test(ch)
        ? ch
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function goQueryEscape(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*]/g, c => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/**
 * Re-encodes a query string as Go's `url.Values.Encode()` does (kube-apiserver's proxy sets
 * `RawQuery = req.URL.Query().Encode()`): keys sorted, values in order, QueryEscape'd.
 * Returns `''` or `?…`.
 */
export function encodeQueryLikeGo(search: string): string {
  const params = new URLSearchParams(
    search.startsWith('?') ? search.slice(1) : search,
  );
  const byKey = new Map<string, string[]>();
  for (const [k, v] of params)
    (byKey.get(k) ?? byKey.set(k, []).get(k)!).push(v);
  const keys = [...byKey.keys()].sort(compareStrings);
  const encoded = keys
    .flatMap(k =>
      byKey.get(k)!.map(v => `${goQueryEscape(k)}=${goQueryEscape(v)}`),
    )
    .join('&');
  return encoded ? `?${encoded}` : '';
}

function dropped(name: string): boolean {
  return (
    HOP_BY_HOP_HEADERS.has(name) ||
    name === 'host' ||
    name === 'authorization' ||
    name === 'content-length' ||
    name === 'expect' ||
    name.startsWith('impersonate-') ||
    name.startsWith('x-remote-')
  );
}

/** The identity headers kube-apiserver sets (client-go `SetAuthProxyHeaders`). */
export function identityHeaders(user: UserInfo): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = { 'x-remote-user': user.username };
  if (user.uid) headers['x-remote-uid'] = user.uid;
  // an array becomes one header line per value: group names may contain commas
  if (user.groups.length > 0) headers['x-remote-group'] = [...user.groups];
  for (const [key, values] of Object.entries(user.extra ?? {})) {
    if (values.length > 0)
      headers[`x-remote-extra-${escapeHeaderKey(key)}`] = [...values];
  }
  return headers;
}

/**
 * The headers of the proxied request, as kube-apiserver's aggregator builds them: the client's
 * headers minus credentials (Authorization, Impersonate-*), hop-by-hop headers and any
 * client-sent X-Remote-*; then the authenticated user's identity headers, `Audit-ID`
 * (the client's if it sent one, else a new one) and `X-Forwarded-For`.
 */
export function buildProxyHeaders(
  req: IncomingMessage,
  user: UserInfo,
): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  const incoming = req.headersDistinct as Record<string, string[]>;
  const connectionTokens = new Set(
    (incoming.connection ?? [])
      .flatMap(v => v.split(',').map(t => t.trim().toLowerCase()))
      .filter(Boolean),
  );
  for (const [name, values] of Object.entries(incoming)) {
    if (
      dropped(name) ||
      connectionTokens.has(name) ||
      name === 'audit-id' ||
      name === 'x-forwarded-for'
    )
      continue;
    out[name] = values.length === 1 ? values[0] : values;
  }
  Object.assign(out, identityHeaders(user));
  out['audit-id'] = incoming['audit-id']?.[0] || randomUUID();
  const remote = req.socket?.remoteAddress;
  const prior = incoming['x-forwarded-for']?.join(', ');
  if (remote || prior)
    out['x-forwarded-for'] = [prior, remote].filter(Boolean).join(', ');
  return out;
}

/** Response headers to copy back to the client (everything but hop-by-hop). */
export function responseHeaders(
  headers: Record<string, string[] | undefined>,
): OutgoingHttpHeaders {
  const connectionTokens = new Set(
    (headers.connection ?? [])
      .flatMap(v => v.split(',').map(t => t.trim().toLowerCase()))
      .filter(Boolean),
  );
  const out: OutgoingHttpHeaders = {};
  for (const [name, values] of Object.entries(headers)) {
    if (!values || HOP_BY_HOP_HEADERS.has(name) || connectionTokens.has(name))
      continue;
    out[name] = values.length === 1 ? values[0] : values;
  }
  return out;
}
