import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import { acceptHeader, listQuery, queryString, resourcePath, type KnownObjects } from './arbitraries';
import type { ProbeAnswer, ProbeRequest } from './hostileApiClient';
import { healthz, runHostileCases } from './hostileCases';
import { describeExchange, expectKubeAnswer } from './hostileExpectations';
import { HOSTILE_RUNS, HOSTILE_TIMEOUT_MS, type Caller } from './hostileHarness';
import { useHostileHarness } from './__testUtils__/useHostileHarness';

jest.setTimeout(HOSTILE_TIMEOUT_MS);

const SERVED_KINDS = new Set([
  'DatabaseInstance',
  'DatabaseInstanceList',
  'DatabaseEngine',
  'DatabaseEngineList',
  'Table',
  'PartialObjectMetadata',
  'PartialObjectMetadataList',
  // path tricks (`name/connection` in one segment) can reach the connection subresource
  'DatabaseInstanceConnection',
  // an empty resource segment is the group-version's discovery document
  'APIResourceList',
]);

/** Objects a successful JSON answer carries (one object, list items, or Table rows' objects). */
function objectsOf(body: any): any[] {
  if (body?.kind === 'Table') return (body.rows ?? []).map((r: any) => r.object).filter(Boolean);
  if (Array.isArray(body?.items)) return body.items;
  return body?.metadata ? [body] : [];
}

/** A success must be one of the served kinds and hold nothing from outside the namespace asked for, or that the caller may not read. */
function expectScopedSuccess(probe: ProbeRequest, answer: ProbeAnswer, namespace: string, caller: Caller) {
  if (answer.status !== 200 || answer.streamed || probe.method === 'HEAD') return;
  if (!String(answer.headers['content-type']).startsWith('application/json')) return;
  const body = JSON.parse(answer.body);
  if (!SERVED_KINDS.has(body.kind)) throw new Error(`answer of an unexpected kind:\n${describeExchange(probe, answer)}`);
  for (const o of objectsOf(body)) {
    const ns = o.metadata?.namespace;
    if (namespace && ns !== undefined && ns !== namespace) {
      throw new Error(`an object of namespace ${ns} in an answer for namespace ${namespace}:\n${describeExchange(probe, answer)}`);
    }
    if (caller === 'alice' && ns !== undefined && ns !== 'team-a') {
      throw new Error(`alice (team-a) was shown ${ns}/${o.metadata?.name}:\n${describeExchange(probe, answer)}`);
    }
  }
}

describe('hostile input: list, get and watch of databaseinstances and databaseengines', () => {
  const h = useHostileHarness();
  let known: KnownObjects;

  beforeAll(() => {
    const instances = h.system.apiserver.store.list();
    known = {
      namespaces: [...new Set(instances.map(i => i.metadata.namespace ?? ''))],
      instances: instances.map(i => [i.metadata.namespace ?? '', i.metadata.name ?? ''] as const),
      engines: h.system.apiserver.store.engines().map(e => e.metadata.name ?? ''),
    };
  });

  it(`answers ${HOSTILE_RUNS} generated reads with a success or a 4xx Status, never a 5xx, never leaking across namespaces, and never writes`, async () => {
    const rvBefore = h.storeRv();
    const readCase = fc.record({
      caller: fc.oneof(
        { weight: 12, arbitrary: fc.constant<Caller>('admin') },
        { weight: 2, arbitrary: fc.constant<Caller>('alice') },
        { weight: 1, arbitrary: fc.constantFrom<Caller>('carol', 'anonymous') },
      ),
      method: fc.constantFrom('GET', 'GET', 'GET', 'GET', 'GET', 'HEAD'),
      target: resourcePath(known),
      query: listQuery(h.servedRv).chain(queryString),
      accept: fc.option(acceptHeader(), { freq: 2 }),
    });
    const codes = await runHostileCases(h, 'reads', readCase, async (c, send) => {
      const probe: ProbeRequest = {
        method: c.method,
        path: `${c.target.path}${c.query}`,
        headers: c.accept !== null ? { accept: c.accept } : {},
      };
      const answer = await send(c.caller, probe);
      expectKubeAnswer(probe, answer);
      expectScopedSuccess(probe, answer, c.target.namespace, c.caller);
      const wrote = h.wroteSince(rvBefore);
      if (wrote) throw new Error(`a read wrote (${wrote}):\n${describeExchange(probe, answer)}`);
    });
    expect([...codes.keys()].some(c => c === 200)).toBe(true);
    expect([...codes.keys()].filter(c => c >= 400).length).toBeGreaterThan(3);
    expect(await healthz(h)).toEqual({ status: 200, body: 'ok' });
  });
});
