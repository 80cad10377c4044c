import type { ServerResponse } from 'node:http';
import YAML from 'yaml';
import type { StatusError } from './StatusError';
import type { OutputFormat } from './negotiate';

/** Headers k8s.io/apiserver puts on every API response. */
export const API_HEADERS = {
  'Cache-Control': 'no-cache, private',
  'X-Content-Type-Options': 'nosniff',
} as const;

/** Content-Type of a (possibly transformed) JSON response, as kube-apiserver writes it. */
export function contentTypeOf(format: OutputFormat): string {
  const base = format.encoding === 'yaml' ? 'application/yaml' : 'application/json';
  const t = format.transform;
  return t ? `${base};as=${t.kind};v=${t.version};g=meta.k8s.io` : base;
}

/** Sends an already-encoded JSON body, re-encoded as YAML when that was negotiated. */
export function sendEncoded(
  res: ServerResponse,
  code: number,
  json: string,
  format: OutputFormat = { encoding: 'json' },
  extraHeaders: Record<string, string> = {},
): void {
  const body = format.encoding === 'yaml' ? YAML.stringify(JSON.parse(json)) : json;
  res.writeHead(code, {
    ...API_HEADERS,
    'Content-Type': contentTypeOf(format),
    'Content-Length': Buffer.byteLength(body),
    ...extraHeaders,
  });
  res.end(body);
}

/** Sends a `metav1.Status` error body with its code and headers (always JSON). */
export function sendStatusError(res: ServerResponse, err: StatusError): void {
  sendEncoded(res, err.code, JSON.stringify(err.status), { encoding: 'json' }, err.headers);
}
