import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import { backendClient, BACKEND_RUNS, encode, forged, hostile, segment, who } from './__testUtils__/hostileBackendProbe';
import { startHostileBackend, type HostileBackend } from './__testUtils__/startHostileBackend';

// a family of a longer hunt may take minutes (a case takes 1–13 ms)
jest.setTimeout(Math.max(120_000, BACKEND_RUNS * 3 * 40));

describe('hostile input: the read routes of the databases backend', () => {
  let b: HostileBackend;
  let client: ReturnType<typeof backendClient>;
  let known: Array<[string, string]>;

  beforeAll(async () => {
    b = await startHostileBackend();
    // from here on only requests can change the cluster
    b.system.emulator.operators.pause();
    client = backendClient(b);
    known = b.system.apiserver.store.list().map(i => [i.metadata.namespace ?? '', i.metadata.name ?? '']);
  });

  afterAll(async () => {
    client?.close();
    await b?.stop();
  });

  const cluster = () => fc.oneof({ weight: 6, arbitrary: fc.constant('local') }, { weight: 1, arbitrary: hostile(12) });
  const instancePath = () =>
    fc
      .record({
        caller: who(),
        cluster: cluster(),
        object: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: fc.tuple(hostile(20), hostile(20)) }),
        forged: forged(),
      })
      .chain(c =>
        fc.tuple(segment(c.cluster), segment(c.object[0]), segment(c.object[1])).map(([cl, ns, n]) => ({ ...c, path: `/api/databases/clusters/${cl}/namespaces/${ns}/instances/${n}` })),
      );

  it(`GET /instances: ${BACKEND_RUNS} generated queries with forged identity headers beside real tokens`, async () => {
    const param = fc.oneof(
      ...['cluster', 'namespace', 'engine', 'phase', 'owner', 'entity', 'q', 'cursor', 'sort'].map(k => hostile(40).map(v => [k, v] as [string, string])),
      fc.constantFrom<[string, string]>(['engine', 'redis'], ['phase', 'Ready'], ['namespace', 'team-b'], ['owner', 'group:default/team-b'], ['entity', 'component:default/orders'], ['sort', '-name'], ['cluster', 'local']),
      fc.oneof(fc.integer({ min: -5, max: 600 }).map(String), hostile(8)).map(v => ['limit', v] as [string, string]),
      fc.tuple(hostile(8), hostile(8)),
      // express's query parser turns brackets into arrays and objects
      fc.constantFrom<[string, string]>(['limit[]', '1'], ['engine[a]', 'b'], ['__proto__[x]', '1'], ['constructor', 'x'], ['namespace[]', 'team-b']),
    );
    const codes = await client.family('GET /instances', fc.record({ caller: who(), query: fc.array(param, { maxLength: 5 }), forged: forged() }), c => ({
      method: 'GET',
      path: `/api/databases/instances?${c.query.map(([k, v]) => `${encode(k).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${encode(v)}`).join('&')}`,
      caller: c.caller,
      headers: c.forged ?? {},
    }));
    expect(codes.get(200)).toBeGreaterThan(0);
  });

  it(`GET one instance, its connection and its history: ${BACKEND_RUNS} generated paths each`, async () => {
    for (const suffix of ['', '/connection', '/history']) {
      const codes = await client.family(`GET instance${suffix}`, instancePath(), c => ({ method: 'GET', path: `${c.path}${suffix}`, caller: c.caller, headers: c.forged ?? {} }));
      expect(codes.get(200)).toBeGreaterThan(0);
    }
  });

  it(`GET /clusters/:cluster/engines: ${BACKEND_RUNS} generated clusters`, async () => {
    const codes = await client.family('GET engines', fc.record({ caller: who(), cluster: cluster().chain(segment) }), c => ({
      method: 'GET',
      path: `/api/databases/clusters/${c.cluster}/engines`,
      caller: c.caller,
    }));
    expect(codes.get(200)).toBeGreaterThan(0);
  });
});
