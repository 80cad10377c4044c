import fc from 'fast-check';
import { percentEncode } from './pathSegments';
import type { QueryPairs } from './listQueries';

/**
 * A query string from pairs: encoded as a client library would, or with the raw `%`, `+`,
 * `;` and bare-key forms parsers disagree about. Empty pairs give ''.
 */
export function queryString(pairs: QueryPairs): fc.Arbitrary<string> {
  if (pairs.length === 0) return fc.constantFrom('', '?', '?&');
  const encoded = pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&');
  const loose = pairs.map(([k, v]) => `${percentEncode(k, /[!-~]/).replace(/[&#=]/g, c => percentEncode(c, /$^/))}=${percentEncode(v, /[!-~]/).replace(/[&#]/g, c => percentEncode(c, /$^/))}`).join('&');
  return fc.constantFrom(`?${encoded}`, `?${encoded}`, `?${loose}`, `?${pairs.map(([k]) => percentEncode(k)).join('&')}`);
}
