import { describe, expect, it } from '@jest/globals';
import { GROUP_VERSION_PATH, MAX_BODY_BYTES } from './arbitraries';
import { parseRawResponse, type ProbeRequest } from './hostileApiClient';
import { expectStatusFailure } from './hostileExpectations';
import { useHostileHarness } from './__testUtils__/useHostileHarness';

const COLLECTION = `${GROUP_VERSION_PATH}/namespaces/team-a/databaseinstances`;
const ADMIN = 'X-Remote-User: admin\r\nX-Remote-Group: system:masters\r\n';

/** A create body of exactly `bytes` bytes (a valid dry-run document padded with spaces). */
function createBodyOf(bytes: number): string {
  const doc = JSON.stringify({ metadata: { name: 'limit-probe' }, spec: { engine: 'redis', topology: 'standalone' } });
  return doc + ' '.repeat(bytes - Buffer.byteLength(doc));
}

describe('limits: body size, nesting, headers, framing', () => {
  const h = useHostileHarness();

  const send = (probe: ProbeRequest) => h.send('admin', probe);

  it(`takes a body of exactly ${MAX_BODY_BYTES} bytes (3 MiB, as kube-apiserver) and refuses one byte more with 413`, async () => {
    const rvBefore = h.storeRv();
    const at = await send({ method: 'POST', path: `${COLLECTION}?dryRun=All`, headers: { 'content-type': 'application/json' }, body: createBodyOf(MAX_BODY_BYTES) });
    expect(at.status).toBe(201);
    const over: ProbeRequest = { method: 'POST', path: COLLECTION, headers: { 'content-type': 'application/json' }, body: createBodyOf(MAX_BODY_BYTES + 1) };
    const answer = await send(over);
    const status = expectStatusFailure(over, answer, [413]);
    expect(status).toMatchObject({ reason: 'RequestEntityTooLarge', message: `Request entity too large: limit is ${MAX_BODY_BYTES}` });
    expect(h.wroteSince(rvBefore)).toBeUndefined();
    // the rest of the body was read and dropped, not taken for the next request on the connection
    const next = await send({ method: 'GET', path: `${COLLECTION}/orders-db` });
    expect(next.status).toBe(200);
  });

  it('delivers the 413 to a client that is still sending a 20 MiB body', async () => {
    const huge = 20 * 1024 * 1024;
    const head = `POST ${COLLECTION} HTTP/1.1\r\nHost: api\r\n${ADMIN}Content-Type: application/json\r\nContent-Length: ${huge}\r\n\r\n`;
    const raw = await h.client.raw(Buffer.concat([Buffer.from(head), Buffer.alloc(huge, ' ')]), 10_000);
    const answer = parseRawResponse(raw);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ kind: 'Status', code: 413 });
  });

  it('refuses a declared Content-Length over the limit at once, without reading the body', async () => {
    const started = Date.now();
    const raw = await h.client.raw(`POST ${COLLECTION} HTTP/1.1\r\nHost: api\r\n${ADMIN}Content-Type: application/json\r\nContent-Length: ${MAX_BODY_BYTES * 10}\r\n\r\n{"metadata":`);
    const answer = parseRawResponse(raw);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ kind: 'Status', code: 413, reason: 'RequestEntityTooLarge' });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('counts a chunked body as it arrives and stops it at the limit', async () => {
    const chunk = ' '.repeat(1024 * 1024);
    const chunks = Array.from({ length: 4 }, () => `${(chunk.length).toString(16)}\r\n${chunk}\r\n`).join('');
    const raw = await h.client.raw(`POST ${COLLECTION} HTTP/1.1\r\nHost: api\r\n${ADMIN}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunks}0\r\n\r\n`, 10_000);
    const answer = parseRawResponse(raw);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ kind: 'Status', code: 413 });
  });

  it('takes JSON nested 100 deep and refuses 101 with a 400, for creates, patches and DeleteOptions', async () => {
    const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
    // a document at the limit decodes (its unknown field is then dropped with a warning)
    const ok = await send({ method: 'POST', path: `${COLLECTION}?dryRun=All`, headers: { 'content-type': 'application/json' }, body: `{"metadata":{"name":"deep-ok"},"spec":{"engine":"redis"},"x":${nested(99)}}` });
    expect(ok.status).toBe(201);
    for (const probe of [
      { method: 'POST', path: COLLECTION, headers: { 'content-type': 'application/json' }, body: `{"metadata":{"name":"deep"},"spec":{"engine":"redis"},"x":${nested(100)}}` },
      { method: 'PATCH', path: `${COLLECTION}/orders-db`, headers: { 'content-type': 'application/merge-patch+json' }, body: `{"spec":{"resources":${nested(100)}}}` },
      { method: 'PATCH', path: `${COLLECTION}/orders-db`, headers: { 'content-type': 'application/json-patch+json' }, body: `[{"op":"add","path":"/spec/x","value":${nested(100)}}]` },
      { method: 'DELETE', path: `${COLLECTION}/orders-db`, headers: { 'content-type': 'application/json' }, body: `{"preconditions":${nested(100)}}` },
    ] as ProbeRequest[]) {
      const status = expectStatusFailure(probe, await send(probe), [400]);
      expect(status.message).toContain('nested deeper than 100 levels');
    }
  });

  it('refuses a JSON patch whose copies would grow the object past 3 MiB, and one of 10,001 operations', async () => {
    const bomb: ProbeRequest = {
      method: 'PATCH',
      path: `${COLLECTION}/orders-db?dryRun=All`,
      headers: { 'content-type': 'application/json-patch+json' },
      body: JSON.stringify([{ op: 'add', path: '/spec/v', value: ['x'.repeat(1024)] }, ...Array.from({ length: 40 }, () => ({ op: 'copy', from: '/spec/v', path: '/spec/v/-' }))]),
    };
    expect(expectStatusFailure(bomb, await send(bomb), [422]).message).toContain('the copies of this patch add more than 3145728 bytes');
    const many: ProbeRequest = { ...bomb, body: JSON.stringify(Array.from({ length: 10_001 }, () => ({ op: 'test', path: '/kind', value: 'DatabaseInstance' }))) };
    expectStatusFailure(many, await send(many), [413]);
  });

  it('takes a 900 KiB label selector (kube reads 1 MiB of headers) and answers 431 as a Status past 1 MiB', async () => {
    const long = await send({ method: 'GET', path: `${COLLECTION}?labelSelector=a%20in%20(${'b,'.repeat(300_000)}c)` });
    expect(long.status).toBe(200);
    const raw = await h.client.raw(`GET ${COLLECTION} HTTP/1.1\r\nHost: api\r\n${ADMIN}X-Padding: ${'p'.repeat(1_100_000)}\r\n\r\n`, 10_000);
    const answer = parseRawResponse(raw);
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toMatchObject({ kind: 'Status', apiVersion: 'v1', code: 431 });
  });

  it('answers malformed HTTP (bad request line, bad header name, a method Node does not know) with a 400 Status that echoes nothing', async () => {
    for (const raw of [
      `GET /apis\u0001 HTTP/1.1\r\nHost: api\r\n\r\n`,
      `GET /apis HTTP/1.1\r\nHost: api\r\nBad Header: x\r\n\r\n`,
      `FROB /apis HTTP/1.1\r\nHost: api\r\n\r\n`,
      `GET /apis HTTP/9.9\r\nHost: api\r\n\r\n`,
      `GET /<script>alert(1)</script> HTTP/1.1\r\nHost: api\r\nX: \u0000\r\n\r\n`,
    ]) {
      const answer = parseRawResponse(await h.client.raw(raw));
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({ kind: 'Status', apiVersion: 'v1', code: 400, reason: 'BadRequest' });
      expect(answer.body).not.toContain('script');
    }
  });

  it('the one documented 5xx: a resourceVersion the cache has not reached is a 504 Timeout with Retry-After, as in kube-apiserver', async () => {
    const ahead = (BigInt(h.servedRv()) + 1000n).toString();
    const probe = { method: 'GET', path: `${COLLECTION}?resourceVersion=${ahead}` };
    const answer = await h.send('admin', probe);
    expect(answer.status).toBe(504);
    expect(answer.headers['retry-after']).toBe('1');
    expect(JSON.parse(answer.body)).toMatchObject({ kind: 'Status', code: 504, reason: 'Timeout', details: { causes: [{ reason: 'ResourceVersionTooLarge' }] } });
  });

  it('still answers after all of it', async () => {
    const answer = await h.send('anonymous', { method: 'GET', path: '/readyz' });
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: 'ok' });
  });
});
