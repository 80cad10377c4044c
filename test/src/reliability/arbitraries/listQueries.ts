import fc from 'fast-check';
import { hostileString } from './hostileStrings';
import { fieldSelector, labelSelector } from './selectors';

/** Query parameters as ordered pairs: repeats and order matter to parsers. */
export type QueryPairs = Array<[string, string]>;

/** Integers as clients write them, and as they should not: signs, floats, overflow, words. */
export const integerText = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.integer({ min: -5, max: 600 }).map(String),
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
    fc.constantFrom('', '+1', '-0', '1.5', '1e3', '0x10', ' 1', '1 ', 'ten', 'NaN', 'Infinity', '9223372036854775808', '007'),
    hostileString(12),
  );

/**
 * resourceVersions: garbage, negative, overflowing, "0", and numbers at or below the current
 * one (served at once). Numbers ahead of the store are left out on purpose: they wait for the
 * store and end in kube's 504 "Too large resource version" (tested on its own).
 */
export const resourceVersion = (current: () => bigint): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom('', '0', '00', '-1', '1.0', 'abc', '18446744073709551616', '99999999999999999999999', ' 1', '0x1'),
    fc.bigInt({ min: 0n, max: 1000n }).map(n => String(current() > n ? current() - n : 0n)),
    hostileString(12),
  );

/** Continue tokens: garbage, base64 of garbage, well-formed JSON with wrong fields and types. */
export const continueToken = (): fc.Arbitrary<string> =>
  fc.oneof(
    hostileString(40),
    fc.base64String({ maxLength: 60 }),
    fc.jsonValue({ maxDepth: 2 }).map(v => Buffer.from(JSON.stringify(v) ?? 'null').toString('base64url')),
    fc
      .record(
        {
          v: fc.oneof(fc.constant('meta.k8s.io/v1'), hostileString(10)),
          rv: fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 64n }).map(String), fc.integer(), hostileString(8)),
          s: fc.oneof(fc.uuid(), fc.integer(), hostileString(8)),
          o: fc.oneof(fc.integer({ min: -10, max: 1000 }), fc.double(), fc.constant(2 ** 60), hostileString(4)),
        },
        { requiredKeys: [] },
      )
      .map(t => Buffer.from(JSON.stringify(t)).toString('base64url')),
  );

const BOOLEANS = ['true', 'false', '1', '0', '', 'TRUE', 'yes', 'nope'];

/** One list/watch/get query parameter (known names with hostile values, unknown names). */
export function listQueryParam(current: () => bigint): fc.Arbitrary<[string, string]> {
  return fc.oneof(
    labelSelector().map(v => ['labelSelector', v] as [string, string]),
    fieldSelector().map(v => ['fieldSelector', v] as [string, string]),
    integerText().map(v => ['limit', v] as [string, string]),
    continueToken().map(v => ['continue', v] as [string, string]),
    resourceVersion(current).map(v => ['resourceVersion', v] as [string, string]),
    fc.oneof(fc.constantFrom('', 'Exact', 'NotOlderThan', 'exact', 'Newest'), hostileString(10)).map(v => ['resourceVersionMatch', v] as [string, string]),
    fc.constantFrom(...BOOLEANS).map(v => ['watch', v] as [string, string]),
    fc.constantFrom(...BOOLEANS).map(v => ['allowWatchBookmarks', v] as [string, string]),
    fc.constantFrom(...BOOLEANS).map(v => ['sendInitialEvents', v] as [string, string]),
    integerText().map(v => ['timeoutSeconds', v] as [string, string]),
    fc.oneof(fc.constantFrom('', 'Object', 'None', 'Metadata', 'object'), hostileString(8)).map(v => ['includeObject', v] as [string, string]),
    fc.constantFrom(...BOOLEANS).map(v => ['pretty', v] as [string, string]),
    fc.tuple(hostileString(12), hostileString(12)).map(([k, v]) => [k, v] as [string, string]),
  );
}

/** A whole query: up to six parameters, possibly repeated. */
export const listQuery = (current: () => bigint): fc.Arbitrary<QueryPairs> =>
  fc.array(listQueryParam(current), { maxLength: 6 });
