import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import { bindClusterRole } from '@internal/e2e';
import { BACKEND_RUNS, BACKEND_TIMEOUT_MS, clusterName, encode, forged, hostile, instancePath, segment, who } from './__testUtils__/hostileBackendProbe';
import { useHostileBackend } from './__testUtils__/useHostileBackend';

jest.setTimeout(BACKEND_TIMEOUT_MS);

describe('hostile input: the read routes of the databases backend', () => {
  // from here on only requests can change the cluster
  const { backend, client, known } = useHostileBackend({ pauseOperators: true });
  // some connection reads must succeed: alice's, through the chart's dbaas-connection-reader
  // (her team's dbaas-edit does not include credentials)
  beforeAll(() => {
    bindClusterRole(backend.system.emulator, { name: 'alice-connection-reader', namespace: 'team-a', clusterRole: 'dbaas-connection-reader', user: 'user:default/alice' });
  });

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
      const codes = await client.family(`GET instance${suffix}`, instancePath(known()), c => ({ method: 'GET', path: `${c.path}${suffix}`, caller: c.caller, headers: c.forged ?? {} }));
      expect(codes.get(200)).toBeGreaterThan(0);
    }
  });

  it(`GET /clusters/:cluster/engines: ${BACKEND_RUNS} generated clusters`, async () => {
    const codes = await client.family('GET engines', fc.record({ caller: who(), cluster: clusterName().chain(segment) }), c => ({
      method: 'GET',
      path: `/api/databases/clusters/${c.cluster}/engines`,
      caller: c.caller,
    }));
    expect(codes.get(200)).toBeGreaterThan(0);
  });
});
