import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { CustomHandler, UserInfo } from '../api/types';
import { parseRequestInfo } from '../api/requestInfo';
import { createAuthHandlers } from './createAuthHandlers';
import { EmulatorAuthenticator } from './EmulatorAuthenticator';
import { parseAuthConfig } from './parseAuthConfig';
import { RbacAuthorizer } from './RbacAuthorizer';
import { request, startHttpServer, TestServer } from './__testUtils__/servers';

const config = parseAuthConfig(`
users:
  - { name: alice, uid: u-a, groups: [team-a], tokens: [alice-token] }
rules:
  - name: team-a-view
    groups: [team-a]
    namespaces: [team-a]
    verbs: [get, list]
    apiGroups: [dbaas.platform.dev]
    resources: [databaseinstances]
  - name: metrics
    users: [prom]
    verbs: [get]
    nonResourceURLs: [/metrics]
`);
const authenticator = new EmulatorAuthenticator({ clientCaPem: [], config });
const authorizer = RbacAuthorizer.fromConfig(config);
const handlers: CustomHandler[] = createAuthHandlers(authenticator, authorizer);

describe('review handlers', () => {
  let server: TestServer;
  let caller: UserInfo = {
    username: 'system:serviceaccount:dbaas-system:apiserver',
    groups: ['system:authenticated'],
  };

  beforeAll(async () => {
    // what the pipeline does after authn/authz: route to the custom handler that claims the request
    server = await startHttpServer(async (req, res) => {
      const info = parseRequestInfo(req.method ?? 'GET', req.url ?? '/');
      const handler = handlers.find(h => h.handles(info));
      if (!handler) {
        res.writeHead(404);
        res.end();
        return;
      }
      await handler.handle(req, res, caller, info, undefined);
    });
  });
  afterAll(() => server.close());

  const post = async (path: string, body: unknown) => {
    const res = await request(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, body: JSON.parse(res.body) };
  };
  const TOKEN_REVIEWS = '/apis/authentication.k8s.io/v1/tokenreviews';
  const SARS = '/apis/authorization.k8s.io/v1/subjectaccessreviews';
  const SELF_SARS = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';

  it('TokenReview authenticates a known token with system:authenticated', async () => {
    const res = await post(TOKEN_REVIEWS, {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      spec: { token: 'alice-token' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      kind: 'TokenReview',
      apiVersion: 'authentication.k8s.io/v1',
      spec: { token: 'alice-token' },
      status: {
        authenticated: true,
        user: {
          username: 'alice',
          uid: 'u-a',
          groups: ['team-a', 'system:authenticated'],
        },
      },
    });
  });

  it('TokenReview reports an unknown token as not authenticated with an error', async () => {
    const res = await post(TOKEN_REVIEWS, {
      kind: 'TokenReview',
      spec: { token: 'bogus' },
    });
    expect(res.status).toBe(201);
    expect(res.body.status.authenticated).toBe(false);
    expect(res.body.status.error).toEqual(expect.any(String));
  });

  it('TokenReview returns service-account extras of minted tokens', async () => {
    const token = authenticator.issueServiceAccountToken('ns', 'sa');
    const res = await post(TOKEN_REVIEWS, { spec: { token } });
    expect(
      res.body.status.user.extra['authentication.kubernetes.io/credential-id'],
    ).toHaveLength(1);
  });

  it.each([
    ['no token', { spec: {} }, 400, 'token is required'],
    ['no spec', { kind: 'TokenReview' }, 400, 'has no spec'],
    ['not JSON', '{', 400, 'error decoding'],
  ])('TokenReview with %s is a %s Status', async (_, body, code, message) => {
    const res = await post(TOKEN_REVIEWS, body);
    expect(res.status).toBe(code);
    expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', code });
    expect(res.body.message).toContain(message);
  });

  it('rejects other verbs on a review resource with 405', async () => {
    const res = await request(`${server.url}${TOKEN_REVIEWS}`);
    expect(res.status).toBe(405);
    expect(JSON.parse(res.body)).toMatchObject({
      reason: 'MethodNotAllowed',
      code: 405,
    });
  });

  it.each<[string, Record<string, unknown>, boolean, string | undefined]>([
    [
      'allowed resource access',
      {
        user: 'alice',
        groups: ['team-a'],
        resourceAttributes: {
          namespace: 'team-a',
          verb: 'list',
          group: 'dbaas.platform.dev',
          version: 'v1alpha1',
          resource: 'databaseinstances',
        },
      },
      true,
      'RBAC: allowed by RoleBinding "team-a-view/team-a" of Role "team-a-view" to Group "team-a"',
    ],
    [
      'denied in another namespace',
      {
        user: 'alice',
        groups: ['team-a'],
        resourceAttributes: {
          namespace: 'team-b',
          verb: 'list',
          group: 'dbaas.platform.dev',
          resource: 'databaseinstances',
        },
      },
      false,
      undefined,
    ],
    [
      'denied verb',
      {
        user: 'alice',
        groups: ['team-a'],
        resourceAttributes: {
          namespace: 'team-a',
          verb: 'delete',
          group: 'dbaas.platform.dev',
          resource: 'databaseinstances',
          name: 'x',
        },
      },
      false,
      undefined,
    ],
    [
      'allowed non-resource URL',
      {
        user: 'prom',
        nonResourceAttributes: { path: '/metrics', verb: 'get' },
      },
      true,
      'RBAC: allowed by ClusterRoleBinding "metrics" of ClusterRole "metrics" to User "prom"',
    ],
    [
      'system:masters',
      {
        user: 'x',
        groups: ['system:masters'],
        resourceAttributes: { verb: 'delete', resource: 'nodes' },
      },
      true,
      undefined,
    ],
  ])('SubjectAccessReview: %s', async (_, spec, allowed, reason) => {
    const res = await post(SARS, {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec,
    });
    expect(res.status).toBe(201);
    expect(res.body.kind).toBe('SubjectAccessReview');
    expect(res.body.status.allowed).toBe(allowed);
    expect(res.body.status.reason).toBe(reason);
  });

  it.each([
    [
      'both attribute kinds',
      { user: 'a', resourceAttributes: {}, nonResourceAttributes: {} },
      'exactly one of nonResourceAttributes or resourceAttributes',
    ],
    [
      'no attributes',
      { user: 'a' },
      'exactly one of nonResourceAttributes or resourceAttributes',
    ],
    [
      'no user nor groups',
      { resourceAttributes: { verb: 'get', resource: 'pods' } },
      'at least one of user or group must be specified',
    ],
  ])('SubjectAccessReview with %s is 422 Invalid', async (_, spec, message) => {
    const res = await post(SARS, { spec });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      kind: 'Status',
      reason: 'Invalid',
      code: 422,
    });
    expect(res.body.message).toContain(message);
  });

  it('SelfSubjectAccessReview evaluates for the caller (kubectl auth can-i)', async () => {
    caller = { username: 'alice', groups: ['team-a', 'system:authenticated'] };
    const attrs = {
      namespace: 'team-a',
      verb: 'get',
      group: 'dbaas.platform.dev',
      resource: 'databaseinstances',
      name: 'x',
    };
    const yes = await post(SELF_SARS, {
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: attrs },
    });
    expect(yes.status).toBe(201);
    expect(yes.body.status.allowed).toBe(true);
    const no = await post(SELF_SARS, {
      spec: { resourceAttributes: { ...attrs, namespace: 'team-b' } },
    });
    expect(no.body.status.allowed).toBe(false);
  });

  it('SelfSubjectReview returns the caller (kubectl auth whoami)', async () => {
    caller = {
      username: 'alice',
      uid: 'u-a',
      groups: ['team-a', 'system:authenticated'],
    };
    // kubectl auth whoami posts a SelfSubjectReview without spec
    const res = await post(
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      {
        kind: 'SelfSubjectReview',
        apiVersion: 'authentication.k8s.io/v1',
        metadata: { creationTimestamp: null },
        status: { userInfo: {} },
      },
    );
    expect(res.status).toBe(201);
    expect(res.body.status.userInfo).toEqual({
      username: 'alice',
      uid: 'u-a',
      groups: ['team-a', 'system:authenticated'],
    });
  });
});
