import { describe, expect, it } from '@jest/globals';
import type { UserInfo } from '../auth/types';
import { getRequestInfo } from './requestInfo';
import { inFlightKind, isLongRunning, MaxInFlight, tooManyRequests } from './maxInFlight';
import { StatusError } from './StatusError';
import { createMetrics } from '../metrics/createMetrics';

const P = '/apis/dbaas.platform.dev/v1alpha1';
const info = (method: string, url: string) => {
  const [path, query = ''] = url.split('?');
  return getRequestInfo(method, path, new URLSearchParams(query));
};
const alice: UserInfo = { username: 'alice', groups: ['dev', 'system:authenticated'] };
const admin: UserInfo = { username: 'admin', groups: ['system:masters', 'system:authenticated'] };

describe('inFlightKind', () => {
  it.each([
    ['GET', `${P}/namespaces/a/databaseinstances/x`, 'readOnly'],
    ['HEAD', `${P}/namespaces/a/databaseinstances/x`, 'readOnly'],
    ['GET', `${P}/namespaces/a/databaseinstances`, 'readOnly'],
    ['GET', `${P}/databaseinstances`, 'readOnly'],
    ['GET', `${P}/databaseengines/mariadb`, 'readOnly'],
    // an ordinary get in kube's eyes: only attach, exec, proxy, log and portforward are long-running
    ['GET', `${P}/namespaces/a/databaseinstances/x/connection`, 'readOnly'],
    ['GET', `${P}/namespaces/a/databaseinstances/x/status`, 'readOnly'],
    ['POST', `${P}/namespaces/a/databaseinstances`, 'mutating'],
    ['PUT', `${P}/namespaces/a/databaseinstances/x`, 'mutating'],
    ['PATCH', `${P}/namespaces/a/databaseinstances/x`, 'mutating'],
    ['DELETE', `${P}/namespaces/a/databaseinstances/x`, 'mutating'],
    ['DELETE', `${P}/namespaces/a/databaseinstances`, 'mutating'],
    // a verb nothing serves still takes a write slot, as kube counts every verb but get/list/watch
    ['OPTIONS', `${P}/namespaces/a/databaseinstances`, 'mutating'],
    ['GET', `${P}/namespaces/a/databaseinstances?watch=true`, undefined],
    ['GET', `${P}/namespaces/a/databaseinstances?watch=1`, undefined],
    ['GET', `${P}/watch/namespaces/a/databaseinstances`, undefined],
    ['GET', `${P}/namespaces/a/databaseinstances?fieldSelector=metadata.name%3Dx&watch=true`, undefined],
    ['GET', `${P}/namespaces/a/databaseinstances/x/exec`, undefined],
    ['GET', `${P}/namespaces/a/databaseinstances/x/log`, undefined],
    ['GET', `${P}/proxy/namespaces/a/databaseinstances/x`, undefined],
    ['GET', '/healthz', undefined],
    ['GET', '/readyz/informer-sync', undefined],
    ['GET', '/livez', undefined],
    ['GET', P, undefined],
    ['GET', '/apis', undefined],
    ['GET', '/openapi/v3/apis/dbaas.platform.dev/v1alpha1', undefined],
    ['GET', '/version', undefined],
    ['GET', '/metrics', undefined],
    ['POST', '/healthz', undefined],
  ])('%s %s → %s', (method, url, kind) => {
    expect(inFlightKind(info(method, url))).toBe(kind);
  });

  it('treats watch and proxy verbs and the streaming subresources as long-running, nothing else', () => {
    expect(isLongRunning(info('GET', `${P}/watch/databaseinstances`))).toBe(true);
    expect(isLongRunning(info('GET', `${P}/namespaces/a/databaseinstances/x/portforward`))).toBe(true);
    expect(isLongRunning(info('GET', `${P}/namespaces/a/databaseinstances/x/attach`))).toBe(true);
    expect(isLongRunning(info('GET', `${P}/databaseinstances`))).toBe(false);
    expect(isLongRunning(info('POST', `${P}/namespaces/a/databaseinstances`))).toBe(false);
  });
});

