import { describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import YAML from 'yaml';
import {
  applyMutation,
  contentType,
  deeplyNestedJson,
  hostileYaml,
  instanceWriteFields,
  instanceWritePath,
  malformedJson,
  mutation,
  objectName,
  unknownFieldName,
  anyJsonValue,
  type Mutation,
} from './arbitraries';
import type { ProbeRequest } from './hostileApiClient';
import { healthz, runHostileCases } from './hostileCases';
import { describeExchange, expectStatusFailure, expectWriteAnswer } from './hostileExpectations';
import { HOSTILE_RUNS, HOSTILE_TIMEOUT_MS } from './hostileHarness';
import { useHostileHarness } from './__testUtils__/useHostileHarness';
import { cacheCaughtUp, sourceVersions } from '../support/cacheCaughtUp';

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

describe('hostile input: update (PUT) of databaseinstances', () => {
  const h = useHostileHarness();

  it(`answers ${HOSTILE_RUNS} generated updates with 200 or a 4xx Status, never a 5xx; a refused or dry-run update writes nothing`, async () => {
    const updateCase = fc.record({
      ...instanceWriteFields(h.instances(), 8),
      contentType: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...JSON_TYPES, 'application/yaml') }, { weight: 1, arbitrary: contentType() }),
      recipe: recipe(),
    });
    let waitedForCache = 0;
    const codes = await runHostileCases(h, 'update', updateCase, async (c, send) => {
      const [namespace, name] = c.target;
      // The body is the served instance: read it once the cache holds every earlier case's write
      // (a write's answer may come before its watch event), or a PUT of it back is rightly a 409.
      if (await cacheCaughtUp(h.system, namespace, name)) waitedForCache++;
      const readAt = sourceVersions(h.system, namespace, name).cluster;
      const current = h.system.apiserver.store.get(namespace, name);
      if (!current) throw new Error(`target ${namespace}/${name} is gone`);
      const baked = bake(c.recipe, JSON.parse(JSON.stringify(current)));
      const yaml = c.contentType === 'application/yaml';
      const body = baked.text ?? (yaml ? YAML.stringify(baked.doc) : JSON.stringify(baked.doc) ?? '');
      const probe: ProbeRequest = {
        method: 'PUT',
        path: instanceWritePath(c),
        headers: { 'content-type': c.contentType },
        body,
      };
      const rvBefore = h.storeRv();
      const answer = await send(c.caller, probe);
      expectWriteAnswer(probe, answer, { what: 'update', success: 200, dryRun: c.query.dryRun, wrote: h.wroteSince(rvBefore) });

      const plain = c.caller === 'admin' && c.url === null && c.query.clean && (JSON_TYPES.includes(c.contentType) || yaml);
      if (!plain) return;
      const r = c.recipe;
      // an empty name is taken as the URL's (kube-apiserver refuses it; harmless either way)
      if (r.kind === 'otherName' && r.name !== name && r.name !== '') expectStatusFailure(probe, answer, [400]);
      if (r.kind === 'otherNamespace' && r.namespace !== namespace && r.namespace !== '') expectStatusFailure(probe, answer, [400]);
      if (r.kind === 'staleResourceVersion') expectStatusFailure(probe, answer, [409]);
      if (r.kind === 'text' && r.what === 'malformed' && !yaml) expectStatusFailure(probe, answer, [400]);
      if (r.kind === 'unchanged' && answer.status !== 200) {
        // the operators are paused and cases run one at a time: nothing may move the object
        const now = sourceVersions(h.system, namespace, name).cluster;
        throw new Error(`a no-op update was refused (operator object at ${readAt} when read, ${now} now):\n${describeExchange(probe, answer)}`);
      }
      if (r.kind === 'unknownFields' && c.query.fieldValidation === 'Strict') {
        const status = expectStatusFailure(probe, answer, [400]);
        for (const f of baked.unknown) {
          if (!status.message.includes(`unknown field ${JSON.stringify(f)}`)) {
            throw new Error(`Strict refusal does not name ${JSON.stringify(f)}:\n${describeExchange(probe, answer)}`);
          }
        }
      }
    });
    console.log(`update: ${waitedForCache} of ${HOSTILE_RUNS} cases began before the apiserver's cache held the earlier writes`);
    expect(codes.get(200)).toBeGreaterThan(0);
    expect([...codes.keys()].filter(c => c >= 400).length).toBeGreaterThan(4);
    expect(await healthz(h)).toEqual({ status: 200, body: 'ok' });
  });
});
