import {
  afterAll,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
} from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { kubeConfigForServer } from '../kube/createKubeConfig';
import { KubeSubjectAccessReviewer } from './SubjectAccessReviewer';
import { SubjectAccessReviewAuthorizer } from './SubjectAccessReviewAuthorizer';
import type { RequestInfo, UserInfo } from './types';

const resource = (over: Partial<RequestInfo>): RequestInfo => ({
  isResourceRequest: true,
  path: '/apis/dbaas.platform.dev/v1alpha1/namespaces/team-a/databaseinstances',
  verb: 'list',
  apiGroup: 'dbaas.platform.dev',
  apiVersion: 'v1alpha1',
  namespace: 'team-a',
  resource: 'databaseinstances',
  subresource: '',
  name: '',
  parts: [],
  ...over,
});
const alice: UserInfo = {
  username: 'alice',
  uid: 'a1',
  groups: ['dev', 'system:authenticated'],
  extra: { scopes: ['openid', 'profile'] },
};

describe('SubjectAccessReviewAuthorizer', () => {
  let server: http.Server;
  let reviews: any[];
  /** Answer of the fake kube-apiserver: a SAR status, or an HTTP error code. */
  let answer: (spec: any) => { status?: object; code?: number };
  let now = 0;
  let authorizer: SubjectAccessReviewAuthorizer;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', c => (body += c));
      req.on('end', () => {
        const sar = JSON.parse(body);
        reviews.push(sar);
        const a = answer(sar.spec);
        res.statusCode = a.code ?? 201;
        res.end(
          JSON.stringify(
            a.code
              ? { kind: 'Status', code: a.code }
              : { ...sar, status: a.status },
          ),
        );
      });
    });
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
    const kc = kubeConfigForServer(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    );
    authorizer = new SubjectAccessReviewAuthorizer({
      reviewer: new KubeSubjectAccessReviewer(kc, {
        backoff: { steps: 3, initialDelayMs: 1, factor: 1 },
      }),
      cacheTtlMs: 10_000,
      now: () => now,
    });
  });
  afterAll(() => new Promise(r => server.close(r)));
  beforeEach(() => {
    reviews = [];
    now += 60_000; // every test starts with an expired cache
    answer = () => ({ status: { allowed: true } });
  });

  it.each([
    {
      name: 'namespaced list',
      info: resource({}),
      attrs: {
        namespace: 'team-a',
        verb: 'list',
        group: 'dbaas.platform.dev',
        version: 'v1alpha1',
        resource: 'databaseinstances',
      },
    },
    {
      name: 'all-namespaces list omits namespace',
      info: resource({ namespace: '' }),
      attrs: {
        verb: 'list',
        group: 'dbaas.platform.dev',
        version: 'v1alpha1',
        resource: 'databaseinstances',
      },
    },
    {
      name: 'subresource get with name',
      info: resource({
        verb: 'get',
        name: 'orders',
        subresource: 'connection',
      }),
      attrs: {
        namespace: 'team-a',
        verb: 'get',
        group: 'dbaas.platform.dev',
        version: 'v1alpha1',
        resource: 'databaseinstances',
        subresource: 'connection',
        name: 'orders',
      },
    },
  ])('SAR body for $name', async ({ info, attrs }) => {
    await expect(authorizer.authorize(alice, info)).resolves.toEqual({
      allowed: true,
    });
    expect(reviews).toEqual([
      {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: {
          resourceAttributes: attrs,
          user: 'alice',
          groups: ['dev', 'system:authenticated'],
          extra: { scopes: ['openid', 'profile'] },
          uid: 'a1',
        },
      },
    ]);
  });

  it('non-resource request', async () => {
    const info = resource({
      isResourceRequest: false,
      path: '/openapi/v3',
      verb: 'get',
    });
    await authorizer.authorize(
      { username: 'system:aggregator', groups: ['system:authenticated'] },
      info,
    );
    expect(reviews[0].spec).toEqual({
      nonResourceAttributes: { path: '/openapi/v3', verb: 'get' },
      user: 'system:aggregator',
      groups: ['system:authenticated'],
    });
  });

  it.each([
    {
      status: { allowed: true, reason: 'RBAC: ok' },
      decision: { allowed: true, reason: 'RBAC: ok' },
    },
    {
      status: { allowed: false, denied: true, reason: 'nope' },
      decision: { allowed: false, reason: 'nope' },
    },
    {
      status: { allowed: true, denied: true, reason: 'both' },
      decision: { allowed: false, reason: 'both' },
    },
    { status: { allowed: false }, decision: { allowed: false } },
    {
      status: { allowed: false, evaluationError: 'rbac broken' },
      decision: { allowed: false, reason: 'rbac broken' },
    },
  ])('status $status => $decision', async ({ status, decision }) => {
    answer = () => ({ status });
    await expect(authorizer.authorize(alice, resource({}))).resolves.toEqual(
      decision,
    );
  });

  it('caches allow and deny for the TTL, keyed by the whole spec', async () => {
    answer = spec => ({
      status:
        spec.resourceAttributes.verb === 'list'
          ? { allowed: true }
          : { denied: true, reason: 'no' },
    });
    for (let i = 0; i < 3; i++) {
      expect((await authorizer.authorize(alice, resource({}))).allowed).toBe(
        true,
      );
      expect(
        (
          await authorizer.authorize(
            alice,
            resource({ verb: 'delete', name: 'x' }),
          )
        ).allowed,
      ).toBe(false);
    }
    expect(reviews).toHaveLength(2);
    await authorizer.authorize({ ...alice, groups: ['other'] }, resource({}));
    expect(reviews).toHaveLength(3);
    now += 10_001;
    await authorizer.authorize(alice, resource({}));
    expect(reviews).toHaveLength(4);
  });

  it('system:masters is allowed without a SAR; probes too', async () => {
    await expect(
      authorizer.authorize(
        { username: 'x', groups: ['system:masters'] },
        resource({ verb: 'delete' }),
      ),
    ).resolves.toEqual({ allowed: true });
    await expect(
      authorizer.authorize(
        { username: 'system:anonymous', groups: ['system:unauthenticated'] },
        resource({ isResourceRequest: false, path: '/readyz', verb: 'get' }),
      ),
    ).resolves.toEqual({ allowed: true });
    expect(reviews).toHaveLength(0);
  });

  it.each([500, 429])(
    'HTTP %s after retries denies, not cached',
    async code => {
      answer = () => ({ code });
      const d = await authorizer.authorize(alice, resource({}));
      expect(d.allowed).toBe(false);
      expect(reviews).toHaveLength(3);
      answer = () => ({ status: { allowed: true } });
      await expect(authorizer.authorize(alice, resource({}))).resolves.toEqual({
        allowed: true,
      });
    },
  );

  it('a 403 from kube-apiserver (our RBAC missing) denies without retrying', async () => {
    answer = () => ({ code: 403 });
    expect((await authorizer.authorize(alice, resource({}))).allowed).toBe(
      false,
    );
    expect(reviews).toHaveLength(1);
  });

  it('unreachable kube-apiserver denies', async () => {
    const dead = new SubjectAccessReviewAuthorizer({
      reviewer: new KubeSubjectAccessReviewer(
        kubeConfigForServer('http://127.0.0.1:1'),
        {
          backoff: { steps: 2, initialDelayMs: 1, factor: 1 },
        },
      ),
    });
    await expect(dead.authorize(alice, resource({}))).resolves.toMatchObject({
      allowed: false,
    });
  });
});
