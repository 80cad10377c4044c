import { afterEach, describe, expect, it } from '@jest/globals';
import https from 'node:https';
import type { AuthorizationDecision, RequestInfo } from '../auth/types';
import { makeInstance } from './__testutils__/fixtures';
import { startTestServer, type TestResponse, type TestServer } from './__testutils__/testServer';
import { instanceBody, INSTANCES, json, P } from './__testutils__/writeFixtures';
import { tooManyRequests, type MaxInFlightLimits } from './maxInFlight';

/**
 * Requests are held open in the (fake) SubjectAccessReview, which runs after the gate: the state
 * a slow authorizer, a slow kube-apiserver behind a write or a slow cache wait puts them in.
 */
class Hold {
  private opened!: () => void;
  readonly open: Promise<void> = new Promise(r => (this.opened = r));
  waiting = 0;
  release() {
    this.opened();
  }
}

const allow: AuthorizationDecision = { allowed: true };

/** Polls until `cond` holds (the server has taken the requests in), at most 5 s. */
async function until(cond: () => boolean, what: string) {
  const deadline = Date.now() + 5000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 5));
  }
}

function expect429(res: TestResponse) {
  expect(res.status).toBe(429);
  expect(res.headers['retry-after']).toBe('1');
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  // the Status itself is pinned in maxInFlight.test.ts: here, that it is what goes on the wire
  expect(res.json()).toEqual(tooManyRequests().status);
}

