import fc from 'fast-check';

/**
 * Percent-encodes the UTF-8 bytes of `s` except unreserved characters and those `keep` matches.
 * Unlike encodeURIComponent it never throws (a lone surrogate becomes U+FFFD's bytes).
 */
export function percentEncode(s: string, keep: RegExp = /[A-Za-z0-9\-._~]/): string {
  let out = '';
  for (const ch of s) {
    if (ch.length === 1 && keep.test(ch) && ch.charCodeAt(0) < 0x7f && ch.charCodeAt(0) > 0x20) out += ch;
    else for (const b of Buffer.from(ch, 'utf8')) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * How a name becomes a path segment: percent-encoded as a client library does, or with the
 * tricks of path attacks (raw slashes and dots, `%2F`, double encoding, trailing separators).
 * Characters Node refuses in a request line are always encoded.
 */
export function pathSegment(name: string): fc.Arbitrary<string> {
  const encoded = percentEncode(name);
  return fc.oneof(
    { weight: 10, arbitrary: fc.constant(encoded) },
    // raw where the request line allows it: slashes, dots and percent signs reach the server as typed
    { weight: 2, arbitrary: fc.constant(percentEncode(name, /[!-~]/).replace(/[?#]/g, c => percentEncode(c, /$^/))) },
    { weight: 1, arbitrary: fc.constant(percentEncode(encoded)) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('%2F', '%2f', '/', '%2E%2E', '..', '.', '%252F', '%2e', ';', '%3B', '%00', '%5C', '\\', '/status', '/connection', '/x/y')
        .map(trick => `${encoded}${trick}`),
    },
  );
}
