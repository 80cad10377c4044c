import { badRequest } from './StatusError';

/**
 * A boolean query parameter as apimachinery decodes it: absent ⇒ undefined; `0` or any case of
 * `false` ⇒ false; anything else, including the empty string, ⇒ true.
 */
export function queryBool(query: URLSearchParams, name: string): boolean | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  return !(value === '0' || value.toLowerCase() === 'false');
}

/** An int64 query parameter; a value that does not parse is a 400, as in kube-apiserver. */
export function queryInt(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  if (value === null || value === '') return undefined;
  if (!/^[+-]?\d+$/.test(value)) {
    throw badRequest(`invalid value for ${name}: ${JSON.stringify(value)}: must be an integer`);
  }
  const n = Number(value);
  if (!Number.isSafeInteger(n)) {
    throw badRequest(`invalid value for ${name}: ${JSON.stringify(value)}: out of range`);
  }
  return n;
}

/** Splits a request target into path and query (first value wins via `URLSearchParams.get`). */
export function splitUrl(url: string): { path: string; query: URLSearchParams } {
  const q = url.indexOf('?');
  const rawPath = q < 0 ? url : url.slice(0, q);
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    path = rawPath;
  }
  return { path, query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)) };
}
