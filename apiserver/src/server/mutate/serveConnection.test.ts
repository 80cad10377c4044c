/* eslint-disable jest/expect-expect -- expectStatus() asserts */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { KubeHttpError } from '../../kube/kubeRequest';
import { SECRETS } from '../../kube/KubeWriter';
import { expectStatus } from '../__testutils__/expectStatus';
import { startTestServer, type TestServer } from '../__testutils__/testServer';
import { INSTANCES, seedInstance, writable } from '../__testutils__/writeFixtures';

const PASSWORD = 'p@ss:w/rd';

describe('GET databaseinstances/{name}/connection', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer();
    const { object } = seedInstance(t, 'mariadb', 'orders');
    const secretName = writable('mariadb').write.connectionSecretName(object)!;
    t.writer.seed(SECRETS, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: secretName, namespace: 'team-a' },
      data: { password: Buffer.from(PASSWORD).toString('base64') },
    });
    seedInstance(t, 'mysql', 'fresh');
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => {
    t.writer.calls.length = 0;
    t.writer.fail = () => undefined;
    t.authorizer.calls.length = 0;
    t.authorizer.decide = user => ({ allowed: user.username !== 'system:anonymous' });
  });

  it('answers a DatabaseInstanceConnection with the credentials from the operator\'s Secret, read fresh', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await t.request(`${INSTANCES}/orders/connection`, { token: 'alice' });
      expect(res.status).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({
        apiVersion: 'dbaas.platform.dev/v1alpha1',
        kind: 'DatabaseInstanceConnection',
        metadata: { name: 'orders', namespace: 'team-a' },
        engine: 'mariadb',
        host: expect.any(String),
        port: expect.any(Number),
        password: PASSWORD,
      });
      expect(body.uri).toContain(encodeURIComponent(PASSWORD));
      expect(body.endpoints.length).toBeGreaterThan(0);
    }
    // never cached: one Secret read per request
    expect(t.writer.calls.filter(c => c.verb === 'get' && c.resource === 'secrets')).toHaveLength(2);
    expect(JSON.stringify(t.logger.entries)).not.toContain(PASSWORD);
  });

  it('is authorized as its own subresource, so reading credentials is a separate grant', async () => {
    t.authorizer.decide = (_user, info) => ({ allowed: info.subresource !== 'connection' });
    expect((await t.request(`${INSTANCES}/orders`, { token: 'alice' })).status).toBe(200);
    expectStatus(
      await t.request(`${INSTANCES}/orders/connection`, { token: 'alice' }),
      403,
      'Forbidden',
      'databaseinstances.dbaas.platform.dev "orders" is forbidden: User "alice" cannot get resource "databaseinstances/connection" in API group "dbaas.platform.dev" in the namespace "team-a"',
    );
    expect(t.writer.calls).toHaveLength(0);
  });

  it('never puts secret values on the instance itself', async () => {
    const res = await t.request(`${INSTANCES}/orders`);
    expect(res.body).not.toContain(PASSWORD);
  });

  it('answers 503 with Retry-After while the operator has not created the Secret', async () => {
    const res = await t.request(`${INSTANCES}/fresh/connection`);
    const body = expectStatus(res, 503, 'ServiceUnavailable', /credentials of databaseinstances "fresh" are not available yet/);
    expect(res.headers['retry-after']).toBe('2');
    expect(body.details.retryAfterSeconds).toBe(2);
  });

  it('answers 404 for a missing instance', async () => {
    expectStatus(await t.request(`${INSTANCES}/nope/connection`), 404, 'NotFound');
  });

  it.each([
    [new Error('connect ECONNREFUSED 127.0.0.1:6443'), 503, 'ServiceUnavailable', /unreachable/],
    [
      new KubeHttpError(403, { kind: 'Status', code: 403, reason: 'Forbidden', message: 'secrets "orders-root" is forbidden: User "system:serviceaccount:dbaas:apiserver" cannot get resource "secrets" in API group "" in the namespace "team-a"' }),
      403,
      'Forbidden',
      /service account may not get secrets in namespace "team-a"/,
    ],
  ])('maps a failed Secret read (%s) to a Status', async (error, code, reason, message) => {
    t.writer.fail = () => error;
    expectStatus(await t.request(`${INSTANCES}/orders/connection`), code, reason, message);
  });
});