describe('MaxInFlight', () => {
  it('admits up to the limit per pool, then refuses until a slot is released', () => {
    const limiter = new MaxInFlight({ readOnly: 2, mutating: 1 });
    const r1 = limiter.tryAcquire('readOnly');
    const r2 = limiter.tryAcquire('readOnly');
    expect(r1 && r2).toBeDefined();
    expect(limiter.tryAcquire('readOnly')).toBeUndefined();
    expect(limiter.inFlight('readOnly')).toBe(2);
    // the pools are separate: full reads leave writes alone
    const w1 = limiter.tryAcquire('mutating');
    expect(w1).toBeDefined();
    expect(limiter.tryAcquire('mutating')).toBeUndefined();
    r1!();
    expect(limiter.inFlight('readOnly')).toBe(1);
    expect(limiter.tryAcquire('readOnly')).toBeDefined();
    expect(limiter.tryAcquire('readOnly')).toBeUndefined();
  });

  it('releases a slot once however often its release is called', () => {
    const limiter = new MaxInFlight({ readOnly: 2, mutating: 1 });
    const r1 = limiter.tryAcquire('readOnly')!;
    limiter.tryAcquire('readOnly');
    r1();
    r1();
    r1();
    expect(limiter.inFlight('readOnly')).toBe(1);
    expect(limiter.tryAcquire('readOnly')).toBeDefined();
    expect(limiter.tryAcquire('readOnly')).toBeUndefined();
  });

  it('does not limit a pool whose limit is 0, and still counts it (the in-flight gauge)', () => {
    const limiter = new MaxInFlight({ readOnly: 0, mutating: 1 });
    const releases = Array.from({ length: 1000 }, () => limiter.tryAcquire('readOnly'));
    expect(releases.every(r => r !== undefined)).toBe(true);
    expect(limiter.inFlight('readOnly')).toBe(1000);
    releases.forEach(r => r!());
    expect(limiter.inFlight('readOnly')).toBe(0);
    limiter.tryAcquire('mutating');
    expect(limiter.tryAcquire('mutating')).toBeUndefined();
  });

  it('admits by request attributes: 429 over the limit, system:masters still served, uncounted requests never refused', () => {
    const limiter = new MaxInFlight({ readOnly: 1, mutating: 1 });
    const get = info('GET', `${P}/namespaces/a/databaseinstances/x`);
    const release = limiter.admit(get, alice);
    let refused: unknown;
    try {
      limiter.admit(get, alice);
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(StatusError);
    expect((refused as StatusError).status).toEqual(tooManyRequests().status);
    expect((refused as StatusError).headers).toEqual({ 'Retry-After': '1' });
    // a super-user is answered over the limit and takes no slot
    limiter.admit(get, admin)();
    expect(limiter.inFlight('readOnly')).toBe(1);
    for (let i = 0; i < 5; i++) {
      limiter.admit(info('GET', `${P}/namespaces/a/databaseinstances?watch=true`), alice);
      limiter.admit(info('GET', P), alice);
    }
    expect(limiter.admit(info('POST', `${P}/namespaces/a/databaseinstances`), alice)).toBeInstanceOf(Function);
    release();
    expect(limiter.admit(get, alice)).toBeInstanceOf(Function);
  });

  it('answers as kube-apiserver: 429 TooManyRequests, Retry-After 1, client-go\'s message', () => {
    const e = tooManyRequests();
    expect(e.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server has received too many requests and has asked us to try again later',
      reason: 'TooManyRequests',
      details: { retryAfterSeconds: 1 },
      code: 429,
    });
    expect(e.headers).toEqual({ 'Retry-After': '1' });
  });
});

describe('apiserver_current_inflight_requests', () => {
  it("reports each pool's requests holding a slot, as kube-apiserver's series", async () => {
    const limiter = new MaxInFlight({ readOnly: 0, mutating: 1 });
    const metrics = createMetrics({ inFlight: kind => limiter.inFlight(kind) });
    limiter.tryAcquire('readOnly');
    limiter.tryAcquire('readOnly');
    const write = limiter.tryAcquire('mutating')!;
    const text = await metrics.registry.metrics();
    expect(text).toContain('apiserver_current_inflight_requests{request_kind="readOnly"} 2');
    expect(text).toContain('apiserver_current_inflight_requests{request_kind="mutating"} 1');
    write();
    expect(await metrics.registry.metrics()).toContain('apiserver_current_inflight_requests{request_kind="mutating"} 0');
  });
});
