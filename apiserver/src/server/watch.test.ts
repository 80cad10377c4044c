import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { makeInstance } from './__testutils__/fixtures';
import { startTestServer, type TestServer } from './__testutils__/testServer';

const P = '/apis/dbaas.platform.dev/v1alpha1';
const A = `${P}/namespaces/team-a`;

describe('watch', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ bookmarkIntervalMs: 300 });
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => {
    for (const o of t.store.list()) t.store.remove(o.metadata.namespace!, o.metadata.name!);
  });

  it('flushes headers at once and streams ADDED, MODIFIED, DELETED with increasing RVs from the list RV', async () => {
    const listRv = (await t.request(`${A}/databaseinstances`)).json().metadata.resourceVersion;
    const started = Date.now();
    const w = await t.watch(`${A}/databaseinstances?watch=true&resourceVersion=${listRv}`);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(w.status).toBe(200);
    expect(w.headers['content-type']).toBe('application/json');
    expect(w.headers['transfer-encoding']).toBe('chunked');

    t.store.upsert(makeInstance({ name: 'foo' }));
    t.store.upsert(makeInstance({ name: 'foo', phase: 'Updating' }));
    t.store.upsert(makeInstance({ name: 'other', namespace: 'team-b' }));
    t.store.remove('team-a', 'foo');
    const events = [await w.next(), await w.next(), await w.next()];
    expect(events.map(e => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    for (const e of events) expect(e.object).toMatchObject({ apiVersion: 'dbaas.platform.dev/v1alpha1', kind: 'DatabaseInstance' });
    const rvs = events.map(e => BigInt(e.object.metadata.resourceVersion));
    expect(rvs[0] < rvs[1] && rvs[1] < rvs[2]).toBe(true);
    expect(events[1].object.status.phase).toBe('Updating');
    w.close();
  });

  it.each(['', '&resourceVersion=0'])('sends synthetic ADDED for the current state (watch=true%s), then live events', async rv => {
    t.store.upsert(makeInstance({ name: 'a' }));
    t.store.upsert(makeInstance({ name: 'b' }));
    t.store.upsert(makeInstance({ name: 'c' }));
    const w = await t.watch(`${A}/databaseinstances?watch=true${rv}`);
    const initial = [await w.next(), await w.next(), await w.next()];
    expect(initial.map(e => `${e.type}:${e.object.metadata.name}`).sort()).toEqual(['ADDED:a', 'ADDED:b', 'ADDED:c']);
    t.store.upsert(makeInstance({ name: 'd' }));
    expect(await w.next()).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'd' } } });
    w.close();
  });

  it('resumes exactly after a given RV from history (no gap, no duplicates)', async () => {
    t.store.upsert(makeInstance({ name: 'a' }));
    const from = t.store.resourceVersion();
    t.store.upsert(makeInstance({ name: 'b' }));
    t.store.upsert(makeInstance({ name: 'a', phase: 'Failed' }));
    const w = await t.watch(`${A}/databaseinstances?watch=true&resourceVersion=${from}`);
    expect([await w.next(), await w.next()].map(e => `${e.type}:${e.object.metadata.name}`)).toEqual(['ADDED:b', 'MODIFIED:a']);
    await expect(w.next(300)).rejects.toThrow(/no watch event/);
    w.close();
  });

  it('answers an expired RV with one ERROR 410 event and a clean end', async () => {
    t.store.upsert(makeInstance({ name: 'a' }));
    const old = t.store.resourceVersion();
    t.store.upsert(makeInstance({ name: 'b' }));
    t.store.compact();
    const w = await t.watch(`${A}/databaseinstances?watch=true&resourceVersion=${old}`);
    expect(w.status).toBe(200);
    const ev = await w.next();
    expect(ev).toEqual({
      type: 'ERROR',
      object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: expect.stringMatching(/^too old resource version: /), reason: 'Expired', code: 410 },
    });
    await w.ended;
  });

  it('sends bookmarks only when allowed, periodically and with the latest RV', async () => {
    const withBookmarks = await t.watch(`${A}/databaseinstances?watch=true&resourceVersion=${t.store.resourceVersion()}&allowWatchBookmarks=true`);
    const without = await t.watch(`${A}/databaseinstances?watch=true&resourceVersion=${t.store.resourceVersion()}`);
    t.store.upsert(makeInstance({ name: 'elsewhere', namespace: 'team-b' }));
    const bookmark = await withBookmarks.next(2000);
    expect(bookmark).toEqual({
      type: 'BOOKMARK',
      object: { apiVersion: 'dbaas.platform.dev/v1alpha1', kind: 'DatabaseInstance', metadata: { resourceVersion: t.store.resourceVersion() } },
    });
    await expect(without.next(700)).rejects.toThrow(/no watch event/);
    withBookmarks.close();
    without.close();
  });

  it('ends at timeoutSeconds with a bookmark about 2 s before', async () => {
    const started = Date.now();
    const slow = await startTestServer({ bookmarkIntervalMs: 60_000 });
    try {
      const w = await slow.watch(`${A}/databaseinstances?watch=true&resourceVersion=${slow.store.resourceVersion()}&allowWatchBookmarks=true&timeoutSeconds=3`);
      const bookmark = await w.next(2500);
      expect(bookmark.type).toBe('BOOKMARK');
      await w.ended;
      const took = Date.now() - started;
      expect(took).toBeGreaterThanOrEqual(2900);
      expect(took).toBeLessThan(6000);
    } finally {
      await slow.close();
    }
  });

  it('implements WatchList: initial ADDED, the initial-events-end bookmark at the snapshot RV, then changes', async () => {
    t.store.upsert(makeInstance({ name: 'a' }));
    t.store.upsert(makeInstance({ name: 'b' }));
    t.store.upsert(makeInstance({ name: 'c' }));
    const snapshotRv = t.store.resourceVersion();
    const w = await t.watch(`${A}/databaseinstances?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion=&timeoutSeconds=30`);
    const initial = [await w.next(), await w.next(), await w.next()];
    expect(initial.every(e => e.type === 'ADDED')).toBe(true);
    expect(await w.next()).toEqual({
      type: 'BOOKMARK',
      object: {
        apiVersion: 'dbaas.platform.dev/v1alpha1',
        kind: 'DatabaseInstance',
        metadata: { resourceVersion: snapshotRv, annotations: { 'k8s.io/initial-events-end': 'true' } },
      },
    });
    t.store.remove('team-a', 'b');
    expect(await w.next()).toMatchObject({ type: 'DELETED', object: { metadata: { name: 'b' } } });
    w.close();
  });

  it.each([
    ['sendInitialEvents=true', 'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'],
    ['resourceVersionMatch=NotOlderThan', 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'],
  ])('rejects %s with 422', async (query, detail) => {
    const res = await t.request(`${A}/databaseinstances?watch=true&${query}`);
    expect(res.status).toBe(422);
    expect(res.json().message).toBe(`ListOptions.meta.k8s.io "" is invalid: ${detail}`);
  });

  it('turns label changes into ADDED/DELETED for selector watches (old content, new RV)', async () => {
    t.store.upsert(makeInstance({ name: 'm', labels: { app: 'x' } }));
    const w = await t.watch(`${A}/databaseinstances?watch=true&resourceVersion=${t.store.resourceVersion()}&labelSelector=app%3Dx`);
    const moved = t.store.upsert(makeInstance({ name: 'm', labels: { app: 'y' } }));
    const gone = await w.next();
    expect(gone.type).toBe('DELETED');
    expect(gone.object.metadata.labels).toEqual({ app: 'x' });
    expect(gone.object.metadata.resourceVersion).toBe(moved.metadata.resourceVersion);
    t.store.upsert(makeInstance({ name: 'm', labels: { app: 'x' }, phase: 'Failed' }));
    expect(await w.next()).toMatchObject({ type: 'ADDED', object: { metadata: { labels: { app: 'x' } } } });
    w.close();
  });

  it('watches one object with fieldSelector=metadata.name', async () => {
    const w = await t.watch(`${A}/databaseinstances?watch=true&resourceVersion=${t.store.resourceVersion()}&fieldSelector=metadata.name%3Dfoo`);
    t.store.upsert(makeInstance({ name: 'bar' }));
    t.store.upsert(makeInstance({ name: 'foo' }));
    expect((await w.next()).object.metadata.name).toBe('foo');
    w.close();
  });

  it('releases the subscription when the client disconnects', async () => {
    const settle = async (cond: () => boolean) => {
      const deadline = Date.now() + 1000;
      while (!cond() && Date.now() < deadline) await new Promise(r => setTimeout(r, 20));
    };
    // earlier tests' streams may still be closing
    await settle(() => t.app.control.activeWatches() === 0);
    const before = t.store.watchers_count();
    const w = await t.watch(`${A}/databaseinstances?watch=true`);
    await new Promise(r => setTimeout(r, 50));
    expect(t.store.watchers_count()).toBe(before + 1);
    w.close();
    await settle(() => t.store.watchers_count() === before);
    expect(t.store.watchers_count()).toBe(before);
    expect(t.app.control.activeWatches()).toBe(0);
  });

  it('streams PartialObjectMetadata (bookmarks too) for metadata informers', async () => {
    const accept = 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';
    t.store.upsert(makeInstance({ name: 'p' }));
    const w = await t.watch(`${A}/databaseinstances?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`, { headers: { accept } });
    const added = await w.next();
    expect(added).toEqual({ type: 'ADDED', object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: t.store.get('team-a', 'p')!.metadata } });
    const bookmark = await w.next();
    expect(bookmark.object).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: t.store.resourceVersion(), annotations: { 'k8s.io/initial-events-end': 'true' } },
    });
    w.close();
  });

  it('streams one-row Tables for kubectl get -w, column definitions on the first only', async () => {
    const accept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
    t.store.upsert(makeInstance({ name: 'tab' }));
    const w = await t.watch(`${A}/databaseinstances?watch=true`, { headers: { accept } });
    const first = await w.next();
    t.store.upsert(makeInstance({ name: 'tab', phase: 'Updating' }));
    const second = await w.next();
    expect(first.object.kind).toBe('Table');
    expect(first.object.rows).toHaveLength(1);
    expect(first.object.columnDefinitions.length).toBeGreaterThan(0);
    expect(second.type).toBe('MODIFIED');
    expect(second.object.columnDefinitions).toEqual([]);
    expect(second.object.rows[0].cells[3]).toBe('Updating');
    w.close();
  });

  it('ends open watches cleanly on close()', async () => {
    const own = await startTestServer();
    const w = await own.watch(`${A}/databaseinstances?watch=true`);
    await own.close();
    await w.ended;
    expect(own.app.control.activeWatches()).toBe(0);
  });
});
