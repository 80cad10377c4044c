import fc from 'fast-check';
import { hostileString, longString } from './hostileStrings';

/** A DNS-1123 label that is valid as an object or namespace name. */
export const dnsLabel = (): fc.Arbitrary<string> => fc.stringMatching(/^[a-z]([-a-z0-9]{0,20}[a-z0-9])?$/);

/**
 * Names as a client might put them in a URL or a body: names that exist (`known`), valid
 * ones that do not, and invalid ones (upper case, dots, `..`, too long, empty, unicode,
 * separators, control characters).
 */
export function objectName(known: readonly string[] = []): fc.Arbitrary<string> {
  return fc.oneof(
    ...(known.length ? [{ weight: 8, arbitrary: fc.constantFrom(...known) }] : []),
    { weight: 2, arbitrary: dnsLabel() },
    { weight: 1, arbitrary: dnsLabel().map(s => s.toUpperCase()) },
    { weight: 1, arbitrary: fc.constantFrom('.', '..', '-a', 'a-', 'a..b', 'a_b', 'a.b', 'a b', 'default', 'kube-system') },
    { weight: 1, arbitrary: fc.integer({ min: 64, max: 300 }).map(n => 'a'.repeat(n)) },
    { weight: 3, arbitrary: hostileString() },
    { weight: 1, arbitrary: longString().map(s => s.slice(0, 4000)) },
  );
}
