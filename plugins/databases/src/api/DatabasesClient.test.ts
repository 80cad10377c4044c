/**
 * @jest-environment node
 */
import { describe, expect, it, jest } from '@jest/globals';
import type { InstanceEvent } from '@internal/plugin-databases-common';
import { DatabasesApiError } from './DatabasesApiError';
import { DatabasesClient, toQueryString } from './DatabasesClient';

const BASE = 'http://backstage.test/api/databases';

function setup(respond: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetchApi = {
    fetch: jest.fn(async (url: any, init: any = {}) => {
      calls.push({ url: String(url), init });
      return respond(String(url), init);
    }),
  };
  const discoveryApi = { getBaseUrl: jest.fn(async () => BASE) };
  const client = new DatabasesClient({ discoveryApi, fetchApi, retryDelayMs: 5 });
  return { client, calls };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

describe('toQueryString', () => {
  it.each([
    [{}, ''],
    [{ phase: 'Ready' }, '?phase=Ready'],
    [{ q: '', owner: undefined, limit: 20 }, '?limit=20'],
    [{ owner: 'group:default/team a' }, '?owner=group%3Adefault%2Fteam+a'],
  ])('%j -> %s', (query, expected) => {
    expect(toQueryString(query)).toBe(expected);
  });
});

describe('DatabasesClient', () => {
  const ref = { cluster: 'c 1', namespace: 'team-a', name: 'orders/db' };

  it.each([
    ['getInstance', (c: DatabasesClient) => c.getInstance(ref), 'GET', '/clusters/c%201/namespaces/team-a/instances/orders%2Fdb'],
    ['getConnection', (c: DatabasesClient) => c.getConnection(ref), 'GET', '/clusters/c%201/namespaces/team-a/instances/orders%2Fdb/connection'],
    ['getHistory', (c: DatabasesClient) => c.getHistory(ref), 'GET', '/clusters/c%201/namespaces/team-a/instances/orders%2Fdb/history'],
    ['listEngines', (c: DatabasesClient) => c.listEngines('dev'), 'GET', '/clusters/dev/engines'],
    ['listInstances', (c: DatabasesClient) => c.listInstances({ phase: 'Ready', sort: '-age' }), 'GET', '/instances?phase=Ready&sort=-age'],
    ['listEntityInstances', (c: DatabasesClient) => c.listEntityInstances('component:default/orders'), 'GET', '/entity-instances?entityRef=component%3Adefault%2Forders'],
    ['updateInstance', (c: DatabasesClient) => c.updateInstance(ref, { replicas: 3 }), 'PATCH', '/clusters/c%201/namespaces/team-a/instances/orders%2Fdb'],
    ['createInstance', (c: DatabasesClient) => c.createInstance('dev', 'team-a', { name: 'x', owner: 'group:default/a', spec: { engine: 'redis' } }), 'POST', '/clusters/dev/namespaces/team-a/instances'],
    ['listBackups', (c: DatabasesClient) => c.listBackups(ref), 'GET', '/clusters/c%201/namespaces/team-a/instances/orders%2Fdb/backups'],
    ['createBackup', (c: DatabasesClient) => c.createBackup(ref, { method: 'volumeSnapshot' }), 'POST', '/clusters/c%201/namespaces/team-a/instances/orders%2Fdb/backups'],
    ['deleteBackup', (c: DatabasesClient) => c.deleteBackup(ref, 'orders-db-20261201020000'), 'DELETE', '/clusters/c%201/namespaces/team-a/instances/orders%2Fdb/backups/orders-db-20261201020000'],
  ])('%s calls %s %s', async (_name, call, method, path) => {
    const { client, calls } = setup(() => json({ ok: true }));
    await expect(call(client)).resolves.toEqual({ ok: true });
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe(`${BASE}${path}`);
    expect(calls[0].init.method).toBe(method);
  });

  it('sends the request body as JSON', async () => {
    const { client, calls } = setup(() => json({}));
    await client.updateInstance(ref, { replicas: 5, dryRun: true });
    expect(JSON.parse(String(calls[0].init.body))).toEqual({ replicas: 5, dryRun: true });
    expect((calls[0].init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('accepts 204 on delete', async () => {
    const { client } = setup(() => new Response(null, { status: 204 }));
    await expect(client.deleteInstance(ref)).resolves.toBeUndefined();
  });

  it('reads clusters from either an array or {items}', async () => {
    const a = setup(() => json([{ name: 'one' }]));
    const b = setup(() => json({ items: [{ name: 'two' }] }));
    expect(await a.client.listClusters()).toEqual([{ name: 'one' }]);
    expect(await b.client.listClusters()).toEqual([{ name: 'two' }]);
  });

  it.each([
    [
      'Backstage error JSON with field errors',
      json(
        {
          error: {
            name: 'InputError',
            message: 'DatabaseInstance "x" is invalid',
            reason: 'Invalid',
            causes: [{ field: 'spec.replicas', message: 'must be odd' }],
          },
          response: { statusCode: 422 },
        },
        422,
      ),
      { statusCode: 422, name: 'InputError', reason: 'Invalid', message: 'DatabaseInstance "x" is invalid', causes: [{ field: 'spec.replicas', message: 'must be odd' }] },
    ],
    [
      'plain text',
      new Response('upstream exploded', { status: 502 }),
      { statusCode: 502, message: 'upstream exploded', causes: [] },
    ],
    [
      'empty body',
      new Response('', { status: 403, statusText: 'Forbidden' }),
      { statusCode: 403, message: 'Request failed with 403 Forbidden', causes: [] },
    ],
  ])('turns %s into a DatabasesApiError', async (_name, response, expected) => {
    const { client } = setup(() => response);
    const error = await client.getInstance(ref).catch(err => err);
    expect(error).toBeInstanceOf(DatabasesApiError);
    expect(error).toMatchObject(expected);
  });

  it('streams events, skips broken ones, and reconnects after the stream ends', async () => {
    const event: InstanceEvent = {
      type: 'MODIFIED',
      cluster: 'dev',
      instance: { apiVersion: 'dbaas.platform.dev/v1alpha1', kind: 'DatabaseInstance', metadata: { name: 'a' }, spec: { engine: 'redis' } },
    };
    let connections = 0;
    const { client, calls } = setup(() => {
      connections += 1;
      const encoder = new TextEncoder();
      const text = `: hello\n\nevent: instance\ndata: {broken\n\nevent: instance\ndata: ${JSON.stringify(event)}\n\nevent: cluster\ndata: {"cluster":"dev","healthy":false}\n\n`;
      const body = new ReadableStream({
        start(controller) {
          // split mid-event to exercise chunked parsing
          controller.enqueue(encoder.encode(text.slice(0, 25)));
          controller.enqueue(encoder.encode(text.slice(25)));
          controller.close();
        },
      });
      return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
    });
    const instances: InstanceEvent[] = [];
    const clusters: unknown[] = [];
    const errors: Error[] = [];
    let opened = 0;
    let reopened = () => {};
    // the stream opened again: its retry timer starts once the first stream's end has been read,
    // after any sleep on a loaded event loop, so it is waited for
    const twice = new Promise<void>(resolve => (reopened = resolve));
    const unsubscribe = client.subscribe({
      onOpen: () => {
        opened += 1;
        if (opened === 2) reopened();
      },
      onInstance: ev => instances.push(ev),
      onCluster: ev => clusters.push(ev),
      onError: err => errors.push(err),
    });
    await twice;
    unsubscribe();
    expect(calls[0].url).toBe(`${BASE}/events`);
    expect(connections).toBeGreaterThanOrEqual(2);
    expect(instances[0]).toEqual(event);
    expect(clusters[0]).toEqual({ cluster: 'dev', healthy: false });
    expect(errors[0].message).toMatch(/ended/);
    expect(opened).toBe(connections);
  });

  it("follows one instance's events: the list, each change, the backend's error, then lists again on a new stream", async () => {
    const item = { name: 'orders-db.1', type: 'Warning', reason: 'BackOff', count: 2, lastTimestamp: '2026-12-01T10:00:00Z' };
    const frames = [
      `event: events\ndata: ${JSON.stringify({ items: [item] })}\n\n`,
      `event: event\ndata: ${JSON.stringify({ type: 'MODIFIED', item: { ...item, count: 3 } })}\n\n`,
      `event: error\ndata: {"message":"the watch ended: 403"}\n\n`,
    ].join('');
    const { client, calls } = setup(() => {
      const body = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(frames));
          controller.close();
        },
      });
      return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
    });
    const lists: unknown[] = [];
    const changes: unknown[] = [];
    const errors: string[] = [];
    let stop = () => {};
    const twice = new Promise<void>(resolve => {
      stop = client.watchInstanceEvents(ref, {
        onList: items => {
          lists.push(items);
          if (lists.length === 2) resolve();
        },
        onChange: change => changes.push(change),
        onError: error => errors.push(error.message),
      });
    });
    await twice;
    stop();
    expect(calls[0].url).toBe(`${BASE}/clusters/c%201/namespaces/team-a/instances/orders%2Fdb/events`);
    expect((calls[0].init.headers as Record<string, string>).Accept).toBe('text/event-stream');
    expect(lists[0]).toEqual([item]);
    expect(changes[0]).toEqual({ type: 'MODIFIED', item: { ...item, count: 3 } });
    expect(errors.slice(0, 2)).toEqual(['the watch ended: 403', 'The event stream ended']);
  });
  it("follows one instance's backups: the list, each change, the backend's error, then lists again on a new stream", async () => {
    const backup = { metadata: { name: 'orders-db-20261201020000', resourceVersion: '5' }, spec: { instanceRef: { name: 'orders/db' } }, status: { phase: 'Running' } };
    const frames = [
      `event: backups\ndata: ${JSON.stringify({ cluster: 'c 1', items: [backup] })}\n\n`,
      `event: backup\ndata: ${JSON.stringify({ type: 'MODIFIED', backup: { ...backup, status: { phase: 'Succeeded' } } })}\n\n`,
      `event: error\ndata: {"message":"the watch ended: 403"}\n\n`,
    ].join('');
    const { client, calls } = setup(
      () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode(frames));
              controller.close();
            },
          }),
          { status: 200, headers: { 'Content-Type': 'text/event-stream' } },
        ),
    );
    const lists: unknown[] = [];
    const changes: unknown[] = [];
    const errors: string[] = [];
    let stop = () => {};
    await new Promise<void>(resolve => {
      stop = client.watchBackups(ref, {
        onList: items => {
          lists.push(items);
          if (lists.length === 2) resolve();
        },
        onChange: change => changes.push(change),
        onError: error => errors.push(error.message),
      });
    });
    stop();
    expect(calls[0].url).toBe(`${BASE}/clusters/c%201/namespaces/team-a/instances/orders%2Fdb/backups`);
    expect((calls[0].init.headers as Record<string, string>).Accept).toBe('text/event-stream');
    expect(lists[0]).toEqual([backup]);
    expect(changes[0]).toEqual({ type: 'MODIFIED', backup: { ...backup, status: { phase: 'Succeeded' } } });
    expect(errors.slice(0, 2)).toEqual(['the watch ended: 403', 'The event stream ended']);
  });
});
