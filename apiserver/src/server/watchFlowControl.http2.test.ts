import http2 from 'node:http2';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { makeInstance } from './__testutils__/fixtures';
import { startTestServer, type TestServer } from './__testutils__/testServer';

const WATCH = '/apis/dbaas.platform.dev/v1alpha1/namespaces/team-a/databaseinstances?watch=true';
/** ~40 KiB per event: 800 of them are 32 MiB, more than a watch may keep unread (8 MiB). */
const big = (name: string) => {
  const i = makeInstance({ name, phase: 'Ready' });
  return { ...i, metadata: { ...i.metadata, annotations: { pad: 'x'.repeat(40_000) } } };
};

/**
 * A watch that stops reading, as one stream of an HTTP/2 connection it shares with a watch that
 * reads (as the aggregator multiplexes proxied watches): the client windows are Go's transport's,
 * so the stuck stream holds at most its 4 MiB stream window of the connection's 1 GiB, and the
 * rest queues in the apiserver, which must cut that stream alone.
 */
describe('watch flow control over HTTP/2', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });

  it('cuts off a stream that keeps too much unread; the other stream of the connection keeps flowing', async () => {
    const session = http2.connect(`https://127.0.0.1:${t.port}`, { ca: t.ca, settings: { initialWindowSize: 4 << 20 } });
    session.on('error', () => {});
    await new Promise<void>(r => session.once('connect', () => r()));
    session.setLocalWindowSize(1 << 30);
    try {
      const rv = t.store.resourceVersion();
      const open = (path: string) => session.request({ ':path': path, authorization: 'Bearer admin' });
      const stuck = open(`${WATCH}&resourceVersion=${rv}`);
      stuck.pause();
      let stuckEnded = false;
      stuck.on('close', () => (stuckEnded = true));
      stuck.on('error', () => {});

      const reader = open(`${WATCH}&resourceVersion=${rv}`);
      let text = '';
      reader.setEncoding('utf8');
      reader.on('data', (d: string) => (text += d));
      const seen = (name: string) => text.includes(`"name":"${name}"`);
      const until = async (cond: () => boolean, ms: number) => {
        for (const deadline = Date.now() + ms; !cond() && Date.now() < deadline; ) await new Promise(r => setTimeout(r, 20));
        return cond();
      };
      await Promise.all([new Promise(r => stuck.once('response', r)), new Promise(r => reader.once('response', r))]);

      for (let i = 0; i < 800; i++) {
        t.store.upsert(big(`e${i}`));
        // paced by the reader, so what piles up is the stuck stream's alone
        if (i % 50 === 49) await until(() => seen(`e${i}`), 5000);
      }
      expect(seen('e799')).toBe(true);
      // past the grace a stuck watch is given, then one more change
      await new Promise(r => setTimeout(r, 6000));
      t.store.upsert(big('after'));
      expect(await until(() => seen('after'), 5000)).toBe(true);
      // what the stuck stream got before the cut, then its end (the apiserver reset it)
      let stuckText = '';
      stuck.setEncoding('utf8');
      stuck.on('data', (d: string) => (stuckText += d));
      stuck.resume();
      expect(await until(() => stuckEnded, 5000)).toBe(true);
      expect(stuckText.split('\n').filter(l => l.includes('"ADDED"')).length).toBeLessThan(800);
      expect(t.logger.entries).toContainEqual(expect.objectContaining({ level: 'warn', message: 'Ending watch of a client that does not read' }));
      expect(session.closed || session.destroyed).toBe(false);
      reader.close();
    } finally {
      session.destroy();
    }
  }, 40_000);
});
