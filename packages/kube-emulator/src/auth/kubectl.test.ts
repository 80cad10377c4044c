import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseRequestInfo } from '../api/requestInfo';
import {
  createCertificates,
  EmulatorCertificateSet,
} from '../certs/createCertificates';
import { writeKubeconfig } from '../kubeconfig/buildKubeconfig';
import { createAuthHandlers } from './createAuthHandlers';
import { EmulatorAuthenticator } from './EmulatorAuthenticator';
import { HeaderImpersonator } from './HeaderImpersonator';
import { writeJson, writeStatusError } from './httpResponses';
import { parseAuthConfig } from './parseAuthConfig';
import { RbacAuthorizer } from './RbacAuthorizer';
import { startHttpsServer, TestServer } from './__testUtils__/servers';

const run = promisify(execFile);
const hasKubectl = spawnSync('kubectl', ['version', '--client']).status === 0;

const config = parseAuthConfig(`
users:
  - { name: alice, groups: [team-a], tokens: [alice-token] }
serviceAccounts:
  - { namespace: backstage, name: backend, tokens: [backend-token] }
rules:
  - name: backend-impersonator
    users: [system:serviceaccount:backstage:backend]
    impersonate: { users: ["*"], groups: ["*"] }
  - name: alice-metrics
    users: [alice]
    verbs: [get]
    nonResourceURLs: [/metrics]
`);

// The real kubectl against this part's pieces wired like the emulator's pipeline
// (authenticate → impersonate → authorize → review handlers), with just enough discovery.
(hasKubectl ? describe : describe.skip)(
  `kubectl auth${hasKubectl ? '' : ' [skipped: no kubectl binary on this machine]'}`,
  () => {
    let certs: EmulatorCertificateSet;
    let server: TestServer;
    let dir: string;

    beforeAll(async () => {
      certs = await createCertificates();
      dir = mkdtempSync(path.join(os.tmpdir(), 'kubectl-auth-'));
      const authenticator = new EmulatorAuthenticator({
        clientCaPem: certs.clientCa.certPem,
        config,
      });
      const authorizer = RbacAuthorizer.fromConfig(config);
      const impersonator = new HeaderImpersonator(authorizer);
      const handlers = createAuthHandlers(authenticator, authorizer);
      server = await startHttpsServer(certs.serving, async (req, res) => {
        try {
          const info = parseRequestInfo(req.method ?? 'GET', req.url ?? '/');
          const authenticated = (await authenticator.authenticate(req)) ?? {
            username: 'system:anonymous',
            groups: ['system:unauthenticated'],
          };
          const user = impersonator.apply(req, authenticated);
          if (info.path === '/api')
            return writeJson(res, 200, {
              kind: 'APIVersions',
              versions: ['v1'],
            });
          if (info.path === '/api/v1')
            return writeJson(res, 200, {
              kind: 'APIResourceList',
              groupVersion: 'v1',
              resources: [],
            });
          if (info.path === '/apis')
            return writeJson(res, 200, {
              kind: 'APIGroupList',
              apiVersion: 'v1',
              groups: [],
            });
          const decision = authorizer.authorize(user, info);
          if (!decision.allowed)
            return writeJson(res, 403, {
              kind: 'Status',
              apiVersion: 'v1',
              status: 'Failure',
              reason: 'Forbidden',
              code: 403,
              message: 'forbidden',
            });
          const handler = handlers.find(h => h.handles(info));
          if (!handler)
            return writeJson(res, 404, {
              kind: 'Status',
              apiVersion: 'v1',
              status: 'Failure',
              reason: 'NotFound',
              code: 404,
              message: 'not found',
            });
          return await handler.handle(req, res, user, info, undefined);
        } catch (e) {
          return writeStatusError(res, e);
        }
      });
      await writeKubeconfig(path.join(dir, 'admin'), {
        server: server.url,
        caPem: certs.clusterCa.certPem,
        user: certs.admin,
      });
      await writeKubeconfig(path.join(dir, 'alice'), {
        server: server.url,
        caPem: certs.clusterCa.certPem,
        user: { token: 'alice-token' },
      });
      await writeKubeconfig(path.join(dir, 'backend'), {
        server: server.url,
        caPem: certs.clusterCa.certPem,
        user: { token: 'backend-token' },
      });
    });
    afterAll(async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const kubectl = async (kubeconfig: string, ...args: string[]) => {
      try {
        const { stdout } = await run(
          'kubectl',
          [
            '--kubeconfig',
            path.join(dir, kubeconfig),
            '--cache-dir',
            path.join(dir, 'cache'),
            ...args,
          ],
          {
            timeout: 60_000,
            env: { ...process.env, HOME: dir },
          },
        );
        return { code: 0, stdout, stderr: '' };
      } catch (e) {
        const err = e as { code?: number; stdout?: string; stderr?: string };
        return {
          code: err.code ?? 1,
          stdout: err.stdout ?? '',
          stderr: err.stderr ?? '',
        };
      }
    };

    it('whoami with the admin client certificate', async () => {
      const out = await kubectl('admin', 'auth', 'whoami', '-o', 'json');
      expect(JSON.parse(out.stdout).status.userInfo).toEqual({
        username: 'admin',
        groups: ['system:masters', 'system:authenticated'],
      });
    });

    it('whoami through impersonation keeps a group with a comma intact', async () => {
      const out = await kubectl(
        'backend',
        'auth',
        'whoami',
        '-o',
        'json',
        '--as',
        'bob',
        '--as-group',
        'cn=dbas,dc=example',
        '--as-group',
        'team-b',
      );
      expect(JSON.parse(out.stdout).status.userInfo).toEqual({
        username: 'bob',
        groups: ['cn=dbas,dc=example', 'team-b', 'system:authenticated'],
      });
    });

    it('refuses impersonation that is not granted with the Kubernetes message', async () => {
      const out = await kubectl('alice', 'get', '--raw', '/metrics', '--as', 'root');
      expect(out.code).not.toBe(0);
      expect(out.stderr).toContain(
        'users "root" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope',
      );
    });

    it('can-i answers from the rules', async () => {
      expect(
        (
          await kubectl('alice', 'auth', 'can-i', 'get', '/metrics')
        ).stdout.trim(),
      ).toBe('yes');
      expect(
        (await kubectl('alice', 'auth', 'can-i', 'get', '/logs')).code,
      ).not.toBe(0);
      expect(
        (
          await kubectl('backend', 'auth', 'can-i', 'impersonate', 'users')
        ).stdout.trim(),
      ).toBe('yes');
    });
  },
);
