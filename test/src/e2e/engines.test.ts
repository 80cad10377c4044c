import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import path from 'node:path';
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
    expect(before.find(r => r.NAME === 'rabbitmq')?.INSTALLED).toBe('false');
    expect(before.find(r => r.NAME === 'mariadb')?.INSTALLED).toBe('true');
    const ready = await run('get', '--raw', '/readyz');
    expect(ready.stdout).toBe('ok');

    const crd = await run('create', '-f', path.join(SHARED, 'rabbitmq-cluster-operator/crds/rabbitmq.com_rabbitmqclusters.yaml'));
    expect(crd.stderr).toBe('');
    expect(crd.stdout).toContain('customresourcedefinition.apiextensions.k8s.io/rabbitmqclusters.rabbitmq.com created');
    await eventually(
      async () => parseTable((await run('get', 'databaseengines')).stdout).find(r => r.NAME === 'rabbitmq')?.INSTALLED,
      v => v === 'true',
    );

    const sample = await run('apply', '-n', 'default', '-f', path.join(SHARED, 'rabbitmq-cluster-operator/samples/hello-world.yaml'));
    expect(sample.code).toBe(0);
    const rows = await eventually(
      async () => parseTable((await run('get', 'dbi', '-n', 'default')).stdout),
      r => r.some(row => row.NAME === 'hello-world' && row.PHASE === 'Ready'),
    );
    expect(rows.find(row => row.NAME === 'hello-world')).toMatchObject({ ENGINE: 'rabbitmq' });
  });
});
