import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { makeInstance } from './__testutils__/fixtures';
import { startTestServer, type TestServer } from './__testutils__/testServer';

const WATCH = '/apis/dbaas.platform.dev/v1alpha1/namespaces/team-a/databaseinstances?watch=true';
/** ~40 KiB per event: 300 of them are more than a watch may keep buffered (8 MiB). */
const big = (name: string, phase: 'Ready' | 'Degraded' = 'Ready') => {
  const i = makeInstance({ name, phase });
  return { ...i, metadata: { ...i.metadata, annotations: { pad: 'x'.repeat(40_000) } } };
};

/** A watch whose socket is paused from the start: a client that does not read (yet). */
function pausedWatch(t: TestServer, path: string): Promise<{ res: IncomingMessage; read(): Promise<{ events: any[]; ended: boolean }> }> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      { host: '127.0.0.1', port: t.port, path, ca: t.ca, agent: false, headers: { authorization: 'Bearer admin' } },
      res => {
        res.pause();
        res.socket.pause();
        resolve({
          res,
          // reads until nothing arrives for 1 s or the server ends the response
          read: () =>
            new Promise(done => {
              let text = '';
              let timer: NodeJS.Timeout;
              const finish = (ended: boolean) => {
                clearTimeout(timer);
                res.removeAllListeners('data');
                const lines = text.split('\n').filter(Boolean);
                const events = lines.flatMap(l => {
                  try {
                    return [JSON.parse(l)];
                  } catch {
                    return []; // a line cut by the server's hang-up
                  }
                });
                done({ events, ended });
                req.destroy();
              };
              const idle = () => {
                clearTimeout(timer);
                timer = setTimeout(() => finish(false), 1000);
              };
              res.on('data', d => {
                text += d;
                idle();
              });
              res.once('close', () => finish(true));
              res.once('end', () => finish(true));
              idle();
              res.socket.resume();
              res.resume();
            }),
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('watch flow control', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => {
    for (const o of t.store.list()) t.store.remove(o.metadata.namespace!, o.metadata.name!);
  });

  it('sends a large initial state as the client reads it, however slowly', async () => {
    for (let i = 0; i < 300; i++) t.store.upsert(big(`i${String(i).padStart(3, '0')}`));
    const w = await pausedWatch(t, WATCH);
    // longer than a stuck live watch is given
    await new Promise(r => setTimeout(r, 6000));
    t.store.upsert(big('i000', 'Degraded'));
    const { events, ended } = await w.read();
    expect(ended).toBe(false);
    expect(events.filter(e => e.type === 'ADDED')).toHaveLength(300);
    expect(events[events.length - 1]).toMatchObject({ type: 'MODIFIED', object: { metadata: { name: 'i000' }, status: { phase: 'Degraded' } } });
  }, 30_000);

  it('cuts off a client that keeps too much unread, and only that one', async () => {
    const stuck = await pausedWatch(t, `${WATCH}&resourceVersion=${t.store.resourceVersion()}`);
    const reader = await t.watch(`${WATCH}&resourceVersion=${t.store.resourceVersion()}`);
    // 32 MiB: more than the kernel's socket buffers and the 8 MiB a watch may keep unread
    for (let i = 0; i < 800; i++) {
      t.store.upsert(big(`e${i}`));
      await reader.next();
    }
    await new Promise(r => setTimeout(r, 6000));
    t.store.upsert(big('after'));
    expect(await reader.next()).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'after' } } });
    const { events, ended } = await stuck.read();
    expect(ended).toBe(true);
    expect(events.length).toBeLessThan(800);
    expect(t.logger.entries).toContainEqual(expect.objectContaining({ level: 'warn', message: 'Ending watch of a client that does not read' }));
    reader.close();
  }, 30_000);
});
