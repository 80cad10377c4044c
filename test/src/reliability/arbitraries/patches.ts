import fc from 'fast-check';
import { hostileString } from './hostileStrings';
import { anyJsonValue, applyMutation, mutation } from './instanceDocuments';

/** A JSON merge patch: a sparse document carrying one to three hostile mutations. */
export const mergePatch = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    // plausible day-2 changes, so that a share of the patches gets through to validation and beyond
    {
      weight: 4,
      arbitrary: fc.record(
        {
          spec: fc.record(
            {
              replicas: fc.oneof(fc.integer({ min: -1, max: 9 }), fc.constant(null)),
              version: fc.constantFrom('11.8', '7.0.15', '8.4.3', '1.0', null),
              deletionProtection: fc.boolean(),
              storage: fc.record({ size: fc.constantFrom('1Gi', '20Gi', '1Mi', 'lots') }),
            },
            { requiredKeys: [] },
          ),
          metadata: fc.record({ labels: fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.oneof(fc.stringMatching(/^[a-z0-9]{0,8}$/), fc.constant(null))) }),
        },
        { requiredKeys: [] },
      ),
    },
    { weight: 5, arbitrary: fc.array(mutation(), { minLength: 1, maxLength: 3 }).map(ms => ms.reduce<unknown>(applyMutation, {})) },
    { weight: 1, arbitrary: anyJsonValue() },
    { weight: 1, arbitrary: fc.constant({ metadata: null, spec: null }) },
  );

const POINTERS = [
  '', '/', '/spec', '/spec/replicas', '/spec/version', '/spec/engine', '/spec/storage/size', '/spec/resources/requests/cpu',
  '/metadata/name', '/metadata/namespace', '/metadata/uid', '/metadata/resourceVersion', '/metadata/labels/a~1b',
  '/metadata/labels/x', '/metadata/annotations/~0', '/status', '/status/conditions/0', '/status/conditions/-',
  '/status/conditions/99999999999', '/status/conditions/-1', '/status/conditions/01', '/spec/replicas/0', 'spec', '//',
  '/~2', '/spec/~', '/metadata/labels/__proto__', '/__proto__/polluted', '/constructor/prototype/x',
];

const pointer = () =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...POINTERS) },
    { weight: 1, arbitrary: hostileString(20) },
    { weight: 1, arbitrary: fc.array(hostileString(6), { maxLength: 4 }).map(parts => `/${parts.join('/')}`) },
  );

/** One RFC 6902 operation, well-formed or not (unknown op, missing members, wrong types). */
export const jsonPatchOperation = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    {
      weight: 5,
      arbitrary: fc.record({
        op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test'),
        path: pointer(),
        value: anyJsonValue(),
        from: pointer(),
      }, { requiredKeys: ['op', 'path'] }),
    },
    { weight: 1, arbitrary: fc.record({ op: fc.oneof(hostileString(8), anyJsonValue()), path: fc.oneof(pointer(), anyJsonValue()) }) },
    { weight: 1, arbitrary: anyJsonValue() },
  );

/** A JSON patch document: usually an array of operations, sometimes not an array at all. */
export const jsonPatch = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.array(jsonPatchOperation(), { maxLength: 5 }) },
    { weight: 1, arbitrary: anyJsonValue() },
  );
