import fc from 'fast-check';
import { anyJsonValue, deeplyNestedJson, malformedJson } from './instanceDocuments';
import { hostileString } from './hostileStrings';
import { integerText, type QueryPairs } from './listQueries';
import { fieldSelector, labelSelector } from './selectors';
import { MAX_BODY_BYTES } from './writeBodies';

const OVERSIZED = Buffer.alloc(MAX_BODY_BYTES + 1, ' ');

/** DeleteOptions bodies: valid, with every field of the wrong type or value, or not JSON at all. */
export const deleteBody = (): fc.Arbitrary<{ what: 'options' | 'malformed' | 'deep' | 'oversized' | 'none'; text?: string | Buffer; dryRun: boolean }> =>
  fc.oneof(
    { weight: 40, arbitrary: fc.constant({ what: 'none' as const, dryRun: false }) },
    {
      weight: 60,
      arbitrary: fc
        .record(
          {
            apiVersion: fc.oneof(fc.constantFrom('v1', 'meta.k8s.io/v1', 'dbaas.platform.dev/v1alpha1', '', 'apps/v1'), hostileString(10)),
            kind: fc.oneof(fc.constantFrom('DeleteOptions', '', 'Status'), hostileString(8)),
            propagationPolicy: fc.oneof(fc.constantFrom('Background', 'Foreground', 'Orphan', 'orphan', null), anyJsonValue()),
            orphanDependents: fc.oneof(fc.boolean(), anyJsonValue()),
            gracePeriodSeconds: fc.oneof(fc.integer({ min: -5, max: 60 }), anyJsonValue()),
            preconditions: fc.oneof(fc.record({ uid: fc.oneof(fc.uuid(), anyJsonValue()), resourceVersion: fc.oneof(fc.constantFrom('1', '0', '99999999'), anyJsonValue()) }, { requiredKeys: [] }), anyJsonValue()),
            dryRun: fc.oneof(fc.constant(['All']), fc.constant('All'), anyJsonValue()),
          },
          { requiredKeys: [] },
        )
        .map(o => ({ what: 'options' as const, text: JSON.stringify(o), dryRun: JSON.stringify(o.dryRun) === '["All"]' || o.dryRun === 'All' })),
    },
    { weight: 10, arbitrary: malformedJson().map(text => ({ what: 'malformed' as const, text, dryRun: false })) },
    { weight: 5, arbitrary: deeplyNestedJson().map(text => ({ what: 'deep' as const, text, dryRun: false })) },
    { weight: 1, arbitrary: fc.constant({ what: 'oversized' as const, text: OVERSIZED, dryRun: false }) },
  );

/** Query parameters of a delete or deletecollection. */
export const deleteQuery = (): fc.Arbitrary<QueryPairs> =>
  fc.array(
    fc.oneof(
      fc.oneof(fc.constant('All'), hostileString(8)).map(v => ['dryRun', v] as [string, string]),
      fc.oneof(fc.constantFrom('Background', 'Foreground', 'Orphan'), hostileString(8)).map(v => ['propagationPolicy', v] as [string, string]),
      integerText().map(v => ['gracePeriodSeconds', v] as [string, string]),
      fc.constantFrom('true', 'false', 'x').map(v => ['orphanDependents', v] as [string, string]),
      labelSelector().map(v => ['labelSelector', v] as [string, string]),
      fieldSelector().map(v => ['fieldSelector', v] as [string, string]),
      fc.tuple(hostileString(8), hostileString(8)),
    ),
    { maxLength: 4 },
  );

