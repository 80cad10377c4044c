import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startSystem, type System } from '@internal/e2e';
import { emulatorCluster } from './__testUtils__/emulatorCluster';
import { eventually } from './__testUtils__/eventually';
import { startHungServer, type HungServer } from './__testUtils__/hungServer';
import { startClustersBackend, type ClustersBackend } from './__testUtils__/startClustersBackend';

/**
 * Large on purpose: before issue 20 every list waited twice this for the hung cluster, so an
 * answer within half of it cannot be luck.
 */
const REQUEST_TIMEOUT_MS = 30_000;
const WELL_BEFORE_TIMEOUT_MS = REQUEST_TIMEOUT_MS / 2;
const SINCE = /^cluster (\S+) has not answered since \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ: /;

/** Calls the backend and says how long the answer took. */
async function timed(b: ClustersBackend, user: string, pathname: string) {
  const started = Date.now();
  const res = await b.call(user, pathname);
  return { ...res, ms: Date.now() - started };
}

/**
 * Issue 20, per-cluster isolation: beside two healthy clusters (each an emulator with the
 * aggregated apiserver), one that accepts TCP connections and never answers, and one that
 * starts hanging after its watch listed it. The others' answers never wait for them.
 */
describe('a hung cluster beside healthy ones', () => {
  let east: System;
  let west: System;
  let hung: HungServer;
  let backend: ClustersBackend;

  beforeAll(async () => {
    [east, west] = await Promise.all([startSystem({ seed: true }), startSystem({ seed: true })]);
    east.emulator.operators.settle();
    west.emulator.operators.settle();
    hung = await startHungServer();
    backend = await startClustersBackend({
      clusters: [
        emulatorCluster(east, 'east'),
        emulatorCluster(west, 'west'),
        { ...emulatorCluster(east, 'hung'), url: hung.url },
      ],
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
    });
    await eventually(async () => {
      const { items } = (await backend.call('carol', '/clusters')).body;
      return items.filter((c: any) => c.healthy).length === 2;
    });
  }, 120_000);

  afterAll(async () => {
    west?.emulator.setFault('none');
    await backend?.stop();
    await hung?.close();
    await east?.stop();
    await west?.stop();
  }, 60_000);

  it("answers the list and the entity routes with the healthy clusters' instances and an errors[] entry for the hung one", async () => {
    for (const pathname of ['/instances', '/entities/component/default/orders/instances', '/entity-instances?entityRef=component:default/orders']) {
      const res = await timed(backend, 'carol', pathname);
      expect(res.status).toBe(200);
      expect(new Set(res.body.items.map((i: any) => i.cluster))).toEqual(new Set(['east', 'west']));
      expect(res.body.errors).toEqual([{ cluster: 'hung', errorType: 'TIMEOUT', message: expect.stringMatching(SINCE) }]);
      expect(res.ms).toBeLessThan(WELL_BEFORE_TIMEOUT_MS);
    }
    const clusters = (await backend.call('carol', '/clusters')).body.items;
    expect(clusters.find((c: any) => c.name === 'hung')).toMatchObject({ healthy: false, message: expect.any(String) });
  }, 60_000);

  it('answers a request for the hung cluster alone at once too, without waiting for it', async () => {
    const list = await timed(backend, 'carol', '/instances?cluster=hung');
    expect(list.body).toMatchObject({ items: [], errors: [{ cluster: 'hung', message: expect.stringMatching(SINCE) }] });
    expect(list.ms).toBeLessThan(WELL_BEFORE_TIMEOUT_MS);
  }, 60_000);

  it("does not wait for a cluster whose access reviews hang after its watch listed it, and takes it back when it answers", async () => {
    // west's open watch stays open, every new request to it hangs: alice's first list asks west
    // whether she may list there (a SelfSubjectAccessReview), which never gets an answer
    west.emulator.setFault('hang', { cutConnections: false });
    const first = await timed(backend, 'alice', '/instances');
    expect(first.status).toBe(200);
    expect(first.body.items.length).toBeGreaterThan(0);
    expect(new Set(first.body.items.map((i: any) => `${i.cluster}/${i.instance.metadata.namespace}`))).toEqual(new Set(['east/team-a']));
    expect(first.body.errors.map((e: any) => e.cluster).sort()).toEqual(['hung', 'west']);
    expect(first.body.errors.find((e: any) => e.cluster === 'west').message).toMatch(SINCE);
    expect(first.ms).toBeLessThan(WELL_BEFORE_TIMEOUT_MS);
    // known now: the next answer does not wait for west at all
    const entity = await timed(backend, 'alice', '/entities/component/default/orders/instances');
    expect(entity.body.errors.map((e: any) => e.cluster).sort()).toEqual(['hung', 'west']);
    expect(entity.ms).toBeLessThan(WELL_BEFORE_TIMEOUT_MS);

    west.emulator.setFault('none');
    await eventually(async () => {
      const { body } = await backend.call('alice', '/instances');
      return body.items.some((i: any) => i.cluster === 'west') && !body.errors.some((e: any) => e.cluster === 'west');
    }, 40_000);
  }, 90_000);
});
