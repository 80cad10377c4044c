import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestServer, type TestServer } from './__testutils__/testServer';

const GV = '/apis/dbaas.platform.dev/v1alpha1';

/** Sends raw bytes over TLS and returns the status line's code and the body. */
function raw(server: TestServer, request: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port: server.port, ca: server.ca, servername: 'localhost' });
    let text = '';
    socket.on('secureConnect', () => socket.write(request));
    socket.on('data', d => (text += d));
    socket.on('end', () => resolve({ status: Number(text.slice(9, 12)), body: text.slice(text.indexOf('\r\n\r\n') + 4) }));
    socket.on('error', reject);
  });
}

describe('routing under hostile input (cases found by test/src/reliability)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(async () => {
    await server.close();
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('a resource or subresource named %s is a 404 Status, not an Object member', async name => {
    for (const path of [`${GV}/${name}`, `${GV}/namespaces/a/${name}`, `${GV}/namespaces/a/databaseinstances/x/${name}`]) {
      const res = await server.request(path);
      expect(res.status).toBe(404);
      expect(res.json()).toMatchObject({ kind: 'Status', code: 404 });
    }
  });

  it('POST to an object and PUT or PATCH to a collection are 405, as kube-apiserver routes them', async () => {
    const body = JSON.stringify({ metadata: { name: 'other' }, spec: { engine: 'redis' } });
    for (const [method, path] of [
      ['POST', `${GV}/namespaces/a/databaseinstances/x`],
      ['PUT', `${GV}/namespaces/a/databaseinstances`],
      ['PATCH', `${GV}/namespaces/a/databaseinstances`],
    ]) {
      const res = await server.request(path, { method, body, headers: { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' } });
      expect(res.status).toBe(405);
      expect(res.json()).toMatchObject({ kind: 'Status', code: 405, reason: 'MethodNotAllowed' });
    }
    expect(server.writer.writes()).toEqual([]);
  });

  it('a request Node cannot parse is a 400 Status that echoes nothing back', async () => {
    const res = await raw(server, `GET ${GV}/<script> HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n`);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ kind: 'Status', apiVersion: 'v1', code: 400, reason: 'BadRequest' });
    expect(res.body).not.toContain('script');
  });
});
