import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import { contentType, deleteBody, deleteQuery, objectName, pathSegment, percentEncode, GROUP_VERSION_PATH } from './arbitraries';
import type { ProbeRequest } from './hostileApiClient';
import { healthz, runHostileCases } from './hostileCases';
import { describeExchange, expectKubeAnswer, expectStatusFailure } from './hostileExpectations';
import { HOSTILE_RUNS, HOSTILE_TIMEOUT_MS, type Caller } from './hostileHarness';
import { useHostileHarness } from './__testUtils__/useHostileHarness';

jest.setTimeout(HOSTILE_TIMEOUT_MS);

const VICTIMS = 12;
describe('hostile input: delete and deletecollection of databaseinstances', () => {
  const h = useHostileHarness();
  let targets: Array<readonly [string, string]>;

  beforeAll(async () => {
    // every demo instance is protected; a few unprotected victims may really be deleted
    const admin = { 'content-type': 'application/merge-patch+json' };
    for (const i of h.system.apiserver.store.list()) {
      const answer = await h.send('admin', {
        method: 'PATCH',
        path: `${GROUP_VERSION_PATH}/namespaces/${i.metadata.namespace}/databaseinstances/${i.metadata.name}`,
        headers: admin,
        body: JSON.stringify({ spec: { deletionProtection: true } }),
      });
      if (answer.status !== 200) throw new Error(`could not protect ${i.metadata.name}: ${answer.body}`);
    }
    for (let n = 0; n < VICTIMS; n++) {
      const answer = await h.send('admin', {
        method: 'POST',
        path: `${GROUP_VERSION_PATH}/namespaces/team-a/databaseinstances`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ metadata: { name: `victim-${n}`, labels: { victim: 'yes' } }, spec: { engine: 'redis', topology: 'standalone' } }),
      });
      if (answer.status !== 201) throw new Error(`could not create victim-${n}: ${answer.body}`);
    }
    targets = h.instances();
  });

  it(`answers ${HOSTILE_RUNS} generated deletes with a success or a 4xx Status, never a 5xx; protected instances stay`, async () => {
    const deleteCase = fc.record({
      caller: fc.oneof({ weight: 8, arbitrary: fc.constant<Caller>('admin') }, { weight: 3, arbitrary: fc.constant<Caller>('alice') }, { weight: 1, arbitrary: fc.constantFrom<Caller>('carol', 'anonymous') }),
      collection: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      target: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...targets) }, { weight: 1, arbitrary: fc.tuple(objectName(['team-a']), objectName()) }),
      trick: fc.option(objectName().chain(pathSegment), { freq: 10 }),
      query: deleteQuery(),
      contentType: fc.option(contentType(), { freq: 3 }),
      body: deleteBody(),
    });
    const codes = await runHostileCases(h, 'delete', deleteCase, async (c, send) => {
      const [namespace, name] = c.target;
      const collection = `${GROUP_VERSION_PATH}/namespaces/${percentEncode(namespace)}/databaseinstances`;
      const queryText = c.query.length ? `?${c.query.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&')}` : '';
      const probe: ProbeRequest = {
        method: 'DELETE',
        path: `${c.collection ? collection : `${collection}/${c.trick ?? percentEncode(name)}`}${queryText}`,
        headers: c.contentType !== null ? { 'content-type': c.contentType } : {},
        ...(c.body.text !== undefined ? { body: c.body.text } : {}),
      };
      const protectedBefore = h.system.apiserver.store.list().filter(i => i.spec.deletionProtection).map(i => i.metadata.uid);
      const rvBefore = h.storeRv();
      const answer = await send(c.caller, probe);
      const refusal = expectKubeAnswer(probe, answer);
      const wrote = h.wroteSince(rvBefore);
      if (refusal && wrote) throw new Error(`a refused delete wrote (${wrote}):\n${describeExchange(probe, answer)}`);
      const gone = protectedBefore.filter(uid => !h.system.apiserver.store.list().some(i => i.metadata.uid === uid && !i.metadata.deletionTimestamp));
      if (gone.length) throw new Error(`a protected instance was deleted:\n${describeExchange(probe, answer)}`);
      if (c.caller !== 'admin' || c.trick !== null || c.collection) return;
      const known = targets.some(t => t[0] === namespace && t[1] === name) && h.system.apiserver.store.get(namespace, name);
      if (known && c.body.what === 'oversized') expectStatusFailure(probe, answer, [413]);
      if (known && (c.body.what === 'malformed' || c.body.what === 'deep') && c.body.text !== '' && String(c.body.text).trim() !== '') {
        expectStatusFailure(probe, answer, [400]);
      }
    });
    expect([...codes.keys()].some(c => c === 200)).toBe(true);
    expect(codes.get(403)).toBeGreaterThan(0);
    expect(await healthz(h)).toEqual({ status: 200, body: 'ok' });
  });
});
