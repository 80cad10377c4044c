import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { toStatusError } from './toStatusError';
import { kubeConfigForServer } from './createKubeConfig';
import { KubeApiWriter } from './KubeApiWriter';
import { SECRETS } from './KubeWriter';

const MARIADBS = { group: 'k8s.mariadb.com', version: 'v1alpha1', plural: 'mariadbs', kind: 'MariaDB' };

describe('KubeApiWriter', () => {
  const seen: Array<{ method: string; url: string; type: string; body: any }> = [];
  let answer: (req: http.IncomingMessage) => { code: number; body?: unknown } | 'hang' = () => ({ code: 200, body: {} });
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', c => (text += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, type: String(req.headers['content-type'] ?? ''), body: text ? JSON.parse(text) : undefined });
      const a = answer(req);
      if (a === 'hang') return;
      res.writeHead(a.code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(a.body ?? {}));
    });
  });
  let url = '';

  beforeAll(async () => {
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise(r => server.close(r));
  });

  it('creates, patches, deletes and gets at the resource paths with the right bodies and content types', async () => {
    const writer = new KubeApiWriter(kubeConfigForServer(url));
    seen.length = 0;
    answer = req =>
      req.method === 'DELETE'
        ? { code: 200, body: { kind: 'Status', status: 'Success' } }
        : { code: 200, body: { kind: 'MariaDB', metadata: { name: 'x', resourceVersion: '9' } } };
    const obj = { apiVersion: 'k8s.mariadb.com/v1alpha1', kind: 'MariaDB', metadata: { name: 'x', namespace: 'team-a' } };
    expect((await writer.create(MARIADBS, obj)).metadata?.resourceVersion).toBe('9');
    await writer.mergePatch(MARIADBS, 'team-a', 'x', { spec: { replicas: 3 }, metadata: { resourceVersion: '8' } });
    expect(await writer.delete(MARIADBS, 'team-a', 'x', { propagationPolicy: 'Background', preconditions: { uid: 'u' } })).toBeUndefined();
    await writer.get(SECRETS, 'team-a', 'x-root');
    expect(seen.map(s => `${s.method} ${s.url} ${s.type}`)).toEqual([
      'POST /apis/k8s.mariadb.com/v1alpha1/namespaces/team-a/mariadbs application/json',
      'PATCH /apis/k8s.mariadb.com/v1alpha1/namespaces/team-a/mariadbs/x application/merge-patch+json',
      'DELETE /apis/k8s.mariadb.com/v1alpha1/namespaces/team-a/mariadbs/x application/json',
      'GET /api/v1/namespaces/team-a/secrets/x-root ',
    ]);
    expect(seen[0].body).toEqual(obj);
    expect(seen[2].body).toEqual({ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background', preconditions: { uid: 'u' } });
  });

  it('resolves get of a missing object as undefined and rejects other errors with their Status', async () => {
    const writer = new KubeApiWriter(kubeConfigForServer(url));
    answer = () => ({ code: 404, body: { kind: 'Status', code: 404, reason: 'NotFound', message: 'secrets "x" not found' } });
    expect(await writer.get(SECRETS, 'team-a', 'x')).toBeUndefined();
    answer = () => ({ code: 409, body: { kind: 'Status', code: 409, reason: 'AlreadyExists', message: 'exists' } });
    const err = await writer.create(SECRETS, { metadata: { name: 'x', namespace: 'team-a' } }).catch(e => e);
    expect(toStatusError(err).status).toMatchObject({ code: 409, reason: 'AlreadyExists' });
  });

  it('fails fast instead of hanging when kube-apiserver does not answer', async () => {
    const writer = new KubeApiWriter(kubeConfigForServer(url), { timeoutMs: 200 });
    answer = () => 'hang';
    const started = Date.now();
    const err = await writer.create(MARIADBS, { metadata: { name: 'x', namespace: 'team-a' } }).catch(e => e);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(toStatusError(err).status).toMatchObject({ code: 503, reason: 'ServiceUnavailable' });
  });

  it('fails fast when nothing listens', async () => {
    const closed = http.createServer();
    await new Promise<void>(r => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise(r => closed.close(r));
    const writer = new KubeApiWriter(kubeConfigForServer(`http://127.0.0.1:${port}`));
    const err = await writer.get(SECRETS, 'team-a', 'x').catch(e => e);
    expect(toStatusError(err).code).toBe(503);
  });
});
