import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import YAML from 'yaml';
import {
  applyMutation,
  contentType,
  deeplyNestedJson,
  hostileYaml,
  malformedJson,
  mutation,
  objectName,
  pathSegment,
  percentEncode,
  unknownFieldName,
  anyJsonValue,
  writeQuery,
  GROUP_VERSION_PATH,
  type Mutation,
  type WriteQuery,
} from './arbitraries';
import type { ProbeRequest } from './hostileApiClient';
import { describeExchange, expectKubeAnswer, expectStatusFailure } from './hostileExpectations';
import { HOSTILE_RUNS, HOSTILE_TIMEOUT_MS, startHostileHarness, type Caller, type HostileHarness } from './hostileHarness';

jest.setTimeout(HOSTILE_TIMEOUT_MS);

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8'];

/** How a PUT body is derived from the instance as it is served when the case runs. */
type Recipe =
  | { kind: 'unchanged' }
  | { kind: 'scale'; replicas: number }
  | { kind: 'mutated'; mutations: Mutation[] }
  | { kind: 'unknownFields'; fields: Array<{ parent: readonly string[]; key: string; value: unknown }> }
  | { kind: 'otherName'; name: string }
  | { kind: 'otherNamespace'; namespace: string }
  | { kind: 'staleResourceVersion' }
  | { kind: 'text'; text: string; what: 'malformed' | 'deep' | 'yaml' };

const recipe = (): fc.Arbitrary<Recipe> =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constant({ kind: 'unchanged' as const }) },
    { weight: 2, arbitrary: fc.integer({ min: -2, max: 12 }).map(replicas => ({ kind: 'scale' as const, replicas })) },
    { weight: 8, arbitrary: fc.array(mutation(), { minLength: 1, maxLength: 3 }).map(mutations => ({ kind: 'mutated' as const, mutations })) },
    {
      weight: 3,
      arbitrary: fc
        .array(fc.record({ parent: fc.constantFrom<readonly string[]>([], ['metadata'], ['spec']), key: unknownFieldName(), value: anyJsonValue() }), { minLength: 1, maxLength: 3 })
        .map(fields => ({ kind: 'unknownFields' as const, fields })),
    },
    { weight: 1, arbitrary: objectName().map(name => ({ kind: 'otherName' as const, name })) },
    { weight: 1, arbitrary: objectName(['team-b']).map(namespace => ({ kind: 'otherNamespace' as const, namespace })) },
    { weight: 1, arbitrary: fc.constant({ kind: 'staleResourceVersion' as const }) },
    { weight: 1, arbitrary: malformedJson().map(text => ({ kind: 'text' as const, text, what: 'malformed' as const })) },
    { weight: 1, arbitrary: deeplyNestedJson().map(text => ({ kind: 'text' as const, text, what: 'deep' as const })) },
    { weight: 1, arbitrary: hostileYaml().map(text => ({ kind: 'text' as const, text, what: 'yaml' as const })) },
  );

/** The document a recipe makes of `current`, and the unknown field paths it added. */
function bake(r: Recipe, current: any): { doc?: unknown; text?: string; unknown: string[] } {
  switch (r.kind) {
    case 'unchanged':
      return { doc: current, unknown: [] };
    case 'scale':
      return { doc: { ...current, spec: { ...current.spec, replicas: r.replicas } }, unknown: [] };
    case 'mutated':
      return { doc: r.mutations.reduce<unknown>(applyMutation, current), unknown: [] };
    case 'unknownFields': {
      const unknown: string[] = [];
      let doc: unknown = current;
      for (const f of r.fields) {
        const path = [...f.parent, f.key].join('.');
        if (unknown.includes(path)) continue;
        unknown.push(path);
        doc = applyMutation(doc, { op: 'unknown', path: f.parent, key: f.key, value: f.value });
      }
      return { doc, unknown };
    }
    case 'otherName':
      return { doc: { ...current, metadata: { ...current.metadata, name: r.name } }, unknown: [] };
    case 'otherNamespace':
      return { doc: { ...current, metadata: { ...current.metadata, namespace: r.namespace } }, unknown: [] };
    case 'staleResourceVersion':
      return { doc: { ...current, metadata: { ...current.metadata, resourceVersion: '1' } }, unknown: [] };
    case 'text':
      return { text: r.text, unknown: [] };
    default:
      throw new Error(`unknown recipe ${JSON.stringify(r)}`);
  }
}

/** The same query with `dryRun=All` added. */
const withDryRun = (q: WriteQuery): WriteQuery => ({ ...q, dryRun: true, pairs: [['dryRun', 'All'], ...q.pairs], text: q.text ? `?dryRun=All&${q.text.slice(1)}` : '?dryRun=All' });

