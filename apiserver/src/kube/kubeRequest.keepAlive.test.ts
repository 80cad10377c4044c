import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { KubeConfig } from '@kubernetes/client-node';
import { createTestCA, createTestLeaf, type TestKeyPair } from '../auth/testCertificates';
import { kubeRequest } from './kubeRequest';

const b64 = (pem: string) => Buffer.from(pem).toString('base64');

/** kube-apiserver as our apiserver talks to it: TLS, client certificates, JSON answers. */
describe('kubeRequest keeps its connections to kube-apiserver', () => {
  let ca: TestKeyPair;
  let clients: TestKeyPair[];
  let server: https.Server;
  let url = '';
  let connections = 0;
  const seen: Array<{ method: string; path: string; cn: string; port: number }> = [];
  let dropNext = false;

  const kubeConfigAs = (client: TestKeyPair) => {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: url, caData: b64(ca.cert) }],
      users: [{ name: 'u', certData: b64(client.cert), keyData: b64(client.key) }],
      contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
      currentContext: 'ctx',
    });
    return kc;
  };

  beforeAll(async () => {
    ca = await createTestCA('test-ca');
    const serving = await createTestLeaf(ca, { subject: 'CN=kube-apiserver', usages: ['serverAuth'], ips: ['127.0.0.1'] });
    clients = [await createTestLeaf(ca, { subject: 'CN=apiserver-a' }), await createTestLeaf(ca, { subject: 'CN=apiserver-b' })];
    server = https.createServer({ cert: serving.cert, key: serving.key, ca: ca.cert, requestCert: true, rejectUnauthorized: true }, (req, res) => {
      if (dropNext) {
        dropNext = false;
        req.socket.destroy(); // as a server closing an idle connection the client just reused
        return;
      }
      const cn = String((req.socket as TLSSocket).getPeerCertificate().subject?.CN);
      seen.push({ method: req.method!, path: req.url!, cn, port: req.socket.remotePort! });
      req.resume();
      req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ status: { allowed: true }, cn })));
    });
    server.on('secureConnection', () => connections++);
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise(r => server.close(r));
  });

  const review = (kc: KubeConfig) =>
    kubeRequest<{ cn: string }>(kc, { method: 'POST', path: '/apis/authorization.k8s.io/v1/subjectaccessreviews', body: {}, repeatable: true });

  it('sends reviews, reads and writes with the same client certificate over one connection', async () => {
    const before = connections;
    const mark = seen.length;
    const kc = kubeConfigAs(clients[0]);
    for (let i = 0; i < 5; i++) expect((await review(kc)).cn).toBe('apiserver-a');
    await kubeRequest(kc, { method: 'GET', path: '/api/v1/namespaces/kube-system/configmaps/x' });
    await kubeRequest(kc, { method: 'POST', path: '/apis/k8s.mariadb.com/v1alpha1/namespaces/a/mariadbs', body: {} });
    // a KubeConfig loaded again with the same material shares the connection
    expect((await review(kubeConfigAs(clients[0]))).cn).toBe('apiserver-a');
    // one connection: a new one, or the one an earlier case left open for this identity
    expect(new Set(seen.slice(mark).map(x => x.port)).size).toBe(1);
    expect(connections - before).toBeLessThanOrEqual(1);
  });

  it('never sends one identity\'s request over another\'s connection', async () => {
    const before = connections;
    const [a, b] = [kubeConfigAs(clients[0]), kubeConfigAs(clients[1])];
    const answers = await Promise.all([review(a), review(b), review(a), review(b)]);
    expect(answers.map(x => x.cn)).toEqual(['apiserver-a', 'apiserver-b', 'apiserver-a', 'apiserver-b']);
    expect(connections - before).toBeGreaterThanOrEqual(1); // b's own connection at least
    expect(seen.slice(-4).map(s => s.cn).sort()).toEqual(['apiserver-a', 'apiserver-a', 'apiserver-b', 'apiserver-b']);
  });

  it('sends a repeatable request again when the server closed the kept connection, and not a write', async () => {
    const kc = kubeConfigAs(clients[0]);
    await review(kc); // a kept connection to reuse
    dropNext = true;
    const before = seen.length;
    expect((await review(kc)).cn).toBe('apiserver-a');
    expect(seen.length - before).toBe(1);

    await review(kc);
    dropNext = true;
    const write = kubeRequest(kc, { method: 'POST', path: '/apis/k8s.mariadb.com/v1alpha1/namespaces/a/mariadbs', body: {} });
    await expect(write).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(seen.length - before).toBe(2); // the review above; the write was not sent twice
  });
});
