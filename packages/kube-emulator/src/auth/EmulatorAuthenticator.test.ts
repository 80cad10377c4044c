import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createCertificates,
  EmulatorCertificateSet,
} from '../certs/createCertificates';
import {
  createCertificateAuthority,
  issueClientCert,
} from '../certs/issueCertificate';
import type { PemKeyPair } from '../certs/types';
import { EmulatorAuthenticator } from './EmulatorAuthenticator';
import { parseAuthConfig } from './parseAuthConfig';
import { request, startHttpsServer, TestServer } from './__testUtils__/servers';

const config = parseAuthConfig(`
users:
  - { name: alice, groups: [team-a], tokens: [alice-token], uid: u-alice }
  - { name: dora, groups: [dbas], certCN: dora-cert }
serviceAccounts:
  - { namespace: dbaas-system, name: apiserver, tokens: [sa-token] }
`);

describe('EmulatorAuthenticator over TLS', () => {
  let certs: EmulatorCertificateSet;
  let server: TestServer;
  let authenticator: EmulatorAuthenticator;
  let foreignCa: PemKeyPair;

  beforeAll(async () => {
    certs = await createCertificates();
    foreignCa = await createCertificateAuthority('someone-else');
    authenticator = new EmulatorAuthenticator({
      clientCaPem: certs.clientCa.certPem,
      config,
    });
    server = await startHttpsServer(certs.serving, async (req, res) => {
      const user = await authenticator.authenticate(req);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(user));
    });
  });
  afterAll(() => server.close());

  const call = (opts: {
    cert?: PemKeyPair;
    token?: string;
    authorization?: string;
  }) =>
    request(server.url, {
      ca: certs.clusterCa.certPem,
      ...(opts.cert ? { cert: opts.cert.certPem, key: opts.cert.keyPem } : {}),
      headers: {
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        ...(opts.authorization ? { authorization: opts.authorization } : {}),
      },
    });

  it('maps a client certificate to user CN and groups O plus system:authenticated', async () => {
    const res = await call({ cert: certs.admin });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({
      username: 'admin',
      groups: ['system:masters', 'system:authenticated'],
    });
  });

  it('keeps organisations with commas as single groups', async () => {
    const res = await call({
      cert: await certs.issueClientCert('eve', ['cn=ops,dc=example', 'devs']),
    });
    expect(JSON.parse(res.body).groups).toEqual([
      'cn=ops,dc=example',
      'devs',
      'system:authenticated',
    ]);
  });

  it('maps a configured certCN to its user and merges groups', async () => {
    const res = await call({
      cert: await certs.issueClientCert('dora-cert', ['extra']),
    });
    expect(JSON.parse(res.body)).toMatchObject({
      username: 'dora',
      groups: ['extra', 'dbas', 'system:authenticated'],
    });
  });

  it('rejects a certificate from another CA with 401', async () => {
    const res = await call({
      cert: await issueClientCert(foreignCa, 'admin', ['system:masters']),
    });
    expect(res.status).toBe(401);
  });

  it('rejects a front-proxy certificate presented as a user certificate', async () => {
    expect((await call({ cert: certs.frontProxyClient })).status).toBe(401);
  });

  it('rejects an expired certificate with 401', async () => {
    const expired = await issueClientCert(certs.clientCa, 'old', [], {
      notBefore: new Date(Date.now() - 2 * 86400_000),
      notAfter: new Date(Date.now() - 86400_000),
    });
    expect((await call({ cert: expired })).status).toBe(401);
  });

  it('rejects a serving certificate (no clientAuth EKU) with 401', async () => {
    const serverOnly = await createCertificates();
    const auth = new EmulatorAuthenticator({
      clientCaPem: serverOnly.clusterCa.certPem,
    });
    const s = await startHttpsServer(certs.serving, async (req, res) => {
      try {
        await auth.authenticate(req);
        res.end('ok');
      } catch (e) {
        res.writeHead((e as { code: number }).code);
        res.end();
      }
    });
    try {
      const res = await request(s.url, {
        ca: certs.clusterCa.certPem,
        cert: serverOnly.serving.certPem,
        key: serverOnly.serving.keyPem,
      });
      expect(res.status).toBe(401);
    } finally {
      await s.close();
    }
  });

  it('lets a valid token authenticate when the certificate is not accepted', async () => {
    const res = await call({
      cert: await issueClientCert(foreignCa, 'x'),
      token: 'alice-token',
    });
    expect(JSON.parse(res.body).username).toBe('alice');
  });

  it('authenticates static user tokens', async () => {
    const res = await call({ token: 'alice-token' });
    expect(JSON.parse(res.body)).toEqual({
      username: 'alice',
      uid: 'u-alice',
      groups: ['team-a', 'system:authenticated'],
    });
  });

  it('authenticates service-account tokens with the service-account groups', async () => {
    const res = await call({ token: 'sa-token' });
    expect(JSON.parse(res.body)).toMatchObject({
      username: 'system:serviceaccount:dbaas-system:apiserver',
      groups: [
        'system:serviceaccounts',
        'system:serviceaccounts:dbaas-system',
        'system:authenticated',
      ],
    });
  });

  it('authenticates minted service-account tokens', async () => {
    const token = authenticator.issueServiceAccountToken(
      'backstage',
      'backend',
    );
    expect(token.split('.')).toHaveLength(3);
    const body = JSON.parse((await call({ token })).body);
    expect(body.username).toBe('system:serviceaccount:backstage:backend');
    expect(body.extra['authentication.kubernetes.io/credential-id'][0]).toMatch(
      /^JTI=/,
    );
  });

  it('rejects a revoked token with 401 and keeps accepting the one that replaced it', async () => {
    const old = authenticator.issueServiceAccountToken('backstage', 'backend');
    const rotated = authenticator.issueServiceAccountToken('backstage', 'backend');
    authenticator.revokeToken(old);
    expect((await call({ token: old })).status).toBe(401);
    expect(JSON.parse((await call({ token: rotated })).body).username).toBe('system:serviceaccount:backstage:backend');
  });

  it('rejects an unknown token with 401', async () => {
    expect((await call({ token: 'nope' })).status).toBe(401);
  });

  it.each([
    ['no credentials', {}],
    ['a non-bearer scheme', { authorization: 'Basic YTpi' }],
  ])('returns null for %s', async (_, opts) => {
    const res = await call(opts);
    expect(res.status).toBe(200);
    expect(res.body).toBe('null');
  });
});
