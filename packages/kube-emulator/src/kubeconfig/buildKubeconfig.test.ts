import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import {
  createCertificates,
  EmulatorCertificateSet,
} from '../certs/createCertificates';
import {
  request,
  startHttpsServer,
  TestServer,
} from '../auth/__testUtils__/servers';
import { EmulatorAuthenticator } from '../auth/EmulatorAuthenticator';
import { kubeconfigYaml, writeKubeconfig } from './buildKubeconfig';

describe('kubeconfig', () => {
  let certs: EmulatorCertificateSet;
  let server: TestServer;
  let dir: string;

  beforeAll(async () => {
    certs = await createCertificates();
    dir = mkdtempSync(path.join(os.tmpdir(), 'kubeconfig-'));
    const authenticator = new EmulatorAuthenticator({
      clientCaPem: certs.clientCa.certPem,
      config: {
        users: [{ name: 'alice', groups: [], tokens: ['t0k'] }],
        serviceAccounts: [],
      },
    });
    server = await startHttpsServer(certs.serving, async (req, res) => {
      res.end(JSON.stringify(await authenticator.authenticate(req)));
    });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads in client-node with a token user, context and namespace', () => {
    const kc = new KubeConfig();
    kc.loadFromString(
      kubeconfigYaml({
        server: server.url,
        caPem: certs.clusterCa.certPem,
        user: { token: 't0k' },
        context: 'demo',
        namespace: 'team-a',
      }),
    );
    expect(kc.getCurrentContext()).toBe('demo');
    expect(kc.getContextObject('demo')?.namespace).toBe('team-a');
    expect(kc.getCurrentCluster()).toMatchObject({
      server: server.url,
      caData: Buffer.from(certs.clusterCa.certPem).toString('base64'),
    });
    expect(kc.getCurrentUser()?.token).toBe('t0k');
  });

  it.each([
    ['a token', () => ({ token: 't0k' }), 'alice'],
    [
      'a client certificate',
      () => ({ certPem: certs.admin.certPem, keyPem: certs.admin.keyPem }),
      'admin',
    ],
  ])(
    'authenticates to the emulator with %s through client-node',
    async (_, user, expected) => {
      const file = path.join(dir, `${expected}.yaml`);
      await writeKubeconfig(file, {
        server: server.url,
        caPem: certs.clusterCa.certPem,
        user: user(),
      });
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const kc = new KubeConfig();
      kc.loadFromString(readFileSync(file, 'utf8'));
      const opts: Record<string, unknown> = {};
      await kc.applyToHTTPSOptions(opts);
      const res = await request(server.url, opts);
      expect(JSON.parse(res.body).username).toBe(expected);
    },
  );
});
