import { describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import { acceptHeader, contentType, hostileString, listQuery, pathSegment, queryString } from './arbitraries';
import type { ProbeRequest } from './hostileApiClient';
import { healthz, runHostileCases } from './hostileCases';
import { describeExchange, expectKubeAnswer } from './hostileExpectations';
import { HOSTILE_RUNS, HOSTILE_TIMEOUT_MS, type Caller } from './hostileHarness';
import { useHostileHarness } from './__testUtils__/useHostileHarness';

jest.setTimeout(HOSTILE_TIMEOUT_MS);

const PATHS = [
  '/apis',
  '/apis/dbaas.platform.dev',
  '/apis/dbaas.platform.dev/v1alpha1',
  '/openapi/v2',
  '/openapi/v3',
  '/openapi/v3/apis/dbaas.platform.dev/v1alpha1',
  '/version',
  '/healthz',
  '/livez',
  '/readyz',
  '/healthz/ping',
  '/readyz/informer-sync',
  '/readyz/shutdown',
  '/metrics',
  '/api',
  '/api/v1',
  '/',
  '/apis/dbaas.platform.dev/v1',
  '/apis/other.group/v1',
];

/** A path near a served one: itself, a trailing or doubled slash, dot segments, another case, a hostile suffix. */
const nearPath = () =>
  fc.constantFrom(...PATHS).chain(p =>
    fc.oneof(
      { weight: 4, arbitrary: fc.constant(p) },
      { weight: 1, arbitrary: fc.constantFrom(`${p}/`, `/${p}`, p.replace(/\//g, '//'), p.toUpperCase(), `/x/..${p}`, `${p}/.`, `${p}/..`, p.replace(/\//g, '%2F'), `${p}%00`, `${p};x`) },
      { weight: 1, arbitrary: hostileString(20).chain(s => pathSegment(s)).map(seg => `${p}/${seg}`) },
      { weight: 1, arbitrary: fc.constantFrom('*', 'http://evil.example/apis', '/..', '/%2e%2e/%2e%2e/etc/passwd') },
    ),
  );

const nonResourceCase = (servedRv: () => bigint) =>
  fc.record({
    caller: fc.constantFrom<Caller>('admin', 'admin', 'admin', 'admin', 'admin', 'alice', 'carol', 'anonymous'),
    method: fc.constantFrom('GET', 'GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
    path: nearPath(),
    query: listQuery(servedRv).chain(queryString),
    accept: fc.option(acceptHeader()),
    ifNoneMatch: fc.option(fc.oneof(fc.constantFrom('*', '""', 'W/"x"'), hostileString(20))),
    contentType: fc.option(contentType()),
    body: fc.option(hostileString(200)),
  });

describe('hostile input: discovery, OpenAPI, /version, health and /metrics', () => {
  const h = useHostileHarness();

  it(`answers ${HOSTILE_RUNS} generated requests with a success or a 4xx Status, never a 5xx, and never writes`, async () => {
    const rvBefore = h.storeRv();
    const codes = await runHostileCases(h, 'non-resource', nonResourceCase(h.servedRv), async (c, send) => {
      const probe: ProbeRequest = {
        method: c.method,
        path: c.path === '*' || c.path.startsWith('http') ? c.path : `${c.path}${c.query}`,
        headers: {
          ...(c.accept !== null ? { accept: c.accept } : {}),
          ...(c.ifNoneMatch !== null ? { 'if-none-match': c.ifNoneMatch } : {}),
          ...(c.contentType !== null ? { 'content-type': c.contentType } : {}),
        },
        ...(c.body !== null && c.method !== 'GET' && c.method !== 'HEAD' ? { body: c.body } : {}),
      };
      const answer = await send(c.caller, probe);
      expectKubeAnswer(probe, answer);
      const wrote = h.wroteSince(rvBefore);
      if (wrote) throw new Error(`a read-only route wrote (${wrote}):\n${describeExchange(probe, answer)}`);
    });
    // the generator must reach both sides of the oracle, or it proves nothing
    expect([...codes.keys()].some(c => c < 300)).toBe(true);
    expect([...codes.keys()].some(c => c >= 400)).toBe(true);
    expect(await healthz(h)).toEqual({ status: 200, body: 'ok' });
  });
});
