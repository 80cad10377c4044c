import http2 from 'node:http2';
import https from 'node:https';
import { afterEach, describe, expect, it } from '@jest/globals';
import { makeInstance } from './__testutils__/fixtures';
import { startTestServer, type TestServer } from './__testutils__/testServer';

const LIST = '/apis/dbaas.platform.dev/v1alpha1/namespaces/team-a/databaseinstances';

/**
 * Over HTTP/2 a response has no `destroyed`/`closed` of its own (its stream has): code that asks
 * the response whether the client left never learns it. A client that resets its streams must
 * not keep the server writing, nor hold a slot of the in-flight limit for ever: with a limit of
 * 2 reads, 3 reset requests must leave room for the next one. A watch whose client left before
 * it started must not stay subscribed (over either protocol).
 */
describe('requests whose client leaves early', () => {
  let t: TestServer | undefined;
  let session: http2.ClientHttp2Session | undefined;

  afterEach(async () => {
    session?.destroy();
    await t?.close();
    t = session = undefined;
  });

  async function start() {
    // a watch ahead of the store waits up to kube's 3 s (the test server's 200 ms would let it
    // give up before the client leaves, and the watch tests would prove nothing)
    t = await startTestServer({ maxInFlight: { readOnly: 2, mutating: 1 }, tooLargeWaitMs: 3000 });
    // a list of ~2 MiB: far more than a stream's window, so the server waits for the client
    for (let i = 0; i < 2000; i++) t.store.upsert(makeInstance({ name: `db-${String(i).padStart(4, '0')}` }));
    session = http2.connect(`https://127.0.0.1:${t.port}`, { ca: t.ca });
    session.on('error', () => {});
    return { t, session };
  }

  /** Resolves once `cond` holds, read every 5 ms; the test's own timeout bounds it. */
  const waitUntil = async (cond: () => boolean | Promise<boolean>) => {
    while (!(await cond())) await new Promise(r => setTimeout(r, 5));
  };

  /** kube-apiserver's `apiserver_current_inflight_requests{request_kind="readOnly"}`. */
  const readsInFlight = async (server: TestServer) => {
    const text = await server.app.control.metrics.registry.metrics();
    return Number(/^apiserver_current_inflight_requests\{request_kind="readOnly"\} (\d+)$/m.exec(text)?.[1] ?? NaN);
  };

  /** A list as alice (the limit does not apply to system:masters), uncompressed. */
  const list = (s: http2.ClientHttp2Session) => s.request({ ':path': LIST, authorization: 'Bearer alice' });

  const status = (s: http2.ClientHttp2Session) =>
    new Promise<number>((resolve, reject) => {
      const r = list(s);
      r.on('response', h => resolve(Number(h[':status'])));
      r.on('error', reject);
      r.resume();
      r.end();
    });

  it('frees the slot of a list whose client resets it mid-body', async () => {
    const { session: s } = await start();
    for (let i = 0; i < 3; i++) {
      const r = list(s);
      r.on('error', () => {});
      r.end();
      // the first bytes are in: the server is writing the body and waiting for window
      await new Promise<void>(resolve => r.once('data', () => resolve()));
      r.close(http2.constants.NGHTTP2_CANCEL);
      await new Promise(resolve => r.once('close', resolve));
    }
    expect(await status(s)).toBe(200);
  }, 20_000);

  it('frees the slot of a request whose client resets it while it is being authenticated', async () => {
    const { t: server, session: s } = await start();
    let release!: () => void;
    const held = new Promise<void>(r => (release = r));
    let waiting = 0;
    const authenticate = server.authenticator.authenticate.bind(server.authenticator);
    server.authenticator.authenticate = async req => {
      waiting++;
      await held;
      return authenticate(req);
    };
    // the server's side of each stream, to see it closed before the authentication answers
    const serverClosed: Array<Promise<unknown>> = [];
    const allArrived = new Promise<void>(resolve =>
      server.server.server.on('request', (_req, res) => {
        serverClosed.push(new Promise(r => res.once('close', r)));
        if (serverClosed.length === 3) resolve();
      }),
    );
    const reset = Array.from({ length: 3 }, () => {
      const r = list(s);
      r.on('error', () => {});
      r.end();
      return r;
    });
    await allArrived;
    await waitUntil(() => waiting === 3);
    for (const r of reset) r.close(http2.constants.NGHTTP2_CANCEL);
    await Promise.all(serverClosed);
    release();
    // the three finish their (now pointless) handling and give their slots back
    await waitUntil(async () => (await readsInFlight(server)) === 0);
    expect(await status(s)).toBe(200);
  }, 20_000);

  it.each(['HTTP/2', 'HTTP/1.1'])('ends a watch whose client left while it waited for its resourceVersion (%s)', async protocol => {
    const { t: server, session: s } = await start();
    const before = server.store.watchers_count();
    // a resourceVersion one ahead: the watch waits for the store to reach it
    const next = BigInt(server.store.resourceVersion()) + 1n;
    const path = `${LIST}?watch=true&resourceVersion=${next}`;
    // resolved with a holder: a promise resolved with a promise would wait for it
    const arrived = new Promise<{ left: Promise<unknown> }>(resolve =>
      server.server.server.on('request', req => {
        if (req.url !== path) return;
        // the client's leaving as the server sees it: its HTTP/2 stream, or its HTTP/1.1 socket
        // (the response's own close comes only once the handler answers)
        const stream = (req as { stream?: http2.ServerHttp2Stream }).stream;
        resolve({ left: new Promise(r => (stream ?? req.socket).once('close', r)) });
      }),
    );
    let leave: () => void;
    if (protocol === 'HTTP/2') {
      const w = s.request({ ':path': path, authorization: 'Bearer alice' });
      w.on('error', () => {});
      w.end();
      leave = () => w.close(http2.constants.NGHTTP2_CANCEL);
    } else {
      const w = https.request({ host: '127.0.0.1', port: server.port, ca: server.ca, path, agent: false, headers: { authorization: 'Bearer alice' } });
      w.on('error', () => {});
      w.end();
      leave = () => w.destroy();
    }
    const { left } = await arrived;
    leave();
    await left;
    // the watch waits on the store's changes and reads its resourceVersion after each: once it
    // has read `next`, the rest of the handler (subscribe, or see the client gone) runs next
    let seenNext!: () => void;
    const readPast = new Promise<void>(r => (seenNext = r));
    const resourceVersion = server.store.resourceVersion.bind(server.store);
    server.store.resourceVersion = () => {
      const rv = resourceVersion();
      if (BigInt(rv) >= next) seenNext();
      return rv;
    };
    server.store.upsert(makeInstance({ name: 'arrives' }));
    await readPast;
    await new Promise(r => setImmediate(r));
    expect(server.store.watchers_count()).toBe(before);
    expect(server.logger.entries.filter(e => e.level === 'error')).toEqual([]);
  }, 20_000);
});