describe('max requests in flight, through HTTPS', () => {
  let t: TestServer | undefined;
  let hold: Hold;

  /** A server with `limits` whose authorizer holds every request `held` picks until hold.release(). */
  async function start(limits: MaxInFlightLimits, held: (info: RequestInfo) => boolean) {
    t = await startTestServer({ maxInFlight: limits });
    t.store.upsert(makeInstance({ name: 'orders-db' }));
    hold = new Hold();
    t.authorizer.decide = async (_user, info) => {
      if (held(info)) {
        hold.waiting++;
        await hold.open;
      }
      return allow;
    };
    return t;
  }

  afterEach(async () => {
    hold?.release();
    await t?.close();
    t = undefined;
  });

  const GET = `${INSTANCES}/orders-db`;
  const isVerb = (...verbs: string[]) => (info: RequestInfo) => info.isResourceRequest && verbs.includes(info.verb);

  it('with a limit of 3 reads, 3 + 4 concurrent slow GETs: 4 are answered 429 at once, the 3 others 200 once released', async () => {
    const s = await start({ readOnly: 3, mutating: 1 }, isVerb('get'));
    const all = Array.from({ length: 7 }, () => s.request(GET, { token: 'alice' }));
    await until(() => hold.waiting === 3, 'three requests held');
    // the refused ones do not wait for the held ones
    const early = await Promise.race([Promise.all(all.slice(3)), new Promise(r => setTimeout(() => r('held'), 2000))]);
    expect(early).not.toBe('held');
    hold.release();
    const answers = await Promise.all(all);
    const refused = answers.filter(a => a.status === 429);
    expect(refused).toHaveLength(4);
    refused.forEach(expect429);
    expect(answers.filter(a => a.status === 200)).toHaveLength(3);
    expect(hold.waiting).toBe(3);
    // every slot came back
    const after = await Promise.all(Array.from({ length: 3 }, () => s.request(GET, { token: 'alice' })));
    expect(after.map(a => a.status)).toEqual([200, 200, 200]);
  });

  it('does not count watches, and health, discovery and OpenAPI still answer 200 while reads are saturated', async () => {
    const s = await start({ readOnly: 1, mutating: 1 }, isVerb('get'));
    const watches = await Promise.all([
      s.watch(`${INSTANCES}?watch=true`, { token: 'alice' }),
      s.watch(`${P}/watch/namespaces/team-a/databaseinstances`, { token: 'alice' }),
      s.watch(`${P}/databaseinstances?watch=1`, { token: 'alice' }),
    ]);
    expect(watches.map(w => w.status)).toEqual([200, 200, 200]);
    const held = s.request(GET, { token: 'alice' });
    await until(() => hold.waiting === 1, 'the read held');
    expect429(await s.request(GET, { token: 'alice' }));
    expect429(await s.request(INSTANCES, { token: 'alice' }));
    // connection is an ordinary get (not long-running) and counts
    expect429(await s.request(`${GET}/connection`, { token: 'alice' }));
    // the watches opened while saturated too
    const late = await s.watch(`${INSTANCES}?watch=true&resourceVersion=0`, { token: 'alice' });
    expect(late.status).toBe(200);
    expect((await late.next()).type).toBe('ADDED');
    for (const path of ['/healthz', '/livez', '/readyz', '/readyz/informers-synced', P, '/apis', '/openapi/v2', '/version']) {
      const res = await s.request(path, { token: 'alice' });
      expect([path, res.status]).toEqual([path, 200]);
    }
    expect((await s.request('/healthz', { token: null })).status).toBe(200);
    [...watches, late].forEach(w => w.close());
    hold.release();
    expect((await held).status).toBe(200);
  });

  it('keeps reads and writes in separate pools', async () => {
    const s = await start({ readOnly: 1, mutating: 1 }, isVerb('get', 'create'));
    const read = s.request(GET, { token: 'alice' });
    const write = s.request(INSTANCES, json('POST', instanceBody('cache-1', { engine: 'redis' })));
    await until(() => hold.waiting === 2, 'one read and one write held');
    expect429(await s.request(GET, { token: 'alice' }));
    expect429(await s.request(INSTANCES, json('POST', instanceBody('cache-2', { engine: 'redis' }))));
    expect429(await s.request(GET, json('PATCH', '{"spec":{"replicas":2}}', 'alice', 'application/merge-patch+json')));
    expect429(await s.request(GET, json('DELETE', undefined)));
    hold.release();
    expect((await read).status).toBe(200);
    expect((await write).status).toBe(201);
    // the refused create wrote nothing (cache-1 comes with its password Secret)
    expect(s.writer.calls.filter(c => c.verb === 'create').map(c => c.name).sort()).toEqual(['cache-1', 'cache-1-password']);
  });

  it('serves system:masters over the limit, as kube-apiserver does', async () => {
    const s = await start({ readOnly: 1, mutating: 1 }, info => info.verb === 'get' && info.name === 'orders-db');
    const held = s.request(GET, { token: 'alice' });
    await until(() => hold.waiting === 1, 'the read held');
    expect429(await s.request(`${INSTANCES}/other`, { token: 'alice' }));
    expect((await s.request(`${INSTANCES}/other`, { token: 'admin' })).status).toBe(404);
    hold.release();
    expect((await held).status).toBe(200);
  });

  it('keeps the slot of a client that hung up until its handler is done', async () => {
    const s = await start({ readOnly: 1, mutating: 1 }, info => info.verb === 'get' && info.name === 'orders-db');
    const req = https.request({ host: '127.0.0.1', port: s.port, path: GET, ca: s.ca, headers: { authorization: 'Bearer alice' } });
    req.on('error', () => undefined);
    req.end();
    await until(() => hold.waiting === 1, 'the read held');
    req.destroy();
    await new Promise(r => setTimeout(r, 100));
    // the handler still works for it: the slot is taken
    expect429(await s.request(`${INSTANCES}/other`, { token: 'alice' }));
    hold.release();
    let status = 429;
    for (let tries = 0; status === 429 && tries < 50; tries++) {
      await new Promise(r => setTimeout(r, 20));
      status = (await s.request(`${INSTANCES}/other`, { token: 'alice' })).status;
    }
    expect(status).toBe(404);
  });

  it('limits nothing with 0', async () => {
    const s = await start({ readOnly: 0, mutating: 0 }, isVerb('get', 'create'));
    const reads = Array.from({ length: 30 }, () => s.request(GET, { token: 'alice' }));
    const writes = Array.from({ length: 10 }, (_, i) => s.request(INSTANCES, json('POST', instanceBody(`c-${i}`, { engine: 'redis' }))));
    await until(() => hold.waiting === 40, 'all 40 requests held');
    hold.release();
    expect((await Promise.all(reads)).every(r => r.status === 200)).toBe(true);
    expect((await Promise.all(writes)).every(r => r.status === 201)).toBe(true);
  });

  it('counts the refusals in databases_apiserver_request_total with code 429', async () => {
    const s = await start({ readOnly: 1, mutating: 1 }, isVerb('get'));
    const held = s.request(GET, { token: 'alice' });
    await until(() => hold.waiting === 1, 'the read held');
    for (let i = 0; i < 3; i++) expect429(await s.request(GET, { token: 'alice' }));
    const metrics = (await s.request('/metrics')).body;
    expect(metrics).toMatch(/databases_apiserver_request_total\{[^}]*verb="get"[^}]*code="429"[^}]*\} 3/);
    hold.release();
    await held;
  });
});
