/* eslint-disable jest/expect-expect -- expectStatus() asserts */
import {
  afterAll,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
} from '@jest/globals';
import { KubeHttpError } from '../../kube/kubeRequest';
import { expectStatus } from '../__testutils__/expectStatus';
import { startTestServer, type TestServer } from '../__testutils__/testServer';
import { INSTANCES, seedInstance } from '../__testutils__/writeFixtures';
import { CLAIMS, PODS } from './serveDiagnosis';

describe('GET databaseinstances/{name}/diagnosis', () => {
  let t: TestServer;
  const labels = {
    'app.kubernetes.io/name': 'mariadb',
    'app.kubernetes.io/instance': 'orders',
  };

  beforeAll(async () => {
    t = await startTestServer();
    seedInstance(t, 'mariadb', 'orders');
    t.writer.seed(CLAIMS, {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'storage-orders-0', namespace: 'team-a', labels },
      spec: {
        storageClassName: 'no-such-class',
        resources: { requests: { storage: '1Gi' } },
      },
      status: { phase: 'Pending' },
    });
    t.writer.seed(PODS, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'orders-0', namespace: 'team-a', labels },
      status: {
        phase: 'Pending',
        containerStatuses: [
          {
            name: 'mariadb',
            image: 'mariadb:11.4',
            state: { waiting: { reason: 'ImagePullBackOff' } },
          },
        ],
      },
    });
    // another instance's pod: not this one's finding
    t.writer.seed(PODS, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'other-0',
        namespace: 'team-a',
        labels: { ...labels, 'app.kubernetes.io/instance': 'other' },
      },
      status: {
        containerStatuses: [
          {
            name: 'mariadb',
            state: { waiting: { reason: 'CrashLoopBackOff' } },
          },
        ],
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => {
    t.writer.calls.length = 0;
    t.writer.fail = () => undefined;
    t.authorizer.decide = user => ({
      allowed: user.username !== 'system:anonymous',
    });
  });

  it('answers a DatabaseInstanceDiagnosis from the pods and claims with the operator labels, read fresh', async () => {
    const res = await t.request(`${INSTANCES}/orders/diagnosis`, {
      token: 'alice',
    });
    expect(res.status).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      apiVersion: 'dbaas.platform.dev/v1alpha1',
      kind: 'DatabaseInstanceDiagnosis',
      metadata: { name: 'orders', namespace: 'team-a' },
    });
    expect(body.findings.map((f: { reason: string }) => f.reason)).toEqual([
      'PersistentVolumeClaimPending',
      'ImagePullBackOff',
    ]);
    expect(
      t.writer.calls
        .filter(c => c.verb === 'list')
        .map(c => [c.resource, c.body]),
    ).toEqual(
      expect.arrayContaining([
        ['pods', labels],
        ['persistentvolumeclaims', labels],
      ]),
    );
  });

  it('is authorized as its own subresource', async () => {
    t.authorizer.decide = (_user, info) => ({
      allowed: info.subresource !== 'diagnosis',
    });
    expectStatus(
      await t.request(`${INSTANCES}/orders/diagnosis`, { token: 'alice' }),
      403,
      'Forbidden',
      'databaseinstances.dbaas.platform.dev "orders" is forbidden: User "alice" cannot get resource "databaseinstances/diagnosis" in API group "dbaas.platform.dev" in the namespace "team-a"',
    );
    expect(t.writer.calls).toHaveLength(0);
  });

  it('is 404 for an instance that does not exist, before any list', async () => {
    expectStatus(
      await t.request(`${INSTANCES}/nope/diagnosis`, { token: 'alice' }),
      404,
      'NotFound',
      'databaseinstances.dbaas.platform.dev "nope" not found',
    );
    expect(t.writer.calls).toHaveLength(0);
  });

  it('says which members it could not read when its role lacks pods, and keeps the rest', async () => {
    t.writer.fail = call =>
      call.verb === 'list' && call.resource === 'pods'
        ? new KubeHttpError(403, {
            kind: 'Status',
            code: 403,
            reason: 'Forbidden',
            message: 'pods is forbidden',
          })
        : undefined;
    const res = await t.request(`${INSTANCES}/orders/diagnosis`, {
      token: 'alice',
    });
    expect(res.status).toBe(200);
    const reasons = res
      .json()
      .findings.map(
        (f: { reason: string; message: string }) => `${f.reason}: ${f.message}`,
      );
    expect(reasons).toEqual([
      expect.stringMatching(/^PersistentVolumeClaimPending/),
      'MembersNotReadable: The apiserver could not list the pods of orders: its role does not allow it; findings about them are missing',
    ]);
  });

  it('refuses other verbs as kube-apiserver does for a get-only subresource', async () => {
    const res = await t.request(`${INSTANCES}/orders/diagnosis`, {
      method: 'POST',
      token: 'alice',
      body: '{}',
    });
    expect(res.status).toBe(405);
  });

  it('is in discovery with its own kind', async () => {
    const list = (
      await t.request('/apis/dbaas.platform.dev/v1alpha1', { token: 'alice' })
    ).json();
    expect(list.resources).toContainEqual(
      expect.objectContaining({
        name: 'databaseinstances/diagnosis',
        kind: 'DatabaseInstanceDiagnosis',
        verbs: ['get'],
      }),
    );
  });
});
