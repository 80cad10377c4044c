import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { makeEngine, makeInstance } from './__testutils__/fixtures';
import { startTestServer, type TestServer } from './__testutils__/testServer';

const P = '/apis/dbaas.platform.dev/v1alpha1';
const A = `${P}/namespaces/team-a`;
const KUBECTL = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

const names = (body: any) => body.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`);

describe('get and list', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ continueTtlMs: 60_000 });
    t.store.upsert(makeInstance({ name: 'x1', labels: { app: 'x' } }));
    t.store.upsert(makeInstance({ name: 'y1', labels: { app: 'y' }, engine: 'redis', phase: 'Degraded' }));
    t.store.upsert(makeInstance({ name: 'plain' }));
    t.store.upsert(makeInstance({ name: 'x2', namespace: 'team-b', labels: { app: 'x' } }));
    t.store.upsert(makeInstance({ name: 'z', namespace: 'team-b' }));
    t.store.engineList = [makeEngine('redis', false), makeEngine('mariadb', true, 3)];
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists an empty namespace as items [] with a string resourceVersion', async () => {
    const res = await t.request(`${P}/namespaces/empty/databaseinstances`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['cache-control']).toBe('no-cache, private');
    expect(res.json()).toEqual({
      apiVersion: 'dbaas.platform.dev/v1alpha1',
      kind: 'DatabaseInstanceList',
      metadata: { resourceVersion: t.store.resourceVersion() },
      items: [],
    });
  });

  it('lists one namespace or all of them, each item with apiVersion, kind and namespace', async () => {
    expect(names((await t.request(`${A}/databaseinstances`)).json())).toEqual(['team-a/plain', 'team-a/x1', 'team-a/y1']);
    const all = (await t.request(`${P}/databaseinstances`)).json();
    expect(names(all)).toEqual(['team-a/plain', 'team-a/x1', 'team-a/y1', 'team-b/x2', 'team-b/z']);
    for (const item of all.items) expect(item).toMatchObject({ apiVersion: 'dbaas.platform.dev/v1alpha1', kind: 'DatabaseInstance' });
  });

  it.each([
    ['labelSelector=app%3Dx', ['team-a/x1', 'team-b/x2']],
    ['labelSelector=app!%3Dx', ['team-a/plain', 'team-a/y1', 'team-b/z']],
    ['labelSelector=app%20in%20(x,y)', ['team-a/x1', 'team-a/y1', 'team-b/x2']],
    ['labelSelector=!app', ['team-a/plain', 'team-b/z']],
    ['labelSelector=app%20notin%20(x)', ['team-a/plain', 'team-a/y1', 'team-b/z']],
    ['fieldSelector=metadata.name%3Dx1', ['team-a/x1']],
    ['fieldSelector=metadata.namespace%3Dteam-b', ['team-b/x2', 'team-b/z']],
    ['fieldSelector=metadata.name!%3Dx1', ['team-a/plain', 'team-a/y1', 'team-b/x2', 'team-b/z']],
    ['fieldSelector=spec.engine%3Dredis', ['team-a/y1']],
    ['fieldSelector=status.phase%3DDegraded', ['team-a/y1']],
    ['foo=bar', ['team-a/plain', 'team-a/x1', 'team-a/y1', 'team-b/x2', 'team-b/z']],
  ])('%s', async (query, expected) => {
    const res = await t.request(`${P}/databaseinstances?${query}`);
    expect(res.status).toBe(200);
    expect(names(res.json())).toEqual(expected);
  });

  it.each([
    ['labelSelector=app%3D%3D%3D', /^unable to parse requirement: /],
    ['fieldSelector=spec.reference%3Dbar', /^"spec.reference" is not a known field selector: only "metadata.name", "metadata.namespace", "spec.engine", "status.phase"$/],
    ['limit=ten', /limit/],
    ['continue=garbage', /^invalid continue token: /],
  ])('%s ⇒ 400', async (query, message) => {
    const res = await t.request(`${P}/databaseinstances?${query}`);
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    expect(res.json().message).toMatch(message);
  });

  it('pages from one snapshot: same RV on every page, later changes invisible', async () => {
    const first = (await t.request(`${P}/databaseinstances?limit=2`)).json();
    expect(first.items).toHaveLength(2);
    expect(first.metadata.continue).toEqual(expect.any(String));
    expect(first.metadata.remainingItemCount).toBe(3);
    const rv = first.metadata.resourceVersion;

    const added = t.store.upsert(makeInstance({ name: 'late', namespace: 'team-b' }));
    const second = (await t.request(`${P}/databaseinstances?limit=2&continue=${encodeURIComponent(first.metadata.continue)}`)).json();
    const third = (await t.request(`${P}/databaseinstances?limit=2&continue=${encodeURIComponent(second.metadata.continue)}`)).json();
    expect([second.metadata.resourceVersion, third.metadata.resourceVersion]).toEqual([rv, rv]);
    expect(third.metadata.continue).toBeUndefined();
    expect([...names(first), ...names(second), ...names(third)]).toEqual([
      'team-a/plain', 'team-a/x1', 'team-a/y1', 'team-b/x2', 'team-b/z',
    ]);
    t.store.remove('team-b', added.metadata.name!);
  });

  it('refuses a resourceVersion together with continue', async () => {
    const first = (await t.request(`${P}/databaseinstances?limit=2`)).json();
    const res = await t.request(`${P}/databaseinstances?limit=2&resourceVersion=5&continue=${encodeURIComponent(first.metadata.continue)}`);
    expect(res.status).toBe(400);
    expect(res.json().message).toBe('specifying resource version is not allowed when using continue');
  });

  it('expires continue tokens with 410', async () => {
    const short = await startTestServer({ continueTtlMs: 1 });
    try {
      short.store.upsert(makeInstance({ name: 'a' }));
      short.store.upsert(makeInstance({ name: 'b' }));
      const first = (await short.request(`${P}/databaseinstances?limit=1`)).json();
      await new Promise(r => setTimeout(r, 10));
      const res = await short.request(`${P}/databaseinstances?limit=1&continue=${encodeURIComponent(first.metadata.continue)}`);
      expect(res.status).toBe(410);
      expect(res.json()).toMatchObject({
        reason: 'Expired',
        code: 410,
        message: 'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.',
      });
    } finally {
      await short.close();
    }
  });

  it('ignores limit when resourceVersion=0', async () => {
    const body = (await t.request(`${P}/databaseinstances?limit=1&resourceVersion=0`)).json();
    expect(body.items.length).toBe(t.store.list().length);
    expect(body.metadata.continue).toBeUndefined();
  });

  it('serves Exact only for the current RV or a kept page snapshot, other older ones are 410', async () => {
    t.store.bump();
    const current = t.store.resourceVersion();
    expect((await t.request(`${P}/databaseinstances?resourceVersion=${current}&resourceVersionMatch=Exact`)).status).toBe(200);
    t.store.bump();
    const res = await t.request(`${P}/databaseinstances?resourceVersion=${current}&resourceVersionMatch=Exact`);
    expect(res.status).toBe(410);
    expect(res.json().message).toBe('The resourceVersion for the provided list is too old.');
    // a paginated list from an RV means Exact too
    expect((await t.request(`${P}/databaseinstances?resourceVersion=${current}&limit=2`)).status).toBe(410);
    // without limit it means "not older than"
    expect((await t.request(`${P}/databaseinstances?resourceVersion=${current}`)).status).toBe(200);
    // the first page of a paginated list keeps its snapshot, so its RV stays exactly listable
    const page = (await t.request(`${P}/databaseinstances?limit=1`)).json();
    t.store.bump();
    const exact = await t.request(`${P}/databaseinstances?resourceVersion=${page.metadata.resourceVersion}&resourceVersionMatch=Exact`);
    expect(exact.status).toBe(200);
    expect(exact.json().metadata.resourceVersion).toBe(page.metadata.resourceVersion);
  });

  it('waits for a future resourceVersion, then answers 504 with Retry-After', async () => {
    const future = (BigInt(t.store.resourceVersion()) + 1000n).toString();
    const res = await t.request(`${P}/databaseinstances?resourceVersion=${future}`);
    expect(res.status).toBe(504);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json()).toMatchObject({
      reason: 'Timeout',
      details: { causes: [{ reason: 'ResourceVersionTooLarge' }], retryAfterSeconds: 1 },
      message: `Timeout: Too large resource version: ${future}, current: ${t.store.resourceVersion()}`,
    });
  });

  it.each([
    ['resourceVersionMatch=Exact', 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided'],
    ['sendInitialEvents=true', 'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list'],
  ])('%s ⇒ 422', async (query, detail) => {
    const res = await t.request(`${P}/databaseinstances?${query}`);
    expect(res.status).toBe(422);
    expect(res.json().message).toBe(`ListOptions.meta.k8s.io "" is invalid: ${detail}`);
  });

  it('gets one instance and its status subresource, 404 for a missing one', async () => {
    const res = await t.request(`${A}/databaseinstances/x1`);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual(t.store.get('team-a', 'x1'));
    expect((await t.request(`${A}/databaseinstances/x1/status`)).json()).toEqual(t.store.get('team-a', 'x1'));
    const missing = await t.request(`${A}/databaseinstances/nope`);
    expect(missing.status).toBe(404);
    expect(missing.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'databaseinstances.dbaas.platform.dev "nope" not found',
      reason: 'NotFound',
      details: { name: 'nope', group: 'dbaas.platform.dev', kind: 'databaseinstances' },
      code: 404,
    });
  });

  it('lists and gets engines (cluster-scoped)', async () => {
    const list = (await t.request(`${P}/databaseengines`)).json();
    expect(list.kind).toBe('DatabaseEngineList');
    expect(list.items.map((e: any) => e.metadata.name)).toEqual(['mariadb', 'redis']);
    expect((await t.request(`${P}/databaseengines/redis`)).json().status.installed).toBe(false);
    expect((await t.request(`${P}/databaseengines/nope`)).status).toBe(404);
  });

  it('serves YAML when asked', async () => {
    const res = await t.request(`${A}/databaseinstances/x1`, { headers: { accept: 'application/yaml' } });
    expect(res.headers['content-type']).toBe('application/yaml');
    expect(res.body).toContain('kind: DatabaseInstance\n');
  });

  describe('Table and metadata output', () => {
    it('answers kubectl with a Table: columns, cells, PartialObjectMetadata rows', async () => {
      const res = await t.request(`${A}/databaseinstances?limit=500`, { headers: { accept: KUBECTL } });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json;as=Table;v=v1;g=meta.k8s.io');
      const table = res.json();
      expect(table).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: t.store.resourceVersion() } });
      const cols = table.columnDefinitions.map((c: any) => `${c.name}:${c.priority}`);
      expect(cols).toEqual([
        'Name:0', 'Engine:0', 'Version:0', 'Phase:0', 'Ready:0', 'Age:0', 'Topology:1', 'Primary:1', 'Operator:1', 'Endpoint:1', 'Reason:1',
      ]);
      expect(table.columnDefinitions[0].format).toBe('name');
      const y1 = table.rows.find((r: any) => r.cells[0] === 'y1');
      expect(y1.cells.slice(0, 5)).toEqual(['y1', 'redis', '11.4.2', 'Degraded', '1/1']);
      expect(y1.cells[5]).toMatch(/^\d+[dy]/);
      expect(y1.cells[9]).toBe('y1-primary.team-a.svc:3306');
      for (const row of table.rows) expect(row.cells).toHaveLength(cols.length);
      expect(y1.object).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: t.store.get('team-a', 'y1')!.metadata });
    });

    it('returns an empty Table with rows []', async () => {
      const table = (await t.request(`${P}/namespaces/empty/databaseinstances`, { headers: { accept: KUBECTL } })).json();
      expect(table.rows).toEqual([]);
    });

    it.each([
      ['includeObject=Object', (row: any) => expect(row.object.kind).toBe('DatabaseInstance')],
      ['includeObject=None', (row: any) => expect(row.object).toBeUndefined()],
    ])('%s', async (query, check) => {
      const table = (await t.request(`${A}/databaseinstances?${query}`, { headers: { accept: KUBECTL } })).json();
      check(table.rows[0]);
    });

    it('rejects includeObject=Bad with a 400', async () => {
      const res = await t.request(`${A}/databaseinstances?includeObject=Bad`, { headers: { accept: KUBECTL } });
      expect(res.status).toBe(400);
    });

    it('answers a single GET with a one-row Table, v1beta1 when asked', async () => {
      const table = (await t.request(`${A}/databaseinstances/x1`, { headers: { accept: 'application/json;as=Table;g=meta.k8s.io;v=v1beta1' } })).json();
      expect(table.apiVersion).toBe('meta.k8s.io/v1beta1');
      expect(table.rows).toHaveLength(1);
    });

    it('prints engines as a Table too', async () => {
      const table = (await t.request(`${P}/databaseengines`, { headers: { accept: KUBECTL } })).json();
      expect(table.columnDefinitions.map((c: any) => c.name).slice(0, 5)).toEqual(['Name', 'Installed', 'Operator', 'Level', 'Instances']);
      expect(table.rows[0].cells.slice(0, 5)).toEqual(['mariadb', true, 'mariadb-operator', 3, 3]);
    });

    it('serves PartialObjectMetadataList and PartialObjectMetadata', async () => {
      const list = (await t.request(`${P}/databaseinstances?limit=500&resourceVersion=0`, {
        headers: { accept: 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json' },
      })).json();
      expect(list.kind).toBe('PartialObjectMetadataList');
      expect(list.items[0]).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: t.store.list()[0].metadata });
      const one = (await t.request(`${A}/databaseinstances/x1`, { headers: { accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' } })).json();
      expect(one).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: t.store.get('team-a', 'x1')!.metadata });
    });

    it.each([
      [`${A}/databaseinstances`, 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1'],
      [`${A}/databaseinstances/x1`, 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1'],
      [`${A}/databaseinstances`, 'application/json;as=Table;g=meta.k8s.io;v=v2'],
      [`${A}/databaseinstances`, 'application/vnd.kubernetes.protobuf'],
    ])('%s with %s ⇒ 406', async (p, accept) => {
      const res = await t.request(p, { headers: { accept } });
      expect(res.status).toBe(406);
      expect(res.json()).toMatchObject({ kind: 'Status', reason: 'NotAcceptable', code: 406 });
    });

    it('falls back to JSON for protobuf-first Accept headers', async () => {
      const res = await t.request(`${A}/databaseinstances`, { headers: { accept: 'application/vnd.kubernetes.protobuf,application/json' } });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json');
    });
  });

  // Speed is measured by `yarn bench`, not here: this checks a large list is complete and stable.
  it('lists 10,000 instances across namespaces, identical bytes when nothing changed', async () => {
    const big = await startTestServer();
    try {
      for (let i = 0; i < 10_000; i++) {
        big.store.upsert(makeInstance({ name: `db-${i}`, namespace: `ns-${i % 50}`, labels: { app: `a${i % 7}` } }));
      }
      const first = await big.request(`${P}/databaseinstances`);
      const second = await big.request(`${P}/databaseinstances`);
      expect(first.json().items).toHaveLength(10_000);
      expect(new Set(first.json().items.map((o: any) => o.metadata.namespace)).size).toBe(50);
      expect(second.body).toEqual(first.body);

      // compressed for clients that accept gzip (client-go, so kubectl), as kube-apiserver does
      // above 128 KiB; the same bytes once decompressed, for JSON and for kubectl's Table
      for (const accept of ['application/json', KUBECTL]) {
        const plain = await big.request(`${P}/databaseinstances`, { headers: { accept } });
        let zipped = await big.request(`${P}/databaseinstances`, { headers: { accept, 'accept-encoding': 'gzip' } });
        // a Table with most of its blocks not compressed yet goes out uncompressed while they are
        for (let i = 0; accept === KUBECTL && !zipped.headers['content-encoding'] && i < 20; i++) {
          await new Promise(r => setTimeout(r, 100));
          zipped = await big.request(`${P}/databaseinstances`, { headers: { accept, 'accept-encoding': 'gzip' } });
        }
        expect(plain.headers['content-encoding']).toBeUndefined();
        expect(zipped.headers).toMatchObject({ 'content-encoding': 'gzip', vary: 'Accept-Encoding', 'content-type': plain.headers['content-type'] });
        expect(Number(zipped.headers['content-length'])).toBe(zipped.raw.length);
        expect(zipped.raw.length).toBeLessThan(plain.raw.length / 5);
        expect(gunzipSync(zipped.raw).equals(plain.raw)).toBe(true);
      }
      // after a change (the cached bodies are the old array's) both encodings show it
      big.store.upsert(makeInstance({ name: 'db-5', namespace: 'ns-5', labels: { app: 'changed' } }));
      for (const accept of ['application/json', KUBECTL]) {
        const after = await big.request(`${P}/databaseinstances`, { headers: { accept, 'accept-encoding': 'gzip' } });
        const plain = await big.request(`${P}/databaseinstances`, { headers: { accept } });
        expect(gunzipSync(after.raw).equals(plain.raw)).toBe(true);
        expect(plain.body).toContain('"app":"changed"');
        expect(plain.body).not.toEqual(first.body);
      }
      // small lists and refused gzip stay uncompressed
      const small = await big.request(`${P}/namespaces/ns-1/databaseinstances`, { headers: { 'accept-encoding': 'gzip' } });
      expect(small.headers['content-encoding']).toBeUndefined();
      const refused = await big.request(`${P}/databaseinstances`, { headers: { 'accept-encoding': 'gzip;q=0, br' } });
      expect(refused.headers['content-encoding']).toBeUndefined();
    } finally {
      await big.close();
    }
  });

  it("keeps a Table gzipped when a minute moves some rows' ages", async () => {
    // kubectl's ages step by the minute below 8 h (`3h5m`): every minute some rows of a large
    // Table change at once. Only Date is faked: the server's own timers run as usual.
    // later than anything the other tests did (the server's list caches are module-wide)
    const t0 = Math.ceil(Date.now() / 60_000) * 60_000 + 3_600_000 + 500;
    jest.useFakeTimers({
      now: t0,
      doNotFake: ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
    });
    const big = await startTestServer();
    try {
      for (let i = 0; i < 10_000; i++) {
        // young rows created 3 h and some minutes ago, at the same second: their ages move together
        const young = i % 499 === 3; // 21 rows, in 21 namespaces: spread over the Table
        const created = young ? new Date(t0 - 3 * 3_600_000 - (i % 50) * 60_000).toISOString() : new Date(t0 - 40 * 86_400_000).toISOString();
        big.store.upsert(makeInstance({ name: `db-${i}`, namespace: `ns-${i % 50}`, created }));
      }
      const get = (encoding?: string) =>
        big.request(`${P}/databaseinstances?includeObject=Object`, { headers: { accept: KUBECTL, ...(encoding ? { 'accept-encoding': encoding } : {}) } });
      // the first Table goes out uncompressed while its blocks are compressed in the background;
      // a Table is built once a second
      let zipped = await get('gzip');
      for (let i = 1; !zipped.headers['content-encoding'] && i < 20; i++) {
        await new Promise(r => setTimeout(r, 100));
        jest.setSystemTime(t0 + i * 1000);
        zipped = await get('gzip');
      }
      expect(zipped.headers['content-encoding']).toBe('gzip');
      const before = (await get()).json();

      jest.setSystemTime(t0 + 60_000);
      const moved = await get('gzip');
      const plain = await get();
      expect(moved.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(moved.raw).equals(plain.raw)).toBe(true);
      const ages = (table: any) => table.rows.map((r: any) => r.cells[table.columnDefinitions.findIndex((c: any) => c.name === 'Age')]);
      const changed = ages(plain.json()).filter((a: string, i: number) => a !== ages(before)[i]);
      expect(changed).toHaveLength(21);
    } finally {
      await big.close();
      jest.useRealTimers();
    }
  });
});
