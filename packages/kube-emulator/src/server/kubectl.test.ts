import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from './__testUtils__/testServer';

const run = promisify(execFile);
// src/server → ../shared/operators beside the repository root
const OPERATORS = path.resolve(__dirname, '../../../../../shared/operators');
const MARIADB_CRD = path.join(
  OPERATORS,
  'mariadb-operator/crds/k8s.mariadb.com_mariadbs.yaml',
);
const MARIADB_SAMPLE = path.join(
  OPERATORS,
  'mariadb-operator/samples/mariadb_minimal.yaml',
);

/** The real kubectl binary against the emulator, authenticated with a bearer token. */
describe('kubectl against the emulator', () => {
  let t: TestServer;
  let dir: string;

  const kubectl = async (...args: string[]) => {
    const { stdout } = await run(
      'kubectl',
      [
        '--kubeconfig',
        path.join(dir, 'kubeconfig'),
        '--cache-dir',
        path.join(dir, 'cache'),
        ...args,
      ],
      {
        timeout: 60_000,
        env: { ...process.env, HOME: dir },
      },
    );
    return stdout;
  };

  beforeAll(async () => {
    t = await startTestServer();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kube-emulator-kubectl-'));
    fs.writeFileSync(
      path.join(dir, 'kubeconfig'),
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          {
            name: 'emulator',
            cluster: {
              server: t.handle.url,
              'certificate-authority-data': Buffer.from(t.certs.ca).toString(
                'base64',
              ),
            },
          },
        ],
        users: [{ name: 'admin', user: { token: 'admin-token' } }],
        contexts: [
          {
            name: 'emulator',
            context: {
              cluster: 'emulator',
              user: 'admin',
              namespace: 'default',
            },
          },
        ],
        'current-context': 'emulator',
      }),
    );
  });
  afterAll(async () => {
    await t.handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists namespaces as a table', async () => {
    const out = await kubectl('get', 'ns');
    expect(out).toMatch(/^NAME\s+STATUS\s+AGE/);
    expect(out).toMatch(/\ndefault\s+Active\s+\d+s/);
    expect(out).toMatch(/\nkube-system\s+Active/);
  });

  it('applies an upstream CRD, creates a namespace and a custom resource, and prints it with the CRD columns', async () => {
    expect(await kubectl('apply', '-f', MARIADB_CRD)).toContain(
      'customresourcedefinition.apiextensions.k8s.io/mariadbs.k8s.mariadb.com created',
    );
    expect(await kubectl('apply', '-f', MARIADB_CRD)).toContain('unchanged');
    expect(await kubectl('create', 'ns', 'team-a')).toContain(
      'namespace/team-a created',
    );
    expect(
      await kubectl('apply', '-n', 'team-a', '-f', MARIADB_SAMPLE),
    ).toMatch(/mariadb\.k8s\.mariadb\.com\/\S+ created/);
    const out = await kubectl('get', 'mariadbs', '-A');
    const [header, row] = out.trim().split('\n');
    expect(header).toMatch(
      /^NAMESPACE\s+NAME\s+READY\s+STATUS\s+PRIMARY\s+UPDATES\s+AGE/,
    );
    expect(row).toMatch(/^team-a\s+\S+\s+.*\d+s$/);
    const json = JSON.parse(
      await kubectl('get', 'mariadbs', '-n', 'team-a', '-o', 'json'),
    );
    expect(json.items[0]).toMatchObject({
      apiVersion: 'k8s.mariadb.com/v1alpha1',
      kind: 'MariaDB',
      metadata: { namespace: 'team-a' },
    });
  });

  it('patches, then deletes a namespace with objects in it and waits for it to disappear', async () => {
    expect(await kubectl('create', 'ns', 'team-gone')).toContain('namespace/team-gone created');
    expect(await kubectl('create', 'configmap', 'settings', '-n', 'team-gone')).toContain('configmap/settings created');
    expect(await kubectl('label', 'ns', 'team-gone', 'tier=db')).toContain(
      'namespace/team-gone labeled',
    );
    expect(await kubectl('get', 'ns', '-l', 'tier=db', '-o', 'name')).toBe(
      'namespace/team-gone\n',
    );
    expect(await kubectl('delete', 'ns', 'team-gone', '--timeout=20s')).toContain(
      'namespace "team-gone" deleted',
    );
    await expect(kubectl('get', 'ns', 'team-gone')).rejects.toThrow(
      /namespaces "team-gone" not found/,
    );
  });
});
