import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { IncomingMessage } from 'node:http';
import type { UserInfo } from '../api/types';
import { StoreError } from '../store/types';
import {
  HeaderImpersonator,
  parseImpersonationHeaders,
} from './HeaderImpersonator';
import { parseAuthConfig } from './parseAuthConfig';
import { RbacAuthorizer } from './RbacAuthorizer';
import { request, startHttpServer, TestServer } from './__testUtils__/servers';

const authorizer = RbacAuthorizer.fromConfig(
  parseAuthConfig(`
rules:
  - name: backend
    users: [backend]
    impersonate:
      users: ["*"]
      groups: ["*"]
      uids: ["*"]
      serviceAccounts: [team-a/*]
      userExtras: { scopes: [openid] }
  - name: limited
    users: [alice]
    impersonate:
      users: [bob]
`),
);
const impersonator = new HeaderImpersonator(authorizer);
const backend: UserInfo = {
  username: 'backend',
  groups: ['system:authenticated'],
};
const alice: UserInfo = { username: 'alice', groups: ['system:authenticated'] };

function fakeRequest(headers: Record<string, string[]>): IncomingMessage {
  return {
    headersDistinct: headers,
    rawHeaders: [],
  } as unknown as IncomingMessage;
}

function forbidden(fn: () => unknown): StoreError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(StoreError);
    return e as StoreError;
  }
  throw new Error('expected a rejection');
}

describe('HeaderImpersonator', () => {
  let server: TestServer;
  let as: UserInfo;
  beforeAll(async () => {
    server = await startHttpServer((req, res) => {
      try {
        const effective = impersonator.apply(req, as);
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(effective));
      } catch (e) {
        const err = e as StoreError;
        res.writeHead(err.code, { 'Content-Type': 'application/json' });
        res.end(
          JSON.stringify({
            message: err.message,
            reason: err.reason,
            details: err.details,
          }),
        );
      }
    });
  });
  afterAll(() => server.close());

  it('returns the user unchanged without impersonation headers', () => {
    expect(impersonator.apply(fakeRequest({}), alice)).toBe(alice);
  });

  it('reads repeated Impersonate-Group lines over HTTP, keeping commas inside groups', async () => {
    as = backend;
    const res = await request(server.url, {
      headers: {
        'Impersonate-User': 'carol',
        'Impersonate-Group': ['cn=dbas,ou=groups,dc=example', 'team-a'],
        'Impersonate-Uid': 'u-1',
        'Impersonate-Extra-Scopes': ['openid'],
      },
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({
      username: 'carol',
      uid: 'u-1',
      groups: [
        'cn=dbas,ou=groups,dc=example',
        'team-a',
        'system:authenticated',
      ],
      extra: { scopes: ['openid'] },
    });
  });

  it('gives an impersonated service account its fixed groups', () => {
    const user = impersonator.apply(
      fakeRequest({ 'impersonate-user': ['system:serviceaccount:team-a:ci'] }),
      backend,
    );
    expect(user.groups).toEqual([
      'system:serviceaccounts',
      'system:serviceaccounts:team-a',
      'system:authenticated',
    ]);
  });

  it('allows a named user grant', () => {
    expect(
      impersonator.apply(fakeRequest({ 'impersonate-user': ['bob'] }), alice)
        .username,
    ).toBe('bob');
  });

  it("refuses with kube's message when the user may not impersonate", async () => {
    as = alice;
    const res = await request(server.url, {
      headers: { 'Impersonate-User': 'root' },
    });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toEqual({
      message:
        'users "root" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope',
      reason: 'Forbidden',
      details: { name: 'root', group: '', kind: 'users' },
    });
  });

  it.each<[string, Record<string, string[]>, string]>([
    [
      'a group',
      { 'impersonate-user': ['bob'], 'impersonate-group': ['system:masters'] },
      'groups "system:masters" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope',
    ],
    [
      'a uid',
      { 'impersonate-user': ['bob'], 'impersonate-uid': ['7'] },
      'uids.authentication.k8s.io "7" is forbidden: User "alice" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope',
    ],
    [
      'an extra',
      { 'impersonate-user': ['bob'], 'impersonate-extra-scopes': ['admin'] },
      'userextras.authentication.k8s.io "admin" is forbidden: User "alice" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope',
    ],
    [
      'a service account',
      { 'impersonate-user': ['system:serviceaccount:kube-system:root'] },
      'serviceaccounts "root" is forbidden: User "alice" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "kube-system"',
    ],
  ])('refuses %s that is not granted', (_, headers, message) => {
    const err = forbidden(() =>
      impersonator.apply(fakeRequest(headers), alice),
    );
    expect(err.code).toBe(403);
    expect(err.message).toBe(message);
  });

  it('refuses an extra value outside the grant even for the backend', () => {
    const err = forbidden(() =>
      impersonator.apply(
        fakeRequest({
          'impersonate-user': ['x'],
          'impersonate-extra-scopes': ['admin'],
        }),
        backend,
      ),
    );
    expect(err.code).toBe(403);
  });

  it('rejects groups without a user as a bad request', () => {
    expect(
      forbidden(() =>
        impersonator.apply(
          fakeRequest({ 'impersonate-group': ['g'] }),
          backend,
        ),
      ).code,
    ).toBe(400);
  });

  it('lower-cases and percent-decodes extra keys', () => {
    expect(
      parseImpersonationHeaders({
        'impersonate-user': ['u'],
        'impersonate-extra-acme.com%2fproject': ['p'],
      }),
    ).toEqual({
      user: 'u',
      groups: [],
      extra: { 'acme.com/project': ['p'] },
    });
  });
});
