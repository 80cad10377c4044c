import http2 from 'node:http2';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestServer, type TestServer } from './__testutils__/testServer';

const INSTANCES = '/apis/dbaas.platform.dev/v1alpha1/namespaces/team-a/databaseinstances';

/**
 * The request bound over HTTP/2: a create whose body trickles in (slowloris on one stream) is
 * cancelled at `requestMs`, without an answer and without a write, while other streams of the
 * same connection are served meanwhile.
 */
describe('slow requests over HTTP/2', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({}, { timeouts: { requestMs: 1500 } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('cancels a stream whose body is still arriving at the request bound; the connection serves others', async () => {
    const session = http2.connect(`https://127.0.0.1:${t.port}`, { ca: t.ca });
    session.on('error', () => {});
    try {
      const started = Date.now();
      const slow = session.request({ ':method': 'POST', ':path': INSTANCES, authorization: 'Bearer admin', 'content-type': 'application/json' });
      let status: number | undefined;
      slow.on('response', h => (status = Number(h[':status'])));
      slow.on('error', () => {});
      const body = JSON.stringify({ apiVersion: 'dbaas.platform.dev/v1alpha1', kind: 'DatabaseInstance', metadata: { name: 'slow' } });
      let i = 0;
      const trickle = setInterval(() => {
        if (!slow.destroyed && i < body.length) slow.write(body[i++]);
      }, 100);
      const closed = new Promise<number>(resolve => slow.once('close', () => resolve(Date.now() - started)));

      // meanwhile, another stream of the same connection is answered
      const other = await new Promise<number>((resolve, reject) => {
        const r = session.request({ ':path': INSTANCES, authorization: 'Bearer admin' });
        r.on('response', h => resolve(Number(h[':status'])));
        r.on('error', reject);
        r.resume();
        r.end();
      });
      expect(other).toBe(200);

      const after = await closed;
      clearInterval(trickle);
      expect(after).toBeGreaterThanOrEqual(1400);
      expect(after).toBeLessThan(5000);
      expect(slow.rstCode).toBe(http2.constants.NGHTTP2_CANCEL);
      expect(status).toBeUndefined();
      expect(t.store.list().map(o => o.metadata.name)).not.toContain('slow');
      expect(session.destroyed).toBe(false);
    } finally {
      session.destroy();
    }
  }, 20_000);
});
