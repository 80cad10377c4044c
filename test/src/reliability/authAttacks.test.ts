import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { hostileString, objectName, pathSegment, GROUP_VERSION_PATH } from './arbitraries';
import { createForeignCa, issueClientCertificate, type CertificatePair } from './authCertificates';
import { HostileApiClient, parseRawResponse, type ProbeAnswer, type ProbeRequest } from './hostileApiClient';
import { describeExchange, expectStatusFailure, isCredentialsNotYet } from './hostileExpectations';
import { startHostileHarness, wireHeaderValue, type HostileHarness } from './hostileHarness';
import { settleAfterWrite } from '../support/quiesce';

const TEAM_B = `${GROUP_VERSION_PATH}/namespaces/team-b/databaseinstances`;
const ALICE = { 'X-Remote-User': 'alice', 'X-Remote-Group': ['team-a', 'system:authenticated'] };
const RUNS = 1000;

const newInstance = (namespace: string, name: string) =>
  JSON.stringify({ metadata: { name, namespace }, spec: { engine: 'redis', topology: 'standalone' } });

/** Requests an attacker would like to get through: reads of another team, writes, credentials. */
const targetRequest = (): fc.Arbitrary<ProbeRequest> =>
  fc.oneof(
    fc.constant({ method: 'GET', path: TEAM_B }),
    fc.constant({ method: 'GET', path: `${GROUP_VERSION_PATH}/databaseinstances` }),
    fc.constant({ method: 'GET', path: `${TEAM_B}/search/connection` }),
    fc.constant({ method: 'GET', path: `${GROUP_VERSION_PATH}/watch/namespaces/team-b/databaseinstances` }),
    fc.stringMatching(/^x-[a-z0-9]{6}$/).map(name => ({ method: 'POST', path: TEAM_B, headers: { 'content-type': 'application/json' }, body: newInstance('team-b', name) })),
    fc.constant({ method: 'PATCH', path: `${TEAM_B}/search`, headers: { 'content-type': 'application/merge-patch+json' }, body: '{"spec":{"replicas":5}}' }),
    fc.constant({ method: 'DELETE', path: `${TEAM_B}/search` }),
    fc.constant({ method: 'DELETE', path: TEAM_B }),
  );

/** Identity headers in every spelling, with extras and uids, claiming the most powerful identity. */
const forgedIdentity = (): fc.Arbitrary<Record<string, string | string[]>> =>
  fc
    .record({
      user: fc.constantFrom('X-Remote-User', 'x-remote-user', 'X-REMOTE-USER'),
      userValue: fc.constantFrom('admin', 'system:admin', 'system:serviceaccount:dbaas-system:apiserver', 'alice'),
      group: fc.option(fc.constantFrom<string[]>(['system:masters'], ['system:masters', 'system:authenticated'], ['team-b']), { freq: 4 }),
      extra: fc.option(fc.tuple(fc.constantFrom('X-Remote-Extra-Scopes', 'X-Remote-Extra-%2Fadmin', 'x-remote-extra-'), hostileString(10)), { freq: 3 }),
      uid: fc.option(fc.uuid(), { freq: 4 }),
    })
    .map(f => ({
      [f.user]: f.userValue,
      ...(f.group ? { 'X-Remote-Group': f.group } : {}),
      ...(f.extra ? { [f.extra[0]]: wireHeaderValue(f.extra[1]) } : {}),
      ...(f.uid ? { 'X-Remote-Uid': f.uid } : {}),
    }));

