import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot, run as runCommand } from '../deploy/support/tools';
import { loadCompactCrds } from '@internal/kube-emulator';
import { kubectlBinaries, parseTable, runKubectl } from '../support/kubectl';
import { startSystem, type System } from '../support/startSystem';

const SHARED = path.resolve(__dirname, '../../../../shared/operators');

async function eventually<T>(fn: () => Promise<T>, ok: (t: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`not reached in time; last: ${JSON.stringify(v)}`);
    await new Promise(r => setTimeout(r, 200));
  }
}

describe('DatabaseEngine: an operator installed later is picked up without a restart', () => {
  let system: System;
  const [kubectl] = kubectlBinaries([]);
  const run = (...args: string[]) => runKubectl(kubectl.file, system.kubeconfig, `${system.dir}/home`, args);

  beforeAll(async () => {
    // Everything but RabbitMQ's CRD at start.
    const crds = loadCompactCrds().filter(c => (c as any).spec.group !== 'rabbitmq.com');
    system = await startSystem({ seed: false, crds });
  }, 120_000);

  afterAll(async () => {
    await system?.stop();
  });

  it('reports rabbitmq as not installed, then installed once its upstream CRD is applied, and serves its instances', async () => {
    const before = parseTable((await run('get', 'databaseengines')).stdout);
    expect(before.find(r => r.NAME === 'rabbitmq')).toMatchObject({ INSTALLED: 'false', AGE: '<unknown>' });
    // Installed since its CRDs were created: a real age, as kubectl prints it (e.g. 3s).
    expect(before.find(r => r.NAME === 'mariadb')).toMatchObject({ INSTALLED: 'true', AGE: expect.stringMatching(/^\d+s$/) });
    const ready = await run('get', '--raw', '/readyz');
    expect(ready.stdout).toBe('ok');

    const crd = await run('create', '-f', path.join(SHARED, 'rabbitmq-cluster-operator/crds/rabbitmq.com_rabbitmqclusters.yaml'));
    expect(crd.stderr).toBe('');
    expect(crd.stdout).toContain('customresourcedefinition.apiextensions.k8s.io/rabbitmqclusters.rabbitmq.com created');
    const installed = await eventually(
      async () => parseTable((await run('get', 'databaseengines')).stdout).find(r => r.NAME === 'rabbitmq'),
      v => v?.INSTALLED === 'true',
    );
    expect(installed?.AGE).toMatch(/^\d+s$/);
    const engine = JSON.parse((await run('get', 'databaseengine', 'rabbitmq', '-o', 'json')).stdout);
    const crdCreated = JSON.parse(
      (await run('get', 'crd', 'rabbitmqclusters.rabbitmq.com', '-o', 'json')).stdout,
    ).metadata.creationTimestamp;
    expect(engine.metadata.creationTimestamp).toBe(crdCreated);

    const sample = await run('apply', '-n', 'default', '-f', path.join(SHARED, 'rabbitmq-cluster-operator/samples/hello-world.yaml'));
    expect(sample.code).toBe(0);
    const rows = await eventually(
      async () => parseTable((await run('get', 'dbi', '-n', 'default')).stdout),
      r => r.some(row => row.NAME === 'hello-world' && row.PHASE === 'Ready'),
    );
    expect(rows.find(row => row.NAME === 'hello-world')).toMatchObject({ ENGINE: 'rabbitmq' });
  });
});

/** The platform team's engine config of the tests below: mariadb narrowed and given its own size. */
const ENGINE_CONFIG = `
engines:
  mariadb:
    versions: ["11.8", "10.11"]
    sizes:
      - name: dev
        title: Development
        storage: { size: 2Gi }
        resources: { requests: { cpu: 100m, memory: 256Mi } }
`;

