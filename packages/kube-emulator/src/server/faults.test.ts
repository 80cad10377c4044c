import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AggregationProxy, CustomHandler } from '../api/types';
import { startTestServer, type TestServer } from './__testUtils__/testServer';

const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const WIDGETS = '/apis/example.com/v1/namespaces/default/widgets';

const widgetCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { n: { type: 'integer' } } } } } },
      },
    ],
  },
};

/** How a streamed response ended: `end` (chunked terminator) or `cut` (socket closed mid-stream). */
function openStream(t: TestServer, path: string): Promise<{ lines: string[]; ended: Promise<'end' | 'cut'> }> {
  return new Promise((resolve, reject) => {
    const req = https.request(`${t.handle.url}${path}`, {
      ca: t.certs.ca,
      headers: { Authorization: 'Bearer admin-token' },
    });
    req.on('error', reject);
    req.on('response', (res: IncomingMessage) => {
      const lines: string[] = [];
      res.setEncoding('utf8');
      res.on('data', (c: string) => lines.push(...c.split('\n').filter(Boolean)));
      const ended = new Promise<'end' | 'cut'>(done => {
        res.on('end', () => done('end'));
        res.on('aborted', () => done('cut'));
        res.on('error', () => done('cut'));
      });
      resolve({ lines, ended });
    });
    req.end();
  });
}

describe('fault injection', () => {
  let t: TestServer;
  const reviews: CustomHandler = {
    handles: info => info.apiGroup === 'authentication.k8s.io' && info.resource === 'tokenreviews',
    async handle(_req, res: ServerResponse) {
      res.writeHead(201, { 'Content-Type': 'application/json' });
      res.end('{"kind":"TokenReview","status":{"authenticated":true}}');
    },
  };
  const aggregation: AggregationProxy = {
    handles: info => info.path.startsWith('/apis/dbaas.platform.dev/'),
    async proxy(_req, res) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"proxied":true}');
    },
    groups: () => [{ name: 'dbaas.platform.dev', versions: ['v1alpha1'], preferredVersion: 'v1alpha1' }],
  };

  beforeAll(async () => {
    t = await startTestServer({ customHandlers: [reviews], aggregation, bookmarkIntervalMs: 60_000 });
    const crd = await t.request('POST', CRD_PATH, { body: widgetCrd });
    if (crd.status !== 201) throw new Error(`CRD not created: ${crd.text}`);
  });
  afterAll(() => t.handle.close());

  it('scope storage: the store answers 503 + Retry-After, reviews, discovery and the aggregation proxy keep working', async () => {
    t.handle.setFault('unavailable', { scope: 'storage' });
    try {
      const list = await t.request('GET', WIDGETS);
      expect([list.status, list.json.reason, list.headers['retry-after']]).toEqual([503, 'ServiceUnavailable', '1']);
      expect((await t.request('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { body: {} })).status).toBe(201);
      expect((await t.request('GET', '/apis/example.com/v1')).status).toBe(200);
      expect((await t.request('GET', '/apis/dbaas.platform.dev/v1alpha1/databaseinstances')).json).toEqual({ proxied: true });
    } finally {
      t.handle.setFault('none');
    }
    expect((await t.request('GET', WIDGETS)).status).toBe(200);
  });

  it('cuts open watches when an outage starts (no chunked end), and answers again when it is over', async () => {
    const watch = await openStream(t, `${WIDGETS}?watch=true`);
    t.handle.setFault('unavailable', { scope: 'storage' });
    try {
      await expect(watch.ended).resolves.toBe('cut');
    } finally {
      t.handle.setFault('none');
    }
    const again = await openStream(t, `${WIDGETS}?watch=true&timeoutSeconds=1`);
    await expect(again.ended).resolves.toBe('end');
  });

  it('hang: requests get no answer until the fault is lifted; slow: they are answered late', async () => {
    t.handle.setFault('hang', { scope: 'storage' });
    let settled = false;
    const pending = t.request('GET', WIDGETS).then(
      r => r.status,
      () => 'reset',
    );
    void pending.finally(() => {
      settled = true;
    });
    await new Promise(r => setTimeout(r, 300));
    expect(settled).toBe(false);
    t.handle.setFault('slow', { scope: 'storage', delayMs: 400 });
    await expect(pending).resolves.toBe('reset'); // lifting a hang drops what it held
    const started = Date.now();
    expect((await t.request('GET', WIDGETS)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(380);
    t.handle.setFault('none');
  });

  it('compaction: a watch resumed from before it gets a 410 ERROR event; endWatches ends streams cleanly without a bookmark', async () => {
    const before = t.store.currentRV();
    await t.request('POST', WIDGETS, { body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' } } });
    const open = await openStream(t, `${WIDGETS}?watch=true&allowWatchBookmarks=true&resourceVersion=${t.store.currentRV()}`);
    t.store.compact();
    t.handle.endWatches();
    await expect(open.ended).resolves.toBe('end');
    expect(open.lines).toEqual([]);
    const resumed = await t.watch(`${WIDGETS}?watch=true&resourceVersion=${before}`, ev => ev.length > 0);
    expect(resumed.events[0]).toMatchObject({ type: 'ERROR', object: { code: 410, reason: 'Expired' } });
  });

  it('a resourceVersion jump: the next change carries an RV far ahead, watches go on', async () => {
    const from = t.store.currentRV();
    t.store.advanceResourceVersion(1_000_000);
    const created = await t.request('POST', WIDGETS, { body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w2' } } });
    expect(Number(created.json.metadata.resourceVersion)).toBe(from + 1_000_001);
    const res = await t.watch(`${WIDGETS}?watch=true&resourceVersion=${from}`, ev => ev.length > 0);
    expect(res.events.map(e => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED w2']);
  });
});