describe('authentication and authorization attacks on the aggregated apiserver', () => {
  let h: HostileHarness;
  const clients: Record<string, HostileApiClient> = {};
  let emulator: HostileApiClient;

  beforeAll(async () => {
    h = await startHostileHarness();
    const certs = h.system.emulator.certs;
    const foreignCa = await createForeignCa('front-proxy-ca');
    const target = (cert?: CertificatePair) =>
      new HostileApiClient({ port: h.system.apiserver.port, ca: certs.clusterCa.certPem, servername: 'api.dbaas-system.svc', cert });
    clients['no client certificate'] = target();
    clients['a front-proxy certificate from another CA'] = target(await issueClientCertificate(foreignCa, 'front-proxy-client'));
    clients['the front-proxy CA, a CN not allowed'] = target(await issueClientCertificate(certs.frontProxyCa, 'evil-proxy'));
    clients['system:masters from another CA'] = target(await issueClientCertificate(foreignCa, 'admin', ['system:masters']));
    clients['a user certificate of the cluster (not the proxy)'] = target(certs.admin);
    emulator = new HostileApiClient({ port: h.system.emulator.port, ca: certs.clusterCa.certPem, servername: 'localhost' });
  });

  afterAll(async () => {
    for (const c of Object.values(clients)) c.close();
    emulator?.close();
    await h?.stop();
  });

  /** The store must not move, and nothing in team-b may have been created, changed or deleted. */
  const expectNoWrite = (rvBefore: number, probe: ProbeRequest, answer: ProbeAnswer) => {
    const wrote = h.wroteSince(rvBefore);
    if (wrote) throw new Error(`an attack wrote (${wrote}):\n${describeExchange(probe, answer)}`);
  };

  it.each([
    'no client certificate',
    'a front-proxy certificate from another CA',
    'the front-proxy CA, a CN not allowed',
    'system:masters from another CA',
    'a user certificate of the cluster (not the proxy)',
  ])(`identity headers with %s: ${RUNS} generated requests, every one 401, none writes`, async name => {
    const client = clients[name];
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(targetRequest(), forgedIdentity(), fc.option(fc.constantFrom('alice-token', 'admin-token', 'junk'), { freq: 3 }), async (request, identity, token) => {
        const probe = { ...request, headers: { ...request.headers, ...identity, ...(token ? { authorization: `Bearer ${token}` } : {}) } };
        const rvBefore = h.storeRv();
        const answer = await client.request(probe);
        expectStatusFailure(probe, answer, [401]);
        expectNoWrite(rvBefore, probe, answer);
        refused++;
      }),
      { numRuns: RUNS },
    );
    expect(refused).toBeGreaterThanOrEqual(RUNS);
  });

  it('a certificate the cluster did not issue is no credential even without identity headers', async () => {
    for (const name of ['a front-proxy certificate from another CA', 'the front-proxy CA, a CN not allowed', 'system:masters from another CA']) {
      const probe = { method: 'GET', path: TEAM_B };
      expect(expectStatusFailure(probe, await clients[name].request(probe), [401]).reason).toBe('Unauthorized');
    }
  });

  it(`bearer tokens TokenReview rejects: ${RUNS} generated tokens and Authorization headers, never a success, never a write`, async () => {
    const authorization = fc.oneof(
      fc.string({ minLength: 1, maxLength: 60 }).map(t => `Bearer ${t}`),
      fc.constantFrom('Bearer', 'Bearer ', 'bearer alice-token-', 'Bearer alice-token x', 'Basic YWRtaW46YWRtaW4=', 'Bearer emulator-admin-token ,', 'Token admin-token', `Bearer ${'a'.repeat(8000)}`),
      hostileString(40).map(t => `Bearer ${wireHeaderValue(t)}`),
    );
    const codes = new Set<number>();
    await fc.assert(
      fc.asyncProperty(targetRequest(), authorization, async (request, auth) => {
        const probe = { ...request, headers: { ...request.headers, authorization: auth } };
        const rvBefore = h.storeRv();
        const answer = await clients['no client certificate'].request(probe);
        // a malformed header is no credential at all (anonymous, then 403), a rejected token is 401
        codes.add(expectStatusFailure(probe, answer, [401, 403]).code);
        expectNoWrite(rvBefore, probe, answer);
      }),
      { numRuns: RUNS },
    );
    expect(codes.has(401)).toBe(true);
  });

  it('the real front proxy: a comma in X-Remote-Group is one group, repeated X-Remote-User takes the first, extras grant nothing', async () => {
    const cases: Array<Record<string, string | string[]>> = [
      { 'X-Remote-User': 'alice', 'X-Remote-Group': 'team-a,system:masters' },
      { 'X-Remote-User': 'alice', 'X-Remote-Group': 'team-a, system:masters' },
      { 'X-Remote-User': ['alice', 'admin'], 'X-Remote-Group': 'team-a' },
      { 'X-Remote-User': 'alice', 'X-Remote-Group': 'team-a', 'X-Remote-Extra-Groups': 'system:masters', 'X-Remote-Extra-%2Fgroup': 'system:masters' },
      { 'X-Remote-User': 'alice', 'X-Remote-Group': 'team-a', 'Impersonate-User': 'admin', 'Impersonate-Group': 'system:masters' },
      // group names are case-sensitive (HTTP trims surrounding spaces, so ' system:masters ' would be the real group)
      { 'X-Remote-User': 'alice', 'X-Remote-Group': ['team-a', 'System:Masters', 'SYSTEM:MASTERS', 'system:masters-'] },
    ];
    for (const identity of cases) {
      for (const request of [
        { method: 'GET', path: TEAM_B },
        { method: 'POST', path: TEAM_B, headers: { 'content-type': 'application/json' }, body: newInstance('team-b', 'injected') },
      ]) {
        const probe = { ...request, headers: { ...request.headers, ...identity } };
        const rvBefore = h.storeRv();
        const answer = await h.client.request(probe);
        const status = expectStatusFailure(probe, answer, [403]);
        expect(status.message).toContain('User "alice"');
        expectNoWrite(rvBefore, probe, answer);
      }
    }
  });

  it('the real front proxy: CR/LF, obs-fold and NUL in identity headers are refused as malformed HTTP, as a Status', async () => {
    const head = (lines: string[]) => `GET ${TEAM_B} HTTP/1.1\r\nHost: api\r\n${lines.join('\r\n')}\r\n\r\n`;
    for (const raw of [
      head(['X-Remote-User: alice', ' X-Remote-Group: system:masters']),
      head(['X-Remote-User: alice\nX-Remote-Group: system:masters']),
      head(['X-Remote-User: alice\rX-Remote-Group: system:masters']),
      head(['X-Remote-User: ad\u0000min', 'X-Remote-Group: system:masters']),
      head(['X-Remote-User : admin', 'X-Remote-Group: system:masters']),
      head(['Authorization: Bearer emulator-admin-token\u0000', 'X-Remote-Group: system:masters']),
      head(['X-Remote-User: alice', 'X-Remote-Group: team-a', 'Content-Length: 5', 'Transfer-Encoding: chunked']),
    ]) {
      const answer = parseRawResponse(await h.client.raw(raw));
      const probe = { method: 'GET', path: JSON.stringify(raw) };
      const status = expectStatusFailure(probe, { status: answer.status, headers: answer.headers, body: answer.body, streamed: false }, [400]);
      expect(status.reason).toBe('BadRequest');
    }
  });

  it('through the aggregator: client-sent X-Remote-* headers are dropped, impersonation needs its own grant', async () => {
    const attempts: Array<{ token: string; headers: Record<string, string | string[]>; status: number }> = [
      { token: 'alice-token', headers: { 'X-Remote-User': 'admin', 'X-Remote-Group': 'system:masters' }, status: 403 },
      { token: 'alice-token', headers: { 'X-Remote-Extra-Scopes': 'all', 'X-Remote-Uid': '0' }, status: 403 },
      { token: 'alice-token', headers: { 'Impersonate-User': 'admin' }, status: 403 },
      { token: 'alice-token', headers: { 'Impersonate-User': 'alice', 'Impersonate-Group': 'system:masters' }, status: 403 },
      { token: 'bob-token', headers: { 'Impersonate-User': 'alice', 'Impersonate-Group': 'team-a' }, status: 403 },
      // groups without a user to impersonate is malformed impersonation (kube: 400)
      { token: 'carol-token', headers: { 'Impersonate-Group': 'system:masters' }, status: 400 },
      { token: 'not-a-token', headers: { 'X-Remote-User': 'admin' }, status: 401 },
    ];
    for (const a of attempts) {
      for (const request of [
        { method: 'GET', path: `${TEAM_B}/search/connection` },
        { method: 'POST', path: TEAM_B, headers: { 'content-type': 'application/json' }, body: newInstance('team-b', 'via-aggregator') },
      ]) {
        const probe = { ...request, headers: { ...request.headers, ...a.headers, authorization: `Bearer ${a.token}` } };
        const rvBefore = h.storeRv();
        const answer = await emulator.request(probe);
        expect(expectStatusFailure(probe, answer, [a.status]).code).toBe(a.status);
        expectNoWrite(rvBefore, probe, answer);
      }
    }
  });

  it('another namespace in the body than in the path is a 400 and writes nothing', async () => {
    // an instance of its own: the path fuzzing lets alice delete what she may in team-a
    const target = 'ns-target';
    const created = await h.client.request({ method: 'POST', path: `${GROUP_VERSION_PATH}/namespaces/team-a/databaseinstances`, headers: { ...ALICE, 'content-type': 'application/json' }, body: newInstance('team-a', target) });
    expect(created.status).toBe(201);
    // its binding Secret (the apiserver writes it of its own accord) before any case compares the store
    await settleAfterWrite(h.system, JSON.parse(created.body));
    for (const [method, path, type] of [
      ['POST', `${GROUP_VERSION_PATH}/namespaces/team-a/databaseinstances`, 'application/json'],
      ['PUT', `${GROUP_VERSION_PATH}/namespaces/team-a/databaseinstances/${target}`, 'application/json'],
      ['PATCH', `${GROUP_VERSION_PATH}/namespaces/team-a/databaseinstances/${target}`, 'application/merge-patch+json'],
    ] as const) {
      const current = h.system.apiserver.store.get('team-a', target)!;
      const body = method === 'POST' ? newInstance('team-b', 'smuggled') : JSON.stringify(method === 'PUT' ? { ...current, metadata: { ...current.metadata, namespace: 'team-b' } } : { metadata: { namespace: 'team-b' } });
      const probe = { method, path, headers: { ...ALICE, 'content-type': type }, body };
      const rvBefore = h.storeRv();
      const answer = await h.client.request(probe);
      const status = expectStatusFailure(probe, answer, [400]);
      expect(status.message).toContain('does not match the namespace');
      expectNoWrite(rvBefore, probe, answer);
    }
    expect(h.system.apiserver.store.get('team-b', 'smuggled')).toBeUndefined();
  });

  it(`path tricks as alice (team-a): ${RUNS * 3} generated paths never read or write team-b`, async () => {
    const segment = () => fc.oneof(fc.constantFrom('team-a', 'team-b', '..', '.', '', 'databaseinstances', 'search', 'payments-db', 'connection', 'status'), objectName(['team-b']));
    const trickyPath = fc
      .array(segment().chain(pathSegment), { minLength: 1, maxLength: 6 })
      .chain(parts =>
        fc.constantFrom(
          `${GROUP_VERSION_PATH}/namespaces/team-a/${parts.join('/')}`,
          `${GROUP_VERSION_PATH}/namespaces/${parts.join('/')}`,
          `${GROUP_VERSION_PATH}/namespaces/team-a/databaseinstances/${parts.join('%2F')}`,
          `${GROUP_VERSION_PATH}/namespaces/team-a%2F..%2Fteam-b/${parts.join('/')}`,
          `${GROUP_VERSION_PATH}/namespaces/team-a/..%252F..%252Fteam-b/${parts.join('/')}`,
          `${GROUP_VERSION_PATH}/${parts.join('/')}`,
        ),
      );
    const method = fc.constantFrom('GET', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE');
    const teamBObjects = () => h.system.apiserver.store.list('team-b').map(i => `${i.metadata.uid}@${i.metadata.resourceVersion}`).join();
    const teamBBefore = teamBObjects();
    await fc.assert(
      fc.asyncProperty(trickyPath, method, fc.constantFrom('team-a', 'team-b', undefined), async (path, m, bodyNamespace) => {
        const writes = m !== 'GET';
        const probe: ProbeRequest = {
          method: m,
          path,
          headers: { ...ALICE, ...(writes ? { 'content-type': m === 'PATCH' ? 'application/merge-patch+json' : 'application/json' } : {}) },
          ...(writes && m !== 'DELETE' ? { body: JSON.stringify({ metadata: { name: 'search', ...(bodyNamespace ? { namespace: bodyNamespace } : {}) }, spec: { engine: 'elasticsearch', replicas: 9 } }) } : {}),
        };
        const before = teamBObjects();
        const answer = await h.client.request(probe);
        // the one 5xx by design: the connection of a `search` an earlier case created in team-a,
        // whose credentials the paused operators never make (seen in CI: POST, then GET search%2Fconnection)
        if (answer.status >= 500 && !isCredentialsNotYet(answer)) throw new Error(`a 5xx:\n${describeExchange(probe, answer)}`);
        if (answer.status < 300 && !answer.streamed && answer.body.includes('"namespace":"team-b"')) {
          throw new Error(`alice read team-b:\n${describeExchange(probe, answer)}`);
        }
        if (teamBObjects() !== before) throw new Error(`alice changed team-b:\n${describeExchange(probe, answer)}`);
      }),
      { numRuns: RUNS * 3 },
    );
    expect(teamBObjects()).toBe(teamBBefore);
  });

  it('the apiserver still answers after every attack', async () => {
    const probe = { method: 'GET', path: `${GROUP_VERSION_PATH}/namespaces/team-a/databaseinstances`, headers: ALICE };
    const answer = await h.client.request(probe);
    expect(answer.status).toBe(200);
  });
});
