import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { AggregationProxy } from '../api/types';
import { startTestServer, type TestServer } from '../server/__testUtils__/testServer';
import { Msg } from './__testUtils__/decodeProto';
import { anyToJson, schemaToJson } from './__testUtils__/schemaToJson';

const PB = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
const PB_OLD = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
const GVK = [{ group: 'example.dev', version: 'v1', kind: 'Widget' }];

const widget = (description: string) => ({
  type: 'object',
  description: 'A widget.',
  properties: { spec: { type: 'object', properties: { size: { type: 'integer', description } } } },
  'x-kubernetes-group-version-kind': GVK,
});

/** The /openapi/v2 route of createApiServer with an aggregation layer contributing one kind. */
describe('GET /openapi/v2 (createApiServer + OpenApiV2Endpoint)', () => {
  let t: TestServer;
  let spec: { paths: Record<string, unknown>; definitions: Record<string, unknown> } = { paths: {}, definitions: {} };
  const aggregation: AggregationProxy = {
    handles: () => false,
    proxy: async () => {},
    groups: () => [],
    openapiV2Spec: () => spec,
  };

  const get = (headers: Record<string, string>, method = 'GET') =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      https
        .request(`${t.handle.url}/openapi/v2`, {
          method,
          ca: t.certs.ca,
          headers: { Authorization: 'Bearer admin-token', ...headers },
        })
        .on('response', res => {
          const chunks: Buffer[] = [];
          res.on('data', c => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        })
        .on('error', reject)
        .end();
    });

  beforeAll(async () => {
    t = await startTestServer({ aggregation });
  });
  afterAll(async () => {
    await t?.handle.close();
  });

  const useSpec = (description: string) => {
    spec = {
      paths: { '/apis/example.dev/v1/widgets': { get: { operationId: 'listWidget', 'x-kubernetes-action': 'list' } } },
      definitions: { 'dev.example.v1.Widget': widget(description) },
    };
  };

  it('is 404 while no aggregated API contributes paths (as before)', async () => {
    spec = { paths: {}, definitions: {} };
    const res = await get({ Accept: PB_OLD });
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body.toString())).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 });
  });

  it.each([PB_OLD, PB])('answers Accept %s with the gnostic Document kubectl decodes', async accept => {
    useSpec('Size of the widget.');
    const res = await get({ Accept: accept });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(PB);
    expect(res.headers.vary).toBe('Accept');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    const doc = new Msg(res.body);
    expect(doc.str(1)).toBe('2.0');
    expect(doc.msg(2)!.str(1)).toBe('Kubernetes');
    const def = doc.msg(9)!.named(1).get('dev.example.v1.Widget')!;
    expect(schemaToJson(def)).toEqual(widget('Size of the widget.'));
    expect(anyToJson(def.named(31).get('x-kubernetes-group-version-kind')!)).toEqual(GVK);
    const list = doc.msg(8)!.named(2).get('/apis/example.dev/v1/widgets')!.msg(2)!;
    expect(list.str(5)).toBe('listWidget');
  });

  it('answers JSON by default and for application/json, with the same ETag as protobuf (SHA-512 of the JSON)', async () => {
    useSpec('Size of the widget.');
    const json = await get({ Accept: 'application/json' });
    const none = await get({});
    const pb = await get({ Accept: PB });
    expect(json.headers['content-type']).toBe('application/json');
    expect(none.headers['content-type']).toBe('application/json');
    const body = JSON.parse(json.body.toString());
    expect(body.definitions['dev.example.v1.Widget']).toEqual(widget('Size of the widget.'));
    const expected = `"${createHash('sha512').update(json.body).digest('hex').toUpperCase()}"`;
    expect(json.headers.etag).toBe(expected);
    expect(pb.headers.etag).toBe(expected);
  });

  it('answers 304 to a matching If-None-Match and a new ETag once the document changes', async () => {
    useSpec('Size of the widget.');
    const first = await get({ Accept: PB });
    const again = await get({ Accept: PB, 'If-None-Match': first.headers.etag as string });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    useSpec('Size of the widget, in units.');
    const changed = await get({ Accept: PB, 'If-None-Match': first.headers.etag as string });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(first.headers.etag);
    const def = new Msg(changed.body).msg(9)!.named(1).get('dev.example.v1.Widget')!;
    expect(schemaToJson(def)).toEqual(widget('Size of the widget, in units.'));
  });

  it('answers HEAD with headers only', async () => {
    useSpec('Size of the widget.');
    const head = await get({ Accept: PB }, 'HEAD');
    const full = await get({ Accept: PB });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(String(full.body.length));
  });

  it('answers an Accept it cannot serve with a 406 Status', async () => {
    useSpec('Size of the widget.');
    const res = await get({ Accept: 'application/yaml' });
    expect(res.status).toBe(406);
    expect(JSON.parse(res.body.toString())).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'NotAcceptable', code: 406 });
  });

  it('leaves the legacy /swagger-2.0.0.pb-v1 path a 404 Status', async () => {
    const res = await t.request('GET', '/swagger-2.0.0.pb-v1');
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ kind: 'Status', code: 404 });
  });
});
