import fc from 'fast-check';
import { hostileString } from './hostileStrings';
import type { QueryPairs } from './listQueries';
import { percentEncode } from './pathSegments';
import { queryString } from './queryStrings';

/** Query parameters of a create, update or patch, and what a well-behaved server makes of them. */
export interface WriteQuery {
  pairs: QueryPairs;
  /** The query string sent (`?…`, or '' for none). */
  text: string;
  /** Only valid values: the server must not refuse the request because of its query. */
  clean: boolean;
  /** `fieldValidation` as the server applies it (Warn when unset). */
  fieldValidation: 'Strict' | 'Warn' | 'Ignore';
  dryRun: boolean;
}

const cleanWriteQuery = (): fc.Arbitrary<WriteQuery> =>
  fc
    .record({
      dryRun: fc.boolean(),
      fieldValidation: fc.constantFrom(undefined, '', 'Strict', 'Warn', 'Ignore'),
      fieldManager: fc.option(fc.stringMatching(/^[ -~]{1,128}$/), { freq: 3 }),
      pretty: fc.boolean(),
    })
    .map(q => {
      const pairs: QueryPairs = [];
      if (q.dryRun) pairs.push(['dryRun', 'All']);
      if (q.fieldValidation !== undefined) pairs.push(['fieldValidation', q.fieldValidation]);
      if (q.fieldManager !== null) pairs.push(['fieldManager', q.fieldManager]);
      if (q.pretty) pairs.push(['pretty', 'true']);
      const text = pairs.length ? `?${pairs.map(([k, v]) => `${k}=${percentEncode(v)}`).join('&')}` : '';
      return { pairs, text, clean: true, dryRun: q.dryRun, fieldValidation: (q.fieldValidation || 'Warn') as WriteQuery['fieldValidation'] };
    });

const hostileWriteParam = (): fc.Arbitrary<[string, string]> =>
  fc.oneof(
    fc.oneof(fc.constantFrom('all', 'None', 'true', '', 'All,All'), hostileString(10)).map(v => ['dryRun', v] as [string, string]),
    fc.oneof(fc.constantFrom('strict', 'STRICT', 'Warning', 'Error', ' Strict'), hostileString(10)).map(v => ['fieldValidation', v] as [string, string]),
    fc.oneof(fc.integer({ min: 129, max: 2000 }).map(n => 'm'.repeat(n)), hostileString(20)).map(v => ['fieldManager', v] as [string, string]),
    fc.constantFrom('true', 'false', 'x').map(v => ['force', v] as [string, string]),
    fc.tuple(hostileString(10), hostileString(10)),
  );

/** A write query: clean ones (the oracle knows their effect) and hostile ones. */
export const writeQuery = (): fc.Arbitrary<WriteQuery> =>
  fc.oneof(
    { weight: 3, arbitrary: cleanWriteQuery() },
    {
      weight: 1,
      arbitrary: fc
        .tuple(cleanWriteQuery(), fc.array(hostileWriteParam(), { minLength: 1, maxLength: 3 }))
        .chain(([q, extra]) => {
          const pairs = [...q.pairs, ...extra];
          return queryString(pairs).map(text => ({ ...q, pairs, text, clean: false }));
        }),
    },
  );

/** The same query with `dryRun=All` added. */
export const withDryRun = (q: WriteQuery): WriteQuery => ({ ...q, dryRun: true, pairs: [['dryRun', 'All'], ...q.pairs], text: q.text ? `?dryRun=All&${q.text.slice(1)}` : '?dryRun=All' });

/**
 * A write query that is mostly a dry run: a real write grows the store and waits for the watch
 * cache (~30 ms), so one in 31 of the queries without `dryRun` is kept as it is.
 */
export const mostlyDryRunWriteQuery = (): fc.Arbitrary<WriteQuery> =>
  writeQuery().chain(q => (q.dryRun ? fc.constant(q) : fc.oneof({ weight: 1, arbitrary: fc.constant(q) }, { weight: 30, arbitrary: fc.constant(withDryRun(q)) })));
