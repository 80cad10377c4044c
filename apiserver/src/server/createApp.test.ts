/* eslint-disable jest/expect-expect -- expectStatus() asserts */
import { afterAll, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import packageJson from '../../package.json';
import { startTestServer, type TestServer } from './__testutils__/testServer';

const P = '/apis/dbaas.platform.dev/v1alpha1';
const NS = `${P}/namespaces/team-a`;
const golden = (name: string) =>
  JSON.parse(readFileSync(path.join(__dirname, '__fixtures__', 'discovery', name), 'utf8'));
const V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

/** Asserts a metav1.Status body whose code equals the HTTP status. */
function expectStatus(res: { status: number; headers: any; json(): any }, code: number, reason: string, message?: string) {
  expect(res.status).toBe(code);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json();
  expect(body).toMatchObject({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code, reason });
  if (message !== undefined) expect(body.message).toBe(message);
  return body;
}

describe('createApp: discovery, auth, errors, health', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => {
    t.authorizer.calls.length = 0;
    t.authorizer.decide = user => ({ allowed: user.username !== 'system:anonymous' });
  });

  describe('discovery', () => {
    it.each([
      ['/apis', 'application/json', 'apis-v1.json'],
      ['/apis', undefined, 'apis-v1.json'],
      ['/apis/dbaas.platform.dev', undefined, 'apigroup.json'],
      [P, undefined, 'apiresourcelist.json'],
      [`${P}/`, undefined, 'apiresourcelist.json'],
    ])('GET %s (Accept %s) matches %s', async (p, accept, file) => {
      const res = await t.request(p, { headers: accept ? { accept } : {} });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.json()).toEqual(golden(file));
    });

    it('serves aggregated discovery v2 with ETag, Vary and 304', async () => {
      const res = await t.request('/apis', { headers: { accept: V2 } });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(V2);
      expect(res.headers.vary).toBe('Accept');
      expect(res.headers.etag).toMatch(/^"[0-9A-F]{128}"$/);
      expect(res.json()).toEqual(golden('apis-v2.json'));

      const again = await t.request('/apis', { headers: { accept: V2, 'if-none-match': res.headers.etag as string } });
      expect(again.status).toBe(304);
      expect(again.body).toBe('');
    });

    it('accepts the v2 parameters in any order and ignores unknown ones', async () => {
      const res = await t.request('/apis', {
        headers: { accept: 'application/json;as=APIGroupDiscoveryList;v=v2;g=apidiscovery.k8s.io;profile=nopeer' },
      });
      expect(res.headers['content-type']).toBe(V2);
    });

    it('serves v2beta1 (kube-apiserver 1.28 asks only for it) with its own apiVersion', async () => {
      const accept = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
      const res = await t.request('/apis', { headers: { accept } });
      expect(res.headers['content-type']).toBe('application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList');
      expect(res.json()).toEqual({ ...golden('apis-v2.json'), apiVersion: 'apidiscovery.k8s.io/v2beta1' });
    });

    it('does not touch the store', async () => {
      const spy = jest.spyOn(t.store, 'list');
      await t.request(P);
      await t.request('/apis', { headers: { accept: V2 } });
      expect(spy).not.toHaveBeenCalled();
      spy.mockRestore();
    });

    it('answers /api with a 404 Status', async () => {
      expectStatus(await t.request('/api'), 404, 'NotFound', 'the server could not find the requested resource');
    });

    it('serves /version', async () => {
      const res = await t.request('/version');
      // Run from a checkout, the stamp is the checkout's; deploy/build-apiserver.sh stamps the bundle.
      const head = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
      expect(res.json()).toMatchObject({
        major: packageJson.version.split('.')[0],
        minor: packageJson.version.split('.')[1],
        gitVersion: `v${packageJson.version}`,
        gitCommit: head,
        gitTreeState: expect.stringMatching(/^(clean|dirty)$/),
        compiler: 'tsc',
      });
    });
  });

  describe('openapi', () => {
    it('serves v2 with ETag and 304', async () => {
      const res = await t.request('/openapi/v2', { headers: { accept: 'application/json' } });
      expect(res.status).toBe(200);
      expect(res.json().swagger).toBe('2.0');
      const again = await t.request('/openapi/v2', { headers: { 'if-none-match': res.headers.etag as string } });
      expect(again.status).toBe(304);
    });

    it('answers protobuf-only OpenAPI requests with 406', async () => {
      const res = await t.request('/openapi/v2', { headers: { accept: 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf' } });
      expectStatus(res, 406, 'NotAcceptable');
    });

    it('indexes v3 by hash and serves the document immutable only for the current hash, never redirecting', async () => {
      const index = await t.request('/openapi/v3');
      const body = index.json();
      expect(Object.keys(body)).toEqual(['paths']);
      expect(Object.keys(body.paths)).toEqual(['apis/dbaas.platform.dev/v1alpha1']);
      const url: string = body.paths['apis/dbaas.platform.dev/v1alpha1'].serverRelativeURL;
      const hash = /\?hash=([0-9A-F]+)$/.exec(url)![1];

      const doc = await t.request(url);
      expect(doc.status).toBe(200);
      expect(doc.headers.etag).toBe(`"${hash}"`);
      expect(doc.headers['cache-control']).toBe('public, immutable');
      expect(Date.parse(doc.headers.expires as string) - Date.now()).toBeGreaterThan(300 * 24 * 3600_000);
      expect(doc.json().openapi).toBe('3.0.0');

      const stale = await t.request('/openapi/v3/apis/dbaas.platform.dev/v1alpha1?hash=WRONG');
      expect(stale.status).toBe(200);
      expect(stale.headers['cache-control']).not.toContain('immutable');
      expect(stale.body).toBe(doc.body);

      const notModified = await t.request(url, { headers: { 'if-none-match': `"${hash}"` } });
      expect(notModified.status).toBe(304);
    });
  });

  describe('authentication and authorization', () => {
    it('answers 401 when the authenticator rejects or fails', async () => {
      expectStatus(await t.request(`${NS}/databaseinstances`, { token: 'nope' }), 401, 'Unauthorized', 'Unauthorized');
      expectStatus(await t.request(`${NS}/databaseinstances`, { token: 'broken' }), 401, 'Unauthorized', 'Unauthorized');
    });

    it('never asks the authorizer about system:masters', async () => {
      await t.request(`${NS}/databaseinstances`, { token: 'admin' });
      expect(t.authorizer.calls).toHaveLength(0);
    });

    it('authorizes other users with the request attributes', async () => {
      await t.request(`${NS}/databaseinstances?watch=1&fieldSelector=metadata.name%3Dfoo&timeoutSeconds=1`, { token: 'alice' });
      expect(t.authorizer.calls[0].user.username).toBe('alice');
      expect(t.authorizer.calls[0].info).toMatchObject({ verb: 'watch', namespace: 'team-a', resource: 'databaseinstances', name: 'foo' });
    });

    it.each([
      [`${NS}/databaseinstances/foo`, undefined, 'databaseinstances.dbaas.platform.dev "foo" is forbidden: User "alice" cannot get resource "databaseinstances" in API group "dbaas.platform.dev" in the namespace "team-a"', { name: 'foo', group: 'dbaas.platform.dev', kind: 'databaseinstances' }],
      [`${NS}/databaseinstances`, 'nope', 'databaseinstances.dbaas.platform.dev is forbidden: User "alice" cannot list resource "databaseinstances" in API group "dbaas.platform.dev" in the namespace "team-a": nope', { group: 'dbaas.platform.dev', kind: 'databaseinstances' }],
      [`${P}/databaseengines/bar`, undefined, 'databaseengines.dbaas.platform.dev "bar" is forbidden: User "alice" cannot get resource "databaseengines" in API group "dbaas.platform.dev" at the cluster scope', { name: 'bar', group: 'dbaas.platform.dev', kind: 'databaseengines' }],
      [`${NS}/databaseinstances/foo/status`, undefined, 'databaseinstances.dbaas.platform.dev "foo" is forbidden: User "alice" cannot get resource "databaseinstances/status" in API group "dbaas.platform.dev" in the namespace "team-a"', { name: 'foo', group: 'dbaas.platform.dev', kind: 'databaseinstances' }],
      ['/metrics', undefined, 'forbidden: User "alice" cannot get path "/metrics"', {}],
    ])('denies %s with the kube message', async (p, reason, message, details) => {
      t.authorizer.decide = () => ({ allowed: false, reason });
      const body = expectStatus(await t.request(p, { token: 'alice' }), 403, 'Forbidden', message);
      expect(body.details).toEqual(details);
    });

    it('answers 500 InternalError when the authorizer throws, and logs it', async () => {
      t.authorizer.decide = () => {
        throw new Error('SAR failed');
      };
      expectStatus(await t.request(`${NS}/databaseinstances`, { token: 'alice' }), 500, 'InternalError');
      expect(t.logger.entries.some(e => e.level === 'error' && e.message === 'Authorization failed')).toBe(true);
    });

    it('lets probes in without credentials, authenticator or authorizer', async () => {
      const before = t.authenticator.calls;
      for (const p of ['/healthz', '/livez', '/readyz']) {
        const res = await t.request(p, { token: null });
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
        expect(res.body).toBe('ok');
      }
      expect(t.authenticator.calls).toBe(before);
      expect(t.authorizer.calls).toHaveLength(0);
    });

    it('denies anonymous discovery through the authorizer (nothing is always allowed for anonymous)', async () => {
      expectStatus(await t.request(P, { token: null }), 403, 'Forbidden', `forbidden: User "system:anonymous" cannot get path "${P}"`);
      expect(t.authorizer.calls[0].info).toMatchObject({ isResourceRequest: false, path: P, verb: 'get' });
    });
  });

  describe('errors', () => {
    it.each([
      ['GET', `${P}/bogus`, 404, 'NotFound'],
      ['GET', '/nothing/here', 404, 'NotFound'],
      ['GET', `/apis/other.group/v1/namespaces/a/things`, 404, 'NotFound'],
      ['GET', `${P}/namespaces/a/databaseengines`, 404, 'NotFound'],
      ['GET', `${P}/databaseinstances/foo`, 404, 'NotFound'],
      ['GET', `${NS}/databaseinstances/foo/connection`, 404, 'NotFound'],
      ['POST', `${P}/databaseinstances`, 405, 'MethodNotAllowed'],
      ['DELETE', `${P}/databaseinstances`, 405, 'MethodNotAllowed'],
      ['PUT', `${NS}/databaseinstances/foo/status`, 405, 'MethodNotAllowed'],
      ['PATCH', `${NS}/databaseinstances/foo/status`, 405, 'MethodNotAllowed'],
      ['PUT', `${NS}/databaseinstances/foo/connection`, 405, 'MethodNotAllowed'],
      ['DELETE', `${NS}/databaseinstances/foo`, 404, 'NotFound'],
      ['DELETE', `${P}/databaseengines/mariadb`, 405, 'MethodNotAllowed'],
      ['GET', `${P}/watch/databaseengines`, 405, 'MethodNotAllowed'],
      ['POST', '/apis', 405, 'MethodNotAllowed'],
    ])('%s %s ⇒ %d %s', async (method, p, code, reason) => {
      expectStatus(await t.request(p, { method }), code, reason);
    });

    it('answers resource requests with 503 + Retry-After while the cache is not synced, discovery still 200', async () => {
      t.store.synced = false;
      try {
        const res = await t.request(`${NS}/databaseinstances`);
        expectStatus(res, 503, 'ServiceUnavailable');
        expect(res.headers['retry-after']).toBe('1');
        expect((await t.request(P)).status).toBe(200);
      } finally {
        t.store.synced = true;
      }
    });

    it('names the verb and resource in 405s', async () => {
      expectStatus(
        await t.request(`${P}/databaseengines/mariadb`, { method: 'DELETE' }),
        405,
        'MethodNotAllowed',
        'delete is not supported on resources of kind "databaseengines.dbaas.platform.dev"',
      );
    });

    it('answers bodies over 3 MiB with 413', async () => {
      const body = 'x'.repeat(3 * 1024 * 1024 + 1);
      expectStatus(await t.request(`${NS}/databaseinstances`, { method: 'POST', body, headers: { 'content-type': 'application/json' } }), 413, 'RequestEntityTooLarge');
    });

    it('turns an unexpected exception into a 500 Status, logged once, and keeps serving', async () => {
      const spy = jest.spyOn(t.store, 'get').mockImplementation(() => {
        throw new Error('boom');
      });
      const before = t.logger.entries.filter(e => e.level === 'error').length;
      const body = expectStatus(await t.request(`${NS}/databaseinstances/x`), 500, 'InternalError');
      expect(body.message).toBe('Internal error occurred: boom');
      expect(t.logger.entries.filter(e => e.level === 'error').length).toBe(before + 1);
      spy.mockRestore();
      expect((await t.request('/livez')).status).toBe(200);
    });
  });

  describe('health and metrics', () => {
    it('fails /readyz until ready, with verbose lines', async () => {
      t.readiness.ready = false;
      t.readiness.checks = [{ name: 'informers-synced', ok: false, message: 'mariadb informer not synced' }];
      const res = await t.request('/readyz?verbose', { token: null });
      expect(res.status).toBe(500);
      expect(res.body).toContain('[-]informers-synced failed: reason withheld\n');
      expect(res.body.trimEnd().split('\n').pop()).toBe('readyz check failed');
      expect((await t.request('/livez', { token: null })).status).toBe(200);
      expect((await t.request('/readyz?exclude=informers-synced', { token: null })).status).toBe(200);

      t.readiness.ready = true;
      t.readiness.checks = [{ name: 'informers-synced', ok: true }];
      const ok = await t.request('/readyz?verbose', { token: null });
      expect(ok.status).toBe(200);
      expect(ok.body).toContain('[+]informers-synced ok\n');
      expect(ok.body.trimEnd().split('\n').pop()).toBe('readyz check passed');
    });

    it('serves one check at /readyz/<name> to authorized callers', async () => {
      expect((await t.request('/readyz/ping')).body).toBe('ok');
      expectStatus(await t.request('/readyz/nope'), 404, 'NotFound');
    });

    it('exposes request counts by verb/resource/code', async () => {
      await t.request(`${NS}/databaseinstances/missing`);
      const res = await t.request('/metrics');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).toMatch(/databases_apiserver_request_total\{verb="get",resource="databaseinstances",subresource="",code="404"\} [1-9]/);
      expect(res.body).toContain('databases_apiserver_request_duration_seconds_bucket');
      expect(res.body).toContain('databases_apiserver_store_instances');
      expect(res.body).toContain('databases_apiserver_watchers');
    });
  });
});

describe('createApp without writes (read-only)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ writes: undefined });
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    ['POST', `${NS}/databaseinstances`],
    ['PUT', `${NS}/databaseinstances/foo`],
    ['PATCH', `${NS}/databaseinstances/foo`],
    ['DELETE', `${NS}/databaseinstances/foo`],
    ['DELETE', `${NS}/databaseinstances`],
  ])('%s %s ⇒ 405 MethodNotAllowed', async (method, p) => {
    expectStatus(await t.request(p, { method }), 405, 'MethodNotAllowed');
  });

  it('serves no connection subresource', async () => {
    expectStatus(await t.request(`${NS}/databaseinstances/foo/connection`), 404, 'NotFound');
  });

  it('advertises only the read verbs', async () => {
    const list = (await t.request(P)).json();
    expect(list.resources.map((r: any) => [r.name, r.verbs.join(',')])).toEqual([
      ['databaseinstances', 'get,list,watch'],
      ['databaseinstances/status', 'get'],
      ['databaseengines', 'get,list'],
    ]);
  });
});
