import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { KubeEmulator } from '@internal/kube-emulator';
import { KubeClusterClient } from './KubeClusterClient';

/**
 * kube-apiserver as the backend talks to it (TLS, the service account token): requests share
 * kept-alive connections, and only a request that changes nothing is sent again when the server
 * closes a kept connection under it.
 */
describe('KubeClusterClient keeps its connections', () => {
  let emulator: KubeEmulator; // only for its certificates
  let server: https.Server;
  let client: KubeClusterClient;
  let connections = 0;
  let dropNext = false;
  const seen: string[] = [];

  beforeAll(async () => {
    emulator = await KubeEmulator.start({ operators: false });
    const { serving, clusterCa } = emulator.certs;
    server = https.createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
      if (dropNext) {
        dropNext = false;
        req.socket.destroy(); // as a server closing an idle connection the client just reused
        return;
      }
      seen.push(`${req.method} ${req.url} ${req.headers.authorization} ${req.headers['impersonate-user'] ?? '-'}`);
      req.resume();
      req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ status: { allowed: true } })));
    });
    server.on('secureConnection', () => connections++);
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
    client = new KubeClusterClient(
      {
        name: 'test',
        url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
        caData: clusterCa.certPem,
        skipTLSVerify: false,
        authProvider: 'serviceAccount',
        serviceAccountToken: 'backstage-backend-token',
      },
      5000,
    );
  });

  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise(r => server?.close(r));
    await emulator?.stop();
  });

  const review = () =>
    client.request({ method: 'POST', path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', body: {}, repeatable: true, as: { user: 'alice', groups: [] } });

  it('sends reads, reviews and writes over one connection, each with its own headers', async () => {
    const before = connections;
    seen.length = 0;
    await client.request({ path: '/apis/dbaas.platform.dev/v1alpha1/databaseinstances' });
    await review();
    await client.request({ method: 'POST', path: '/apis/dbaas.platform.dev/v1alpha1/namespaces/a/databaseinstances', body: {}, as: { user: 'bob', groups: [] } });
    await client.request({ path: '/apis/dbaas.platform.dev/v1alpha1/databaseinstances' });
    expect(connections - before).toBe(1);
    expect(seen).toEqual([
      'GET /apis/dbaas.platform.dev/v1alpha1/databaseinstances Bearer backstage-backend-token -',
      'POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews Bearer backstage-backend-token alice',
      'POST /apis/dbaas.platform.dev/v1alpha1/namespaces/a/databaseinstances Bearer backstage-backend-token bob',
      'GET /apis/dbaas.platform.dev/v1alpha1/databaseinstances Bearer backstage-backend-token -',
    ]);
  });

  it('sends a repeatable request again when the server closed the kept connection, and not a write', async () => {
    await review(); // a kept connection to reuse
    dropNext = true;
    const before = seen.length;
    await review();
    expect(seen.length - before).toBe(1);

    await review();
    dropNext = true;
    const write = client.request({ method: 'POST', path: '/apis/dbaas.platform.dev/v1alpha1/namespaces/a/databaseinstances', body: {} });
    await expect(write).rejects.toMatchObject({ errorType: 'UNREACHABLE' });
    expect(seen.length - before).toBe(2); // the review above; the write was not sent twice
  });
});
