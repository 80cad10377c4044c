import { describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import { asksDryRun, BACKEND_RUNS, BACKEND_TIMEOUT_MS, clusterName, encode, forged, hostile, instancePath, jsonValue, rarely, segment, who } from './__testUtils__/hostileBackendProbe';
import { useHostileBackend } from './__testUtils__/useHostileBackend';
import { wroteSince } from '@internal/e2e';
import { impersonationFor } from './kube/impersonationFor';

jest.setTimeout(BACKEND_TIMEOUT_MS);

/** A value that is mostly valid for its field, sometimes anything at all. */
const mostly = <T>(valid: fc.Arbitrary<T>) => fc.oneof({ weight: 12, arbitrary: valid }, { weight: 1, arbitrary: jsonValue() });

/** Adds, now and then, a field the schema does not have (the strict schemas refuse it). */
const withStray = <T extends object>(arb: fc.Arbitrary<T>, key: string) =>
  fc.tuple(arb, rarely(jsonValue(), 10)).map(([o, v]) => (v === null ? o : { ...o, [key]: v }));

describe('hostile input: the write, entity and other routes of the databases backend', () => {
  // from here on only requests can change the cluster
  const { backend: b, client, known } = useHostileBackend({ pauseOperators: true });

  it(`POST create: ${BACKEND_RUNS} generated bodies, content types and namespaces`, async () => {
    // valid specs, and now and then one field replaced by anything at all
    const spec = fc
      .tuple(
        fc.constantFrom<Record<string, unknown>>(
          { engine: 'redis', topology: 'standalone', version: '7.0.15', storage: { size: '1Gi' } },
          { engine: 'mariadb', topology: 'galera', replicas: 3, version: '11.4', resources: { requests: { cpu: '250m' } } },
          { engine: 'mysql', version: '8.4.3', deletionProtection: true },
          // restores: a Succeeded run of the demo's, a point in time (the apiserver refuses
          // MariaDB's), a backup that does not exist
          { engine: 'mariadb', topology: 'galera', replicas: 3, restoreFrom: { backup: 'orders-db-nightly-check' } },
          { engine: 'postgresql', restoreFrom: { instance: 'payments-pg', pointInTime: '2026-01-01T00:00:00Z' } },
          { engine: 'mariadb', restoreFrom: { instance: 'orders-db', pointInTime: '2026-01-01T00:00:00Z' } },
          { engine: 'mysql', restoreFrom: { backup: 'no-such-backup' } },
        ),
        rarely(fc.tuple(fc.constantFrom('engine', 'topology', 'version', 'replicas', 'storage', 'resources', 'deletionProtection', 'restoreFrom'), jsonValue()), 3),
      )
      .map(([valid, change]) => (change ? { ...valid, [change[0]]: change[1] } : valid));
    const body = fc.record(
      {
        name: mostly(fc.stringMatching(/^bh-[a-z0-9]{6}$/)),
        owner: mostly(fc.constantFrom('group:default/team-a', 'group:default/team-b', 'user:default/alice')),
        entityRef: mostly(fc.constantFrom('component:default/orders', 'component:default/ghost')),
        // real creates are refused by policy or validation, or go through as alice in team-a
        dryRun: fc.oneof({ weight: 8, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: jsonValue() }),
        spec: withStray(spec, 'password'),
      },
      { requiredKeys: ['name', 'owner', 'spec', 'dryRun'] },
    );
    const text = fc.oneof(
      { weight: 8, arbitrary: withStray(body, 'extra').map(o => JSON.stringify(o)) },
      { weight: 1, arbitrary: hostile(200) },
      { weight: 1, arbitrary: fc.constantFrom('{', '[]', 'null', '"x"', '{"name":', '{"__proto__":{"dryRun":false}}', '{"constructor":{"prototype":{"x":1}}}', ' '.repeat(200 * 1024), `{"name":"${'a'.repeat(200 * 1024)}"}`) },
    );
    const contentType = fc.oneof({ weight: 8, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'application/yaml', '') });
    const codes = await client.family(
      'POST create',
      fc.record({ caller: who(), cluster: clusterName().chain(segment), namespace: fc.oneof({ weight: 6, arbitrary: fc.constantFrom('team-a', 'team-a', 'team-b') }, { weight: 1, arbitrary: hostile(20) }).chain(segment), body: text, contentType, forged: forged() }),
      c => ({
        method: 'POST',
        path: `/api/databases/clusters/${c.cluster}/namespaces/${c.namespace}/instances`,
        caller: c.caller,
        headers: { ...(c.contentType ? { 'content-type': c.contentType } : {}), ...(c.forged ?? {}) },
        body: c.body,
        dryRun: asksDryRun(c.body),
      }),
    );
    expect(codes.get(200)).toBeGreaterThan(0);
  });

  it(`PATCH: ${BACKEND_RUNS} generated bodies`, async () => {
    // plausible day-2 changes, and now and then one field replaced by anything at all
    const patch = fc
      .tuple(
        fc.constantFrom<Record<string, unknown>>({ replicas: 3 }, { deletionProtection: true }, { storage: { size: '20Gi' } }, { version: '11.8' }, { resources: { limits: { memory: '2Gi' } } }, { replicas: 5, resourceVersion: '1' }, { paused: true }, { primary: 'orders-db-1' }),
        rarely(fc.tuple(fc.constantFrom('version', 'replicas', 'storage', 'resources', 'deletionProtection', 'paused', 'primary', 'resourceVersion'), jsonValue()), 3),
        fc.oneof({ weight: 8, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: jsonValue() }),
      )
      .map(([valid, change, dryRun]) => ({ ...valid, ...(change ? { [change[0]]: change[1] } : {}), dryRun }));
    const codes = await client.family('PATCH', fc.record({ t: instancePath(known()), body: fc.oneof({ weight: 8, arbitrary: withStray(patch, 'engine').map(p => JSON.stringify(p)) }, { weight: 1, arbitrary: hostile(100) }) }), c => ({
      method: 'PATCH',
      path: c.t.path,
      caller: c.t.caller,
      headers: { 'content-type': 'application/json', ...(c.t.forged ?? {}) },
      body: c.body,
      dryRun: asksDryRun(c.body),
    }));
    expect(codes.get(200)).toBeGreaterThan(0);
  });

  it(`DELETE: ${BACKEND_RUNS} generated requests by callers the policy or RBAC refuses`, async () => {
    // the owners (alice in team-a, bob in team-b) are left out: their deletes would empty the demo
    const refused = instancePath(known()).filter(t => !((t.caller === 'alice' && t.object[0] === 'team-a') || (t.caller === 'bob' && t.object[0] === 'team-b')));
    const codes = await client.family('DELETE', refused, c => ({ method: 'DELETE', path: c.path, caller: c.caller, headers: c.forged ?? {}, dryRun: true }));
    expect(codes.get(403)).toBeGreaterThan(0);
  });

  it('a client header never changes who the backend acts as: alice stays alice with every forged identity header', async () => {
    const attempts: Array<Record<string, string>> = [
      { 'Impersonate-User': 'user:default/bob', 'Impersonate-Group': 'group:default/team-b' },
      { 'Impersonate-Group': 'system:masters' },
      { 'X-Remote-User': 'admin', 'X-Remote-Group': 'system:masters' },
      { 'x-backstage-user': 'user:default/bob', 'x-forwarded-user': 'bob' },
      { cookie: `backstage-token=${encodeURIComponent('mock-user-token:{"sub":"user:default/bob"}')}` },
    ];
    for (const headers of attempts) {
      const list = await client.send({ method: 'GET', path: '/api/databases/instances?namespace=team-b', caller: 'alice', headers });
      expect(list.status).toBe(200);
      expect(JSON.parse(list.body).items).toEqual([]);
      const rvBefore = b.system.emulator.store.currentRV();
      const patch = await client.send({ method: 'PATCH', path: '/api/databases/clusters/local/namespaces/team-b/instances/search', caller: 'alice', headers: { ...headers, 'content-type': 'application/json' }, body: '{"replicas":5}' });
      expect(patch.status).toBe(403);
      const conn = await client.send({ method: 'GET', path: '/api/databases/clusters/local/namespaces/team-b/instances/search/connection', caller: 'alice', headers });
      expect(conn.status).toBe(403);
      expect(wroteSince(b.system, rvBefore)).toBeUndefined();
    }
  });

  it('no Backstage identity maps to a Kubernetes system group: 10,000 generated ownership refs', () => {
    const ref = fc
      .tuple(fc.constantFrom('user', 'group', 'component', 'system', 'System'), fc.constantFrom('default', 'system', 'kube-system', 'masters'), fc.string({ minLength: 1, maxLength: 20 }))
      .map(([k, ns, n]) => `${k}:${ns}/${n}`);
    fc.assert(
      fc.property(ref, fc.array(ref, { maxLength: 5 }), fc.constantFrom('', 'oidc:', 'backstage:'), (user, owned, prefix) => {
        const as = impersonationFor({ userEntityRef: user, ownershipEntityRefs: [user, ...owned] }, { userPrefix: prefix, groupPrefix: prefix });
        // an entity ref always has a kind and a namespace, so it can never be system:masters or system:authenticated
        expect(as.groups.every(g => g.startsWith(`${prefix}`) && !/^system:(masters|authenticated|unauthenticated)$/.test(g))).toBe(true);
        expect(as.user).toBe(`${prefix}${user}`);
        expect(as.groups).not.toContain(`${prefix}${user}`);
      }),
      { numRuns: 10_000 },
    );
  });

  it(`GET entity routes and every other route: ${BACKEND_RUNS} generated requests each`, async () => {
    const ref = fc.oneof(fc.constantFrom('component:default/orders', 'component:default/ghost', 'user:default/alice', 'group:default/team-b'), hostile(40));
    await client.family('GET /entity-instances', fc.record({ caller: who(), ref, extra: rarely(fc.tuple(hostile(8), hostile(8)), 3) }), c => ({
      method: 'GET',
      path: `/api/databases/entity-instances?entityRef=${encode(c.ref)}${c.extra ? `&${encode(c.extra[0])}=${encode(c.extra[1])}` : ''}`,
      caller: c.caller,
    }));
    await client.family(
      'GET /entities/:kind/:namespace/:name/instances',
      fc.record({ caller: who(), kind: fc.oneof(fc.constant('component'), hostile(12)).chain(segment), ns: fc.oneof(fc.constant('default'), hostile(12)).chain(segment), name: fc.oneof(fc.constant('orders'), hostile(12)).chain(segment) }),
      c => ({ method: 'GET', path: `/api/databases/entities/${c.kind}/${c.ns}/${c.name}/instances`, caller: c.caller }),
    );
    await client.family(
      'other routes',
      fc.record({
        caller: who(),
        path: fc.oneof(fc.constantFrom('/api/databases/clusters', '/api/databases/health', '/api/databases/events', '/api/databases/', '/api/databases/clusters/local', '/api/databases/instances/x'), hostile(20).map(s => `/api/databases/${encode(s)}`)),
        method: fc.constantFrom('GET', 'GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'),
      }),
      c => ({ method: c.method, path: c.path, caller: c.caller, ...(c.method !== 'GET' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}) }),
    );
    const health = await client.send({ method: 'GET', path: '/api/databases/health', caller: 'none' });
    expect(health.status).toBe(200);
  });
});
