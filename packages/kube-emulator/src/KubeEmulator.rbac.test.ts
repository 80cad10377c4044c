import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { KubeEmulator } from './KubeEmulator';

const run = promisify(execFile);
const hasKubectl = spawnSync('kubectl', ['version', '--client']).status === 0;

// The emulator's RBAC as kubectl sees it: real objects, Kubernetes' bootstrap roles, the chart's
// roles and the Backstage backend's (deploy/backstage) rendered by helm, the people's bindings from
// the auth file.
(hasKubectl ? describe : describe.skip)(
  `KubeEmulator RBAC through kubectl${hasKubectl ? '' : ' [skipped: no kubectl binary on this machine]'}`,
  () => {
    let emulator: KubeEmulator;
    let dir: string;

    const kubectl = async (user: 'admin' | 'alice', ...args: string[]) => {
      try {
        const { stdout } = await run(
          'kubectl',
          [
            '--kubeconfig',
            path.join(dir, user),
            '--cache-dir',
            path.join(dir, 'cache'),
            ...args,
          ],
          { timeout: 60_000, env: { ...process.env, HOME: dir } },
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

    beforeAll(async () => {
      emulator = await KubeEmulator.start({ operators: false });
      dir = mkdtempSync(path.join(os.tmpdir(), 'kube-emulator-rbac-'));
      await emulator.writeKubeconfig(path.join(dir, 'admin'));
      await emulator.writeKubeconfig(path.join(dir, 'alice'), {
        token: 'alice-token',
      });
    }, 60_000);

    afterAll(async () => {
      await emulator?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('serves the bootstrap and charts’ roles as ClusterRoles, and none written for the emulator', async () => {
      const out = await kubectl('admin', 'get', 'clusterroles', '-o', 'name');
      expect(out.stderr).toBe('');
      const names = out.stdout.trim().split('\n');
      expect(names).toEqual(
        expect.arrayContaining([
          'clusterrole.rbac.authorization.k8s.io/cluster-admin',
          'clusterrole.rbac.authorization.k8s.io/edit',
          'clusterrole.rbac.authorization.k8s.io/system:auth-delegator',
          'clusterrole.rbac.authorization.k8s.io/dbaas-apiserver',
          'clusterrole.rbac.authorization.k8s.io/dbaas-view',
          'clusterrole.rbac.authorization.k8s.io/dbaas-connection-reader',
          'clusterrole.rbac.authorization.k8s.io/dbaas-backstage',
        ]),
      );
      // the hand-written apiserver and Backstage backend roles are gone
      expect(
        names.filter(n =>
          /dbaas-apiserver-(operators|cluster-reader|secrets-write)|backstage-backend-/.test(n),
        ),
      ).toEqual([]);
    });

    it('aggregates the chart roles into the built-in ones: admin reads credentials, edit does not', async () => {
      const rules = async (name: string) =>
        JSON.parse(
          (await kubectl('admin', 'get', 'clusterrole', name, '-o', 'json'))
            .stdout,
        ).rules as Array<{
          resources?: string[];
          verbs: string[];
        }>;
      const connection = (rs: Awaited<ReturnType<typeof rules>>) =>
        rs.some(r => r.resources?.includes('databaseinstances/connection'));
      expect(connection(await rules('admin'))).toBe(true);
      expect(connection(await rules('edit'))).toBe(false);
      expect(
        (await rules('view')).some(r =>
          r.resources?.includes('databaseinstances'),
        ),
      ).toBe(true);
    });

    it('kubectl auth can-i --list shows the apiserver service account the chart roles', async () => {
      const out = await kubectl(
        'admin',
        'auth',
        'can-i',
        '--list',
        '--as=system:serviceaccount:dbaas-system:apiserver',
        '-n',
        'dbaas-system',
      );
      expect(out.stderr).toBe('');
      const line = (resource: string) =>
        out.stdout
          .split('\n')
          .find(l => l.split(/\s+/)[0] === resource)
          ?.replace(/\s+/g, ' ')
          .trim();
      // rbac-apiserver.yaml: get (connection), create (passwords), patch and delete of Secrets, never list
      expect(line('secrets')).toBe('secrets [] [] [get list watch create patch delete]');
      expect(line('configmaps')).toBe('configmaps [] [] [get list watch]');
      expect(line('mariadbs.k8s.mariadb.com')).toBe(
        'mariadbs.k8s.mariadb.com [] [] [get list watch create update patch delete]',
      );
    });

    it('a RoleBinding an admin creates with kubectl takes effect on the next request', async () => {
      await kubectl('admin', 'create', 'namespace', 'team-a');
      // `can-i --list` needs no discovery of dbaas.platform.dev (no apiserver runs here)
      const rules = async () =>
        (
          await kubectl('alice', 'auth', 'can-i', '--list', '-n', 'team-a')
        ).stdout
          .split('\n')
          .filter(l => l.startsWith('databaseinstances'))
          .map(l => l.replace(/\s+/g, ' ').trim());
      // the auth file binds team-a to dbaas-edit alone as the namespace appears: it reads too, and
      // has no credentials (kubectl merges the rules per resource)
      expect(await rules()).toEqual([
        'databaseinstances.dbaas.platform.dev [] [] [get list watch create update patch delete deletecollection]',
        'databaseinstances.dbaas.platform.dev/diagnosis [] [] [get list watch]',
        'databaseinstances.dbaas.platform.dev/status [] [] [get list watch]',
      ]);
      const created = await kubectl(
        'admin',
        'create',
        'rolebinding',
        'alice-connection',
        '--clusterrole=dbaas-connection-reader',
        '--user=alice',
        '-n',
        'team-a',
      );
      expect(created.stderr).toBe('');
      expect(await rules()).toContain(
        'databaseinstances.dbaas.platform.dev/connection [] [] [get]',
      );
      await kubectl(
        'admin',
        'delete',
        'rolebinding',
        'alice-connection',
        '-n',
        'team-a',
      );
      expect((await rules()).filter(r => r.includes('/connection'))).toEqual(
        [],
      );
    });
  },
);
