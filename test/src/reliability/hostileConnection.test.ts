import { describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import YAML from 'yaml';
import { acceptHeader, hostileString, listQuery, objectName, pathSegment, percentEncode, queryString, GROUP_VERSION_PATH } from './arbitraries';
import type { ProbeRequest } from './hostileApiClient';
import { healthz, runHostileCases } from './hostileCases';
import { describeExchange, expectKubeAnswer, expectStatusFailure, isCredentialsNotYet } from './hostileExpectations';
import { bindClusterRole } from '../support';
import { HOSTILE_RUNS, HOSTILE_TIMEOUT_MS, type Caller } from './hostileHarness';
import { useHostileHarness } from './__testUtils__/useHostileHarness';

jest.setTimeout(HOSTILE_TIMEOUT_MS);

describe('hostile input: the connection subresource (credentials)', () => {
  const h = useHostileHarness();

  it(`answers ${HOSTILE_RUNS} generated requests with credentials only to callers granted databaseinstances/connection, otherwise a 4xx Status`, async () => {
    const targets = h.instances();
    // alice edits team-a (the chart's dbaas-edit, without credentials); reading them is the
    // chart's dbaas-connection-reader, bound for this case as an admin would
    const unbind = bindClusterRole(h.system.emulator, { name: 'alice-connection-reader', namespace: 'team-a', clusterRole: 'dbaas-connection-reader', user: 'alice' });
    const connectionCase = fc.record({
      caller: fc.oneof({ weight: 4, arbitrary: fc.constant<Caller>('admin') }, { weight: 3, arbitrary: fc.constant<Caller>('alice') }, { weight: 2, arbitrary: fc.constantFrom<Caller>('carol', 'anonymous') }),
      method: fc.oneof({ weight: 8, arbitrary: fc.constant('GET') }, { weight: 1, arbitrary: fc.constantFrom('HEAD', 'POST', 'PUT', 'PATCH', 'DELETE') }),
      target: fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...targets) },
        { weight: 1, arbitrary: fc.tuple(objectName(['team-a', 'team-b']), objectName(targets.map(t => t[1]))) },
      ),
      // the subresource as sent: exact, another case, with trailing noise, encoded
      subresource: fc.oneof(
        { weight: 8, arbitrary: fc.constant('connection') },
        { weight: 1, arbitrary: fc.constantFrom('Connection', 'connection/', 'connection/x', 'connections', '%63onnection', 'connection%2F', '..%2Fconnection') },
        { weight: 1, arbitrary: hostileString(12).chain(pathSegment) },
      ),
      query: listQuery(h.servedRv).chain(queryString),
      accept: fc.option(acceptHeader(), { freq: 3 }),
      body: fc.option(hostileString(100), { freq: 4 }),
    });
    const codes = await runHostileCases(h, 'connection', connectionCase, async (c, send) => {
      const [namespace, name] = c.target;
      const probe: ProbeRequest = {
        method: c.method,
        path: `${GROUP_VERSION_PATH}/namespaces/${percentEncode(namespace)}/databaseinstances/${percentEncode(name)}/${c.subresource}${c.query}`,
        headers: c.accept !== null ? { accept: c.accept } : {},
        ...(c.body !== null && c.method !== 'GET' && c.method !== 'HEAD' ? { body: c.body } : {}),
      };
      const rvBefore = h.storeRv();
      const answer = await send(c.caller, probe);
      // credentials the operator has not created yet are the one 5xx by design (see isCredentialsNotYet)
      const refusal = expectKubeAnswer(probe, answer);
      const notYet = isCredentialsNotYet(answer);
      // an empty or trailing segment addresses the instance itself, which admin and alice may delete
      const mayWrite = !refusal && c.method !== 'GET' && c.method !== 'HEAD' && c.subresource !== 'connection';
      const wrote = h.wroteSince(rvBefore);
      if (!mayWrite && wrote) throw new Error(`a connection request wrote (${wrote}):\n${describeExchange(probe, answer)}`);
      // who may read credentials: system:masters, and alice in team-a (the binding above)
      const granted = c.caller === 'admin' || (c.caller === 'alice' && namespace === 'team-a');
      if (answer.status === 200 && probe.method === 'GET') {
        // YAML when it was asked for (a JSON answer parses as YAML too)
        const body = YAML.parse(answer.body);
        // a trailing slash or an empty segment reads the instance itself: that is no credential
        const credentials = body?.kind === 'DatabaseInstanceConnection' || body?.password !== undefined;
        if (credentials && !granted) throw new Error(`credentials served to ${c.caller} in ${namespace}:\n${describeExchange(probe, answer)}`);
        if (credentials && (body.metadata?.namespace !== namespace || body.metadata?.name !== name)) {
          throw new Error(`the connection of another object was served:\n${describeExchange(probe, answer)}`);
        }
      }
      if (!granted && c.caller !== 'anonymous' && c.subresource === 'connection' && targets.some(t => t[0] === namespace && t[1] === name)) {
        if (notYet) throw new Error(`${c.caller} learnt whether credentials exist:\n${describeExchange(probe, answer)}`);
        expectStatusFailure(probe, answer, c.method === 'GET' || c.method === 'HEAD' ? [403, 406, 400, 422] : [403, 405, 400, 422]);
      }
    });
    unbind();
    expect(codes.get(200)).toBeGreaterThan(0);
    expect(codes.get(403)).toBeGreaterThan(0);
    expect(await healthz(h)).toEqual({ status: 200, body: 'ok' });
  });
});
