import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import {
  contentType,
  deeplyNestedJson,
  jsonPatch,
  malformedJson,
  mergePatch,
  objectName,
  pathSegment,
  percentEncode,
  writeQuery,
  GROUP_VERSION_PATH,
  MAX_BODY_BYTES,
  type WriteQuery,
} from './arbitraries';
import type { ProbeRequest } from './hostileApiClient';
import { describeExchange, expectKubeAnswer, expectStatusFailure } from './hostileExpectations';
import { HOSTILE_RUNS, HOSTILE_TIMEOUT_MS, startHostileHarness, type Caller, type HostileHarness } from './hostileHarness';

jest.setTimeout(HOSTILE_TIMEOUT_MS);

const MERGE = 'application/merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';
const UNSERVED = ['application/strategic-merge-patch+json', 'application/apply-patch+yaml'];

/** A patch body and what the oracle knows of its answer when nothing else is wrong. */
interface PatchBody {
  what: 'merge' | 'jsonPatch' | 'malformed' | 'deep' | 'copyBomb' | 'tooManyOps' | 'oversized';
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
    { weight: 4, arbitrary: malformedJson().map(text => ({ what: 'malformed' as const, text })) },
    { weight: 2, arbitrary: deeplyNestedJson().map(text => ({ what: 'deep' as const, text })) },
    { weight: 1, arbitrary: fc.constant({ what: 'copyBomb' as const, text: COPY_BOMB }) },
    { weight: 1, arbitrary: fc.constant({ what: 'tooManyOps' as const, text: TOO_MANY_OPS }) },
    { weight: 1, arbitrary: fc.constant({ what: 'oversized' as const, text: OVERSIZED }) },
  );

/** The same query with `dryRun=All` added. */
const withDryRun = (q: WriteQuery): WriteQuery => ({ ...q, dryRun: true, pairs: [['dryRun', 'All'], ...q.pairs], text: q.text ? `?dryRun=All&${q.text.slice(1)}` : '?dryRun=All' });

describe('hostile input: patch of databaseinstances (merge, JSON patch; strategic and apply are 415)', () => {
  let h: HostileHarness;
  let targets: Array<readonly [string, string]>;

  beforeAll(async () => {
    h = await startHostileHarness();
    targets = h.system.apiserver.store.list().map(i => [i.metadata.namespace ?? '', i.metadata.name ?? ''] as const);
  });

  afterAll(async () => {
    await h?.stop();
  });

  it(`answers ${HOSTILE_RUNS} generated patches with 200 or a 4xx Status, never a 5xx; a refused or dry-run patch writes nothing`, async () => {
    const started = process.hrtime.bigint();
    const codes = new Map<number, number>();
    const patchCase = fc.record({
      caller: fc.oneof({ weight: 8, arbitrary: fc.constant<Caller>('admin') }, { weight: 3, arbitrary: fc.constant<Caller>('alice') }, { weight: 1, arbitrary: fc.constant<Caller>('carol') }),
      target: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...targets.filter(t => t[0] === 'team-a')) }, { weight: 1, arbitrary: fc.constantFrom(...targets) }),
      url: fc.oneof({ weight: 10, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: objectName().chain(pathSegment) }),
      query: writeQuery().chain(q => (q.dryRun ? fc.constant(q) : fc.oneof({ weight: 1, arbitrary: fc.constant(q) }, { weight: 30, arbitrary: fc.constant(withDryRun(q)) }))),
      contentType: fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom(MERGE, JSON_PATCH) },
        { weight: 1, arbitrary: fc.constantFrom(...UNSERVED) },
        { weight: 1, arbitrary: contentType() },
      ),
      body: patchBody(),
    });
    await fc.assert(
      fc.asyncProperty(patchCase, async c => {
        const [namespace, name] = c.target;
        const probe: ProbeRequest = {
          method: 'PATCH',
          path: `${GROUP_VERSION_PATH}/namespaces/${percentEncode(namespace)}/databaseinstances/${c.url ?? percentEncode(name)}${c.query.text}`,
          headers: { 'content-type': c.contentType },
          body: c.body.text,
        };
        const rvBefore = h.storeRv();
        const answer = await h.send(c.caller, probe);
        codes.set(answer.status, (codes.get(answer.status) ?? 0) + 1);
        const refusal = expectKubeAnswer(probe, answer);
        if ((refusal || c.query.dryRun) && h.storeRv() !== rvBefore) {
          throw new Error(`a ${refusal ? 'refused' : 'dry-run'} patch wrote:\n${describeExchange(probe, answer)}`);
        }
        if (!refusal && answer.status !== 200) throw new Error(`a patch answered ${answer.status}:\n${describeExchange(probe, answer)}`);

        if (c.caller !== 'admin' || c.url !== null) return;
        // the body limit is enforced before anything else looks at the request
        if (c.body.what === 'oversized') expectStatusFailure(probe, answer, [413]);
        if (!c.query.clean || c.body.what === 'oversized') return;
        if (UNSERVED.includes(c.contentType)) expectStatusFailure(probe, answer, [415]);
        const served = c.contentType === MERGE || c.contentType === JSON_PATCH;
        if (served && ['malformed', 'deep'].includes(c.body.what)) expectStatusFailure(probe, answer, [400]);
        if (c.contentType === JSON_PATCH && c.body.what === 'copyBomb') expectStatusFailure(probe, answer, [422]);
        if (c.contentType === JSON_PATCH && c.body.what === 'tooManyOps') expectStatusFailure(probe, answer, [413]);
      }),
      { numRuns: HOSTILE_RUNS },
    );
    const perCase = Number(process.hrtime.bigint() - started) / 1e6 / HOSTILE_RUNS;
    console.log(`patch: ${HOSTILE_RUNS} cases, ${perCase.toFixed(2)} ms/case, codes ${JSON.stringify(Object.fromEntries(codes))}`);
    expect(codes.get(200)).toBeGreaterThan(0);
    expect([...codes.keys()].filter(c => c >= 400).length).toBeGreaterThan(4);

    const health = await h.send('anonymous', { method: 'GET', path: '/healthz' });
    expect({ status: health.status, body: health.body }).toEqual({ status: 200, body: 'ok' });
  });
});