describe('hostile input: update (PUT) of databaseinstances', () => {
  let h: HostileHarness;
  let targets: Array<readonly [string, string]>;

  beforeAll(async () => {
    h = await startHostileHarness();
    targets = h.system.apiserver.store.list().map(i => [i.metadata.namespace ?? '', i.metadata.name ?? ''] as const);
  });

  afterAll(async () => {
    await h?.stop();
  });

  it(`answers ${HOSTILE_RUNS} generated updates with 200 or a 4xx Status, never a 5xx; a refused or dry-run update writes nothing`, async () => {
    const started = process.hrtime.bigint();
    const codes = new Map<number, number>();
    const updateCase = fc.record({
      // alice edits team-a, carol may only read: both go through SubjectAccessReviews
      caller: fc.oneof({ weight: 8, arbitrary: fc.constant<Caller>('admin') }, { weight: 3, arbitrary: fc.constant<Caller>('alice') }, { weight: 1, arbitrary: fc.constant<Caller>('carol') }),
      target: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...targets.filter(t => t[0] === 'team-a')) }, { weight: 1, arbitrary: fc.constantFrom(...targets) }),
      // the URL names the target, or something else: another valid name, a hostile one, a path trick
      url: fc.oneof({ weight: 8, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: objectName().chain(pathSegment) }),
      query: writeQuery().chain(q => (q.dryRun ? fc.constant(q) : fc.oneof({ weight: 1, arbitrary: fc.constant(q) }, { weight: 30, arbitrary: fc.constant(withDryRun(q)) }))),
      contentType: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...JSON_TYPES, 'application/yaml') }, { weight: 1, arbitrary: contentType() }),
      recipe: recipe(),
    });
    await fc.assert(
      fc.asyncProperty(updateCase, async c => {
        const [namespace, name] = c.target;
        const current = h.system.apiserver.store.get(namespace, name);
        if (!current) throw new Error(`target ${namespace}/${name} is gone`);
        const baked = bake(c.recipe, JSON.parse(JSON.stringify(current)));
        const yaml = c.contentType === 'application/yaml';
        const body = baked.text ?? (yaml ? YAML.stringify(baked.doc) : JSON.stringify(baked.doc) ?? '');
        const probe: ProbeRequest = {
          method: 'PUT',
          path: `${GROUP_VERSION_PATH}/namespaces/${percentEncode(namespace)}/databaseinstances/${c.url ?? percentEncode(name)}${c.query.text}`,
          headers: { 'content-type': c.contentType },
          body,
        };
        const rvBefore = h.storeRv();
        const answer = await h.send(c.caller, probe);
        codes.set(answer.status, (codes.get(answer.status) ?? 0) + 1);
        const refusal = expectKubeAnswer(probe, answer);
        if ((refusal || c.query.dryRun) && h.storeRv() !== rvBefore) {
          throw new Error(`a ${refusal ? 'refused' : 'dry-run'} update wrote:\n${describeExchange(probe, answer)}`);
        }
        if (!refusal && answer.status !== 200) throw new Error(`an update answered ${answer.status}:\n${describeExchange(probe, answer)}`);

        const plain = c.caller === 'admin' && c.url === null && c.query.clean && (JSON_TYPES.includes(c.contentType) || yaml);
        if (!plain) return;
        const r = c.recipe;
        // an empty name is taken as the URL's (kube-apiserver refuses it; harmless either way)
        if (r.kind === 'otherName' && r.name !== name && r.name !== '') expectStatusFailure(probe, answer, [400]);
        if (r.kind === 'otherNamespace' && r.namespace !== namespace && r.namespace !== '') expectStatusFailure(probe, answer, [400]);
        if (r.kind === 'staleResourceVersion') expectStatusFailure(probe, answer, [409]);
        if (r.kind === 'text' && r.what === 'malformed' && !yaml) expectStatusFailure(probe, answer, [400]);
        if (r.kind === 'unchanged' && answer.status !== 200) throw new Error(`a no-op update was refused:\n${describeExchange(probe, answer)}`);
        if (r.kind === 'unknownFields' && c.query.fieldValidation === 'Strict') {
          const status = expectStatusFailure(probe, answer, [400]);
          for (const f of baked.unknown) {
            if (!status.message.includes(`unknown field ${JSON.stringify(f)}`)) {
              throw new Error(`Strict refusal does not name ${JSON.stringify(f)}:\n${describeExchange(probe, answer)}`);
            }
          }
        }
      }),
      { numRuns: HOSTILE_RUNS },
    );
    const perCase = Number(process.hrtime.bigint() - started) / 1e6 / HOSTILE_RUNS;
    console.log(`update: ${HOSTILE_RUNS} cases, ${perCase.toFixed(2)} ms/case, codes ${JSON.stringify(Object.fromEntries(codes))}`);
    expect(codes.get(200)).toBeGreaterThan(0);
    expect([...codes.keys()].filter(c => c >= 400).length).toBeGreaterThan(4);

    const health = await h.send('anonymous', { method: 'GET', path: '/healthz' });
    expect({ status: health.status, body: health.body }).toEqual({ status: 200, body: 'ok' });
  });
});
