import { describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import {
  contentType,
  deeplyNestedJson,
  jsonPatch,
  malformedJson,
  instanceWriteFields,
  instanceWritePath,
  mergePatch,
  MAX_BODY_BYTES,
} from './arbitraries';
import type { ProbeRequest } from './hostileApiClient';
import { healthz, runHostileCases } from './hostileCases';
import { expectStatusFailure, expectWriteAnswer } from './hostileExpectations';
import { HOSTILE_RUNS, HOSTILE_TIMEOUT_MS } from './hostileHarness';
import { useHostileHarness } from './__testUtils__/useHostileHarness';

jest.setTimeout(HOSTILE_TIMEOUT_MS);

const MERGE = 'application/merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';
const APPLY = 'application/apply-patch+yaml';
const UNSERVED = ['application/strategic-merge-patch+json', 'application/apply-patch+cbor'];

/** A patch body and what the oracle knows of its answer when nothing else is wrong. */
interface PatchBody {
  what: 'merge' | 'jsonPatch' | 'apply' | 'malformed' | 'deep' | 'copyBomb' | 'tooManyOps' | 'oversized';
  text: string | Buffer;
}

// every copy appends an array to itself, doubling it: forty of them would need terabytes
const COPY_BOMB = JSON.stringify([
  { op: 'add', path: '/spec/v', value: ['x'.repeat(1024)] },
  ...Array.from({ length: 40 }, () => ({ op: 'copy', from: '/spec/v', path: '/spec/v/-' })),
]);
const TOO_MANY_OPS = JSON.stringify(Array.from({ length: 10_001 }, () => ({ op: 'test', path: '/kind', value: 'DatabaseInstance' })));
const OVERSIZED = Buffer.alloc(MAX_BODY_BYTES + 1, ' ');

const patchBody = (): fc.Arbitrary<PatchBody> =>
  fc.oneof(
    { weight: 20, arbitrary: mergePatch().map(p => ({ what: 'merge' as const, text: JSON.stringify(p) ?? 'null' })) },
    { weight: 20, arbitrary: jsonPatch().map(p => ({ what: 'jsonPatch' as const, text: JSON.stringify(p) ?? 'null' })) },
    // an applied configuration: a merge patch's object as a whole DatabaseInstance
    {
      weight: 10,
      arbitrary: mergePatch().map(p => ({
        what: 'apply' as const,
        text: JSON.stringify({ ...(p !== null && typeof p === 'object' && !Array.isArray(p) ? p : {}), apiVersion: 'dbaas.platform.dev/v1alpha1', kind: 'DatabaseInstance' }),
      })),
    },
    { weight: 4, arbitrary: malformedJson().map(text => ({ what: 'malformed' as const, text })) },
    { weight: 2, arbitrary: deeplyNestedJson().map(text => ({ what: 'deep' as const, text })) },
    { weight: 1, arbitrary: fc.constant({ what: 'copyBomb' as const, text: COPY_BOMB }) },
    { weight: 1, arbitrary: fc.constant({ what: 'tooManyOps' as const, text: TOO_MANY_OPS }) },
    { weight: 1, arbitrary: fc.constant({ what: 'oversized' as const, text: OVERSIZED }) },
  );

describe('hostile input: patch of databaseinstances (merge, JSON patch, server-side apply; strategic is 415)', () => {
  const h = useHostileHarness();

  it(`answers ${HOSTILE_RUNS} generated patches with 200 or a 4xx Status, never a 5xx; a refused or dry-run patch writes nothing`, async () => {
    const patchCase = fc.record({
      ...instanceWriteFields(h.instances(), 10),
      contentType: fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom(MERGE, JSON_PATCH, APPLY) },
        { weight: 1, arbitrary: fc.constantFrom(...UNSERVED) },
        { weight: 1, arbitrary: contentType() },
      ),
      body: patchBody(),
      // apply needs a manager; without one it is a 422 (checked below)
      fieldManager: fc.option(fc.constantFrom('hostile', 'kubectl', 'x'.repeat(129)), { nil: undefined }),
    });
    const codes = await runHostileCases(h, 'patch', patchCase, async (c, send) => {
      const manager = c.fieldManager === undefined ? '' : `${c.query.text ? '&' : '?'}fieldManager=${c.fieldManager}`;
      const probe: ProbeRequest = {
        method: 'PATCH',
        path: `${instanceWritePath(c)}${manager}`,
        headers: { 'content-type': c.contentType },
        body: c.body.text,
      };
      const rvBefore = h.storeRv();
      const answer = await send(c.caller, probe);
      // an apply to a name that does not exist creates it
      const success = c.contentType === APPLY && c.url !== null ? 201 : 200;
      expectWriteAnswer(probe, answer, { what: 'patch', success, dryRun: c.query.dryRun, wrote: h.wroteSince(rvBefore) });

      if (c.caller !== 'admin' || c.url !== null) return;
      // the body limit is enforced before anything else looks at the request
      if (c.body.what === 'oversized') expectStatusFailure(probe, answer, [413]);
      if (!c.query.clean || c.body.what === 'oversized') return;
      if (UNSERVED.includes(c.contentType)) expectStatusFailure(probe, answer, [415]);
      // the query's own fieldManager wins over the one appended
      const effective = c.query.pairs.find(([k]) => k === 'fieldManager')?.[1] ?? c.fieldManager;
      if (c.contentType === APPLY && (effective === undefined || effective.length > 128)) expectStatusFailure(probe, answer, [422]);
      if (c.contentType === APPLY && effective !== undefined && effective.length <= 128 && ['malformed', 'deep', 'merge', 'jsonPatch'].includes(c.body.what)) {
        // not a DatabaseInstance of our version: a merge patch or JSON patch body has no apiVersion
        expectStatusFailure(probe, answer, [400]);
      }
      const served = c.contentType === MERGE || c.contentType === JSON_PATCH;
      if (served && ['malformed', 'deep'].includes(c.body.what)) expectStatusFailure(probe, answer, [400]);
      if (c.contentType === JSON_PATCH && c.body.what === 'copyBomb') expectStatusFailure(probe, answer, [422]);
      if (c.contentType === JSON_PATCH && c.body.what === 'tooManyOps') expectStatusFailure(probe, answer, [413]);
    });
    expect(codes.get(200)).toBeGreaterThan(0);
    expect([...codes.keys()].filter(c => c >= 400).length).toBeGreaterThan(4);
    expect(await healthz(h)).toEqual({ status: 200, body: 'ok' });
  });
});