describe('DatabaseEngine: what an engine offers is the platform team’s to configure (--engine-config)', () => {
  let system: System;
  let configDir: string;
  let api: CustomObjectsApi;
  const [kubectl] = kubectlBinaries([]);
  const run = (...args: string[]) => runKubectl(kubectl.file, system.kubeconfig, `${system.dir}/home`, args);
  const instance = (name: string, spec: Record<string, unknown>) => ({
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseInstance',
    metadata: { name, namespace: 'default' },
    spec: { engine: 'mariadb', ...spec },
  });

  beforeAll(async () => {
    configDir = mkdtempSync(path.join(os.tmpdir(), 'dbaas-engine-config-'));
    const file = path.join(configDir, 'engines.yaml');
    writeFileSync(file, ENGINE_CONFIG);
    system = await startSystem({ seed: false, apiserver: { engineConfig: file } });
    const kc = new KubeConfig();
    kc.loadFromString(system.emulator.kubeconfig('admin'));
    api = kc.makeApiClient(CustomObjectsApi);
  }, 120_000);

  afterAll(async () => {
    await system?.stop();
    rmSync(configDir, { recursive: true, force: true });
  });

  it('reports the configured versions and sizes, the default version among them, and other engines untouched', async () => {
    const wide = parseTable((await run('get', 'databaseengines', '-o', 'wide')).stdout);
    expect(wide.find(r => r.NAME === 'mariadb')).toMatchObject({ VERSIONS: '11.8,10.11', SIZES: 'dev' });
    expect(wide.find(r => r.NAME === 'redis')).toMatchObject({ VERSIONS: '7.0.15,6.2.14', SIZES: 'small,medium,large' });
    const mariadb = JSON.parse((await run('get', 'databaseengine', 'mariadb', '-o', 'json')).stdout);
    expect(mariadb.spec.versions).toEqual(['11.8', '10.11']);
    expect(mariadb.spec.defaults.version).toBe('11.8');
    expect(mariadb.spec.sizes).toEqual([
      { name: 'dev', title: 'Development', storage: { size: '2Gi' }, resources: { requests: { cpu: '100m', memory: '256Mi' } } },
    ]);
    expect(mariadb.spec.replicas.galera).toEqual({
      min: 3,
      odd: true,
      default: 3,
      description: 'galera needs an odd number of replicas, at least 3',
    });
  });

  it('refuses a create with a version not offered: 422 naming spec.version and the offered list', async () => {
    const refused = await api
      .createNamespacedCustomObject({
        group: 'dbaas.platform.dev',
        version: 'v1alpha1',
        namespace: 'default',
        plural: 'databaseinstances',
        body: instance('old-db', { version: '11.4' }),
      })
      .then(
        () => undefined,
        (e: { code?: number; body?: string }) => e,
      );
    expect(refused?.code).toBe(422);
    const status = JSON.parse(refused!.body!);
    expect(status).toMatchObject({ kind: 'Status', reason: 'Invalid', code: 422 });
    expect(status.details.causes).toEqual([
      {
        reason: 'FieldValueNotSupported',
        field: 'spec.version',
        message: 'Unsupported value: "11.4": supported values: "11.8", "10.11"',
      },
    ]);
  });

  it('gives a create without a version the configured default, and accepts an offered one', async () => {
    const dryRun = (body: object) => runKubectl(
      kubectl.file,
      system.kubeconfig,
      `${system.dir}/home`,
      ['create', '--dry-run=server', '-o', 'json', '-f', '-'],
      JSON.stringify(body),
    );
    const defaulted = await dryRun(instance('new-db', {}));
    expect(defaulted.stderr).toBe('');
    expect(JSON.parse(defaulted.stdout).spec.version).toBe('11.8');
    const older = await dryRun(instance('older-db', { version: '10.11' }));
    expect(JSON.parse(older.stdout).spec.version).toBe('10.11');
    const refused = await dryRun(instance('old-db', { version: '11.4' }));
    expect(refused.stderr).toContain('spec.version: Unsupported value: "11.4": supported values: "11.8", "10.11"');
  });

  it('explains the new fields: kubectl explain databaseengine.spec.sizes and .replicas', async () => {
    const sizes = await run('explain', 'databaseengine.spec.sizes');
    expect(sizes.stderr).toBe('');
    expect(sizes.stdout).toMatch(/FIELD: *sizes/);
    for (const field of ['name', 'title', 'storage', 'resources']) expect(sizes.stdout).toMatch(new RegExp(`^ {2,}${field}\\s`, 'm'));
    const replicas = await run('explain', 'databaseengine.spec.replicas');
    expect(replicas.stdout).toContain('replica counts');
  });
});

describe('apiserver start-up with a bad --engine-config', () => {
  it('refuses to start and says which key is wrong', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dbaas-engine-config-'));
    try {
      const file = path.join(dir, 'engines.yaml');
      writeFileSync(file, 'engines:\n  mysql:\n    versions: ["5.7.44"]\n');
      const started = runCommand(
        process.execPath,
        [
          '--require',
          '@backstage/cli-node/config/nodeTransform.cjs',
          'apiserver/src/main.ts',
          `--engine-config=${file}`,
          '--tls-cert-file=/nonexistent/tls.crt',
          '--tls-private-key-file=/nonexistent/tls.key',
        ],
        { cwd: repoRoot, timeoutMs: 60_000 },
      );
      expect(started.code).toBe(2);
      expect(started.stderr).toContain(
        `error: --engine-config: ${file}: engines.mysql.versions[0]: "5.7.44" is older than 8.0.27, the oldest version the operator runs`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
