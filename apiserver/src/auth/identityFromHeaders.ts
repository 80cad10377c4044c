import type { UserInfo } from './types';
import type { RequestHeaderConfig } from './RequestHeaderConfig';

/** Header lines by lower-cased name, one entry per line (Node's `req.headersDistinct`). */
export type DistinctHeaders = Record<string, string[] | undefined>;

// Node hands header bytes over as latin1; the aggregator sends UTF-8.
const utf8 = (v: string) => Buffer.from(v, 'latin1').toString('utf8');

function firstNonEmpty(
  headers: DistinctHeaders,
  names: string[],
): string | undefined {
  for (const name of names) {
    const value = headers[name]?.find(v => v !== '');
    if (value) {
      return utf8(value);
    }
  }
  return undefined;
}

function decodeExtraKey(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * The identity a verified front proxy asserts (contract §2.4): first non-empty username and
 * uid header; every group header line is one group (never split on commas); extras keyed by
 * the header name after the prefix, lower-cased then percent-decoded. Returns undefined when
 * no username header is set (the request-header authenticator then does not apply).
 * Call only for connections whose front-proxy certificate was verified.
 */
export function identityFromHeaders(
  headers: DistinctHeaders,
  config: Pick<
    RequestHeaderConfig,
    'usernameHeaders' | 'uidHeaders' | 'groupHeaders' | 'extraHeaderPrefixes'
  >,
): UserInfo | undefined {
  const username = firstNonEmpty(headers, config.usernameHeaders);
  if (!username) {
    return undefined;
  }
  const uid = firstNonEmpty(headers, config.uidHeaders);
  const groups: string[] = [];
  for (const name of config.groupHeaders) {
    for (const value of headers[name] ?? []) {
      if (value !== '') {
        groups.push(utf8(value));
      }
    }
  }
  const extra: Record<string, string[]> = {};
  for (const [name, values] of Object.entries(headers)) {
    const prefix = config.extraHeaderPrefixes.find(p =>
      name.toLowerCase().startsWith(p),
    );
    if (!prefix || !values) {
      continue;
    }
    const key = decodeExtraKey(name.slice(prefix.length).toLowerCase());
    const nonEmpty = values.filter(v => v !== '').map(utf8);
    if (key && nonEmpty.length) {
      (extra[key] ??= []).push(...nonEmpty);
    }
  }
  return {
    username,
    ...(uid ? { uid } : {}),
    groups,
    ...(Object.keys(extra).length ? { extra } : {}),
  };
}

/** Header names `identityFromHeaders` reads, to strip them once read (contract §2.3 step 5). */
export function identityHeaderNames(
  headerNames: string[],
  config: Pick<
    RequestHeaderConfig,
    'usernameHeaders' | 'uidHeaders' | 'groupHeaders' | 'extraHeaderPrefixes'
  >,
): string[] {
  const exact = new Set([
    ...config.usernameHeaders,
    ...config.uidHeaders,
    ...config.groupHeaders,
  ]);
  return headerNames.filter(
    n =>
      exact.has(n.toLowerCase()) ||
      config.extraHeaderPrefixes.some(p => n.toLowerCase().startsWith(p)),
  );
}
