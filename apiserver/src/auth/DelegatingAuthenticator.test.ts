import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { X509Certificate } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { StatusError } from '../server/StatusError';
import { kubeConfigForServer } from '../kube/createKubeConfig';
import { DelegatingAuthenticator } from './DelegatingAuthenticator';
import { parseRequestHeaderConfig } from './RequestHeaderConfig';
import {
  StaticRequestHeaderConfig,
  type RequestHeaderConfigProvider,
} from './RequestHeaderConfigSource';
import {
  createTestCA,
  createTestLeaf,
  type TestKeyPair,
} from './testCertificates';
import { KubeTokenReviewer } from './TokenReviewer';

const UNAUTHORIZED_STATUS = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'Unauthorized',
  reason: 'Unauthorized',
  code: 401,
};

const configMapData = (
  frontProxyCA: string,
  clientCA: string,
  allowedNames: string[],
) => ({
  'requestheader-client-ca-file': frontProxyCA,
  'requestheader-allowed-names': JSON.stringify(allowedNames),
  'requestheader-username-headers': '["X-Remote-User"]',
  'requestheader-uid-headers': '["X-Remote-Uid"]',
  'requestheader-group-headers': '["X-Remote-Group"]',
  'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
  'client-ca-file': clientCA,
});

describe('DelegatingAuthenticator', () => {
  let frontProxyCA: TestKeyPair;
  let clientCA: TestKeyPair;
  let otherCA: TestKeyPair;
  let certs: Record<string, TestKeyPair>;
  let server: https.Server;
  let port: number;
  let provider: { config: RequestHeaderConfigProvider };
  let tokenServer: http.Server;
  let tokenReviews: unknown[];

  beforeAll(async () => {
    [frontProxyCA, clientCA, otherCA] = await Promise.all([
      createTestCA('front-proxy-ca'),
      createTestCA('client-ca'),
      createTestCA('other-ca'),
    ]);
    const serving = await createTestLeaf(otherCA, {
      subject: 'CN=apiserver',
      usages: ['serverAuth'],
      ips: ['127.0.0.1'],
    });
    certs = {
      proxy: await createTestLeaf(frontProxyCA, {
        subject: 'CN=front-proxy-client',
      }),
      proxyEvil: await createTestLeaf(frontProxyCA, { subject: 'CN=evil' }),
      proxyNoClientAuth: await createTestLeaf(frontProxyCA, {
        subject: 'CN=front-proxy-client',
        usages: ['serverAuth'],
      }),
      proxyExpired: await createTestLeaf(frontProxyCA, {
        subject: 'CN=front-proxy-client',
        expired: true,
      }),
      otherProxy: await createTestLeaf(otherCA, {
        subject: 'CN=front-proxy-client',
      }),
      bob: await createTestLeaf(clientCA, { subject: 'CN=bob, O=team, O=ops' }),
    };
    provider = {
      config: new StaticRequestHeaderConfig(
        parseRequestHeaderConfig(
          configMapData(frontProxyCA.cert, clientCA.cert, [
            'front-proxy-client',
          ]),
        ),
      ),
    };

    tokenReviews = [];
    tokenServer = http.createServer((req, res) => {
      let body = '';
      req.on('data', c => (body += c));
      req.on('end', () => {
        const review = JSON.parse(body);
        tokenReviews.push(review);
        const good = review.spec.token === 'good';
        res.setHeader('Content-Type', 'application/json');
        res.end(
          JSON.stringify({
            ...review,
            status: good
              ? {
                  authenticated: true,
                  user: {
                    username: 'system:serviceaccount:mon:prom',
                    uid: 'u-1',
                    groups: ['system:serviceaccounts', 'system:authenticated'],
                  },
                }
              : { authenticated: false },
          }),
        );
      });
    });
    await new Promise<void>(r => tokenServer.listen(0, '127.0.0.1', r));
    const tokenPort = (tokenServer.address() as AddressInfo).port;

    const authenticator = new DelegatingAuthenticator({
      config: { current: () => provider.config.current() },
      tokenReviewer: new KubeTokenReviewer(
        kubeConfigForServer(`http://127.0.0.1:${tokenPort}`),
        {
          backoff: { steps: 1, initialDelayMs: 1, factor: 1 },
        },
      ),
    });
    server = https.createServer(
      {
        cert: serving.cert,
        key: serving.key,
        requestCert: true,
        rejectUnauthorized: false,
      },
      (req, res) => {
        authenticator.authenticate(req).then(
          user =>
            res.end(
              JSON.stringify({
                user,
                remaining: req.headers['x-remote-user'] ?? null,
              }),
            ),
          err => {
            res.statusCode = err instanceof StatusError ? err.code : 500;
            res.end(
              JSON.stringify(
                err instanceof StatusError
                  ? err.status
                  : { error: String(err) },
              ),
            );
          },
        );
      },
    );
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise(r => server.close(r));
    await new Promise(r => tokenServer.close(r));
  });

  function call(
    cert: string | undefined,
    headers: http.OutgoingHttpHeaders = {},
  ): Promise<{ status: number; body: any }> {
    const pair = cert ? certs[cert] : undefined;
    return new Promise((resolve, reject) => {
      const req = https.request(
        {
          host: '127.0.0.1',
          port,
          path: '/apis',
          headers,
          rejectUnauthorized: false,
          agent: false,
          ...(pair ? { cert: pair.cert, key: pair.key } : {}),
        },
        res => {
          let body = '';
          res.on('data', c => (body += c));
          res.on('end', () =>
            resolve({ status: res.statusCode!, body: JSON.parse(body) }),
          );
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  const fido = {
    'X-Remote-User': 'fido',
    'X-Remote-Uid': '42',
    'X-Remote-Group': ['cn=a,dc=x', 'dogs'],
    'X-Remote-Extra-Acme.com%2Fproject': 'some-project',
    'X-Remote-Extra-Scopes': ['openid', 'profile'],
  };
  const anonymous = {
    username: 'system:anonymous',
    groups: ['system:unauthenticated'],
  };

  it.each([
    {
      name: 'front-proxy cert from the requestheader CA, allowed CN: identity from headers',
      cert: 'proxy',
      headers: fido,
      status: 200,
      user: {
        username: 'fido',
        uid: '42',
        groups: ['cn=a,dc=x', 'dogs', 'system:authenticated'],
        extra: {
          'acme.com/project': ['some-project'],
          scopes: ['openid', 'profile'],
        },
      },
    },
    {
      name: 'front proxy asserting system:authenticated: not added twice',
      cert: 'proxy',
      headers: {
        'X-Remote-User': 'alice',
        'X-Remote-Group': ['dev', 'system:authenticated'],
      },
      status: 200,
      user: { username: 'alice', groups: ['dev', 'system:authenticated'] },
    },
    {
      name: 'kube-aggregator without group header gets system:authenticated',
      cert: 'proxy',
      headers: { 'X-Remote-User': 'system:kube-aggregator' },
      status: 200,
      user: {
        username: 'system:kube-aggregator',
        groups: ['system:authenticated'],
      },
    },
    {
      name: 'requestheader CA but CN not allowed',
      cert: 'proxyEvil',
      headers: fido,
      status: 401,
    },
    {
      name: 'requestheader CA but no clientAuth usage',
      cert: 'proxyNoClientAuth',
      headers: fido,
      status: 401,
    },
    {
      name: 'expired front-proxy cert',
      cert: 'proxyExpired',
      headers: fido,
      status: 401,
    },
    {
      name: 'cert from an unrelated CA with X-Remote-User',
      cert: 'otherProxy',
      headers: { 'X-Remote-User': 'admin', 'X-Remote-Group': 'system:masters' },
      status: 401,
    },
    {
      name: 'no cert, X-Remote-User/Group: refused, never trusted',
      cert: undefined,
      headers: { 'X-Remote-User': 'admin', 'X-Remote-Group': 'system:masters' },
      status: 401,
    },
    {
      name: 'no cert, only an X-Remote-Group header: refused',
      cert: undefined,
      headers: { 'X-Remote-Group': 'system:masters' },
      status: 401,
    },
    {
      name: 'bearer token plus X-Remote-User: refused',
      cert: undefined,
      headers: { Authorization: 'Bearer good', 'X-Remote-User': 'admin' },
      status: 401,
    },
    {
      name: 'direct client cert from client CA: CN and O',
      cert: 'bob',
      headers: {},
      status: 200,
      user: {
        username: 'bob',
        groups: ['team', 'ops', 'system:authenticated'],
      },
    },
    {
      name: 'direct client cert with X-Remote-User: refused',
      cert: 'bob',
      headers: { 'X-Remote-User': 'admin', 'X-Remote-Group': 'system:masters' },
      status: 401,
    },
    {
      name: 'bearer token accepted by TokenReview',
      cert: undefined,
      headers: { Authorization: 'Bearer good' },
      status: 200,
      user: {
        username: 'system:serviceaccount:mon:prom',
        uid: 'u-1',
        groups: ['system:serviceaccounts', 'system:authenticated'],
      },
    },
    {
      name: 'bearer token rejected by TokenReview',
      cert: undefined,
      headers: { Authorization: 'Bearer bad' },
      status: 401,
    },
    {
      name: 'bad cert but a good token: the token wins',
      cert: 'otherProxy',
      headers: { Authorization: 'Bearer good' },
      status: 200,
      user: {
        username: 'system:serviceaccount:mon:prom',
        uid: 'u-1',
        groups: ['system:serviceaccounts', 'system:authenticated'],
      },
    },
    {
      name: 'no credentials at all',
      cert: undefined,
      headers: {},
      status: 200,
      user: anonymous,
    },
  ])('$name', async ({ cert, headers, status, user }) => {
    const res = await call(cert, headers);
    expect(res.status).toBe(status);
    // a 200 carries the user; a 401 is exactly the Status of contract §2.6
    expect(status === 200 ? res.body.user : res.body).toEqual(
      status === 200 ? user : UNAUTHORIZED_STATUS,
    );
  });

  it('strips the identity headers it trusted', async () => {
    const res = await call('proxy', fido);
    expect(res.body.remaining).toBeNull();
  });

  it('sends the TokenReview body of the contract and caches both outcomes by token', async () => {
    tokenReviews.length = 0;
    await call(undefined, { Authorization: 'Bearer cache-me' });
    await call(undefined, { Authorization: 'Bearer cache-me' });
    await call(undefined, { Authorization: 'Bearer good-but-new' });
    expect(tokenReviews).toEqual([
      {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenReview',
        spec: { token: 'cache-me' },
      },
      {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenReview',
        spec: { token: 'good-but-new' },
      },
    ]);
  });

  it('accepts any CN signed by the requestheader CA when allowed names are empty', async () => {
    const previous = provider.config;
    provider.config = new StaticRequestHeaderConfig(
      parseRequestHeaderConfig(
        configMapData(frontProxyCA.cert, clientCA.cert, []),
      ),
    );
    try {
      const res = await call('proxyEvil', { 'X-Remote-User': 'carol' });
      expect(res.body.user).toEqual({
        username: 'carol',
        groups: ['system:authenticated'],
      });
    } finally {
      provider.config = previous;
    }
  });

  it('follows a CA rotation without restart', async () => {
    const previous = provider.config;
    const rotated = await createTestCA('front-proxy-ca-2');
    certs.rotatedProxy = await createTestLeaf(rotated, {
      subject: 'CN=front-proxy-client',
    });
    provider.config = new StaticRequestHeaderConfig(
      parseRequestHeaderConfig(
        configMapData(rotated.cert, clientCA.cert, ['front-proxy-client']),
      ),
    );
    try {
      expect(
        (await call('rotatedProxy', { 'X-Remote-User': 'dave' })).body.user
          .username,
      ).toBe('dave');
      expect((await call('proxy', { 'X-Remote-User': 'dave' })).status).toBe(
        401,
      );
    } finally {
      provider.config = previous;
    }
  });

  it('refuses to serve (503) before the configuration is loaded', async () => {
    const authenticator = new DelegatingAuthenticator({
      config: { current: () => undefined },
    });
    await expect(
      authenticator.authenticate({ headers: {}, socket: {} } as any),
    ).rejects.toMatchObject({
      code: 503,
    });
  });

  it('the generated certificates are what the cases claim', () => {
    const proxy = new X509Certificate(certs.proxy.cert);
    expect(proxy.checkIssued(new X509Certificate(frontProxyCA.cert))).toBe(
      true,
    );
    expect(
      new X509Certificate(certs.otherProxy.cert).checkIssued(
        new X509Certificate(frontProxyCA.cert),
      ),
    ).toBe(false);
  });
});
