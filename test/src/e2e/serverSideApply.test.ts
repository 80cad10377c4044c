import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { kubectlBinaries, runKubectl } from '../support/kubectl';
import { startSystem, type System } from '../support/startSystem';

const SLOW = 60_000;
const GROUP = 'dbaas.platform.dev';

const manifest = (name: string, replicas: number, labels: Record<string, string> = {}) =>
  JSON.stringify({
    apiVersion: `${GROUP}/v1alpha1`,
    kind: 'DatabaseInstance',
    metadata: { name, namespace: 'team-a', labels: { 'backstage.io/kubernetes-id': name, ...labels } },
    spec: { engine: 'mariadb', topology: 'replication', replicas },
  });

/**
 * Server-side apply as GitOps tools and people use it: `kubectl apply --server-side` (Flux and
 * Argo CD send the same request), a second manager and its conflict, `--force-conflicts`,
 * `kubectl diff --server-side`, and client-side and server-side apply on the same object.
 * Every kubectl that ships beside the default one is exercised on the create and the no-op.
 */
describe('server-side apply through kubectl (emulator + APIService + apiserver)', () => {
  const binaries = kubectlBinaries();
  const { file } = binaries[0];
  let system: System;
  let alice = '';
  const run = (args: string[], input?: string, bin = file) => runKubectl(bin, alice, `${system.dir}/home-ssa`, args, input);
  const ssa = (yaml: string, extra: string[] = [], bin = file) => run(['apply', '--server-side', '-f', '-', ...extra], yaml, bin);
  const getJson = async (name: string) => JSON.parse((await run(['get', 'dbi', name, '-n', 'team-a', '-o', 'json', '--show-managed-fields'])).stdout);
  const owners = (obj: any) => Object.fromEntries((obj.metadata.managedFields ?? []).map((e: any) => [`${e.manager}/${e.operation}`, e.fieldsV1]));

  beforeAll(async () => {
    system = await startSystem({ seed: false });
    // alice's RoleBinding (dbaas-edit in team-a) is made with the namespace
    const ns = await runKubectl(file, system.kubeconfig, `${system.dir}/home-ssa-admin`, ['create', 'namespace', 'team-a']);
    if (ns.code !== 0) throw new Error(`kubectl create namespace team-a: ${ns.stderr}`);
    alice = await system.kubeconfigFor('alice-token');
  }, 120_000);
  afterAll(async () => {
    await system?.stop();
  });

  it.each(binaries.map(b => [b.name, b.file]))('%s: creates with --server-side, and the same file applied again is a no-op', async (bin, binFile) => {
    const name = `ssa-${bin.replace(/\W/g, '')}`;
    const created = await ssa(manifest(name, 2), [], binFile);
    expect(created.stderr).toBe('');
    expect(created.stdout.trim()).toBe(`databaseinstance.${GROUP}/${name} serverside-applied`);
    const first = await getJson(name);
    expect(owners(first)['kubectl/Apply']).toEqual({
      'f:metadata': { 'f:labels': { 'f:backstage.io/kubernetes-id': {} } },
      'f:spec': { 'f:engine': {}, 'f:replicas': {}, 'f:topology': {} },
    });
    const again = await ssa(manifest(name, 2), [], binFile);
    expect(again.code).toBe(0);
    const second = await getJson(name);
    expect(second.metadata.managedFields).toEqual(first.metadata.managedFields);
    // nothing was written: the operator object kept its resourceVersion (status changes move the instance's)
    const source = (o: any) => o.status?.source;
    expect(source(second)).toEqual(source(first));
    expect(second.metadata.generation).toBe(first.metadata.generation);
  }, SLOW);

  it('a second manager is refused on a field the first applied; --force-conflicts takes it over', async () => {
    const name = 'ssa-conflict';
    expect((await ssa(manifest(name, 2))).code).toBe(0);
    const refused = await ssa(manifest(name, 3), ['--field-manager=team-b']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas');
    expect(refused.stderr).toContain('--force-conflicts');
    expect((await getJson(name)).spec.replicas).toBe(2);

    const forced = await ssa(manifest(name, 3), ['--field-manager=team-b', '--force-conflicts']);
    expect(forced.stderr).toBe('');
    const after = await getJson(name);
    expect(after.spec.replicas).toBe(3);
    expect(owners(after)['team-b/Apply']['f:spec']).toHaveProperty('f:replicas');
    expect(owners(after)['kubectl/Apply']['f:spec']).not.toHaveProperty('f:replicas');
  }, SLOW);

  it('kubectl diff --server-side shows what an apply would change and changes nothing', async () => {
    const name = 'ssa-diff';
    expect((await ssa(manifest(name, 2))).code).toBe(0);
    const before = await getJson(name);
    const diff = await run(['diff', '--server-side', '-f', '-'], manifest(name, 4));
    // kubectl diff exits 1 when there are differences
    expect(diff.code).toBe(1);
    expect(diff.stdout).toMatch(/^-\s+replicas: 2$/m);
    expect(diff.stdout).toMatch(/^\+\s+replicas: 4$/m);
    const same = await run(['diff', '--server-side', '-f', '-'], manifest(name, 2));
    expect(same.code).toBe(0);
    const after = await getJson(name);
    expect(after.spec.replicas).toBe(2);
    expect(after.metadata.managedFields).toEqual(before.metadata.managedFields);
  }, SLOW);

  it('client-side apply, then server-side apply of a changed file, then client-side again: no conflict, dropped fields go', async () => {
    const name = 'ssa-mixed';
    const csa = await run(['apply', '-f', '-'], manifest(name, 2, { tier: 'gold' }));
    expect(csa.stdout.trim()).toBe(`databaseinstance.${GROUP}/${name} created`);
    expect(Object.keys(owners(await getJson(name)))).toContain('kubectl-client-side-apply/Update');

    // the label is dropped and the replicas changed: kubectl takes over client-side apply's fields
    const moved = await ssa(manifest(name, 3));
    expect(moved.stderr).toBe('');
    const afterSsa = await getJson(name);
    expect(afterSsa.spec.replicas).toBe(3);
    expect(afterSsa.metadata.labels).not.toHaveProperty('tier');

    const back = await run(['apply', '-f', '-'], manifest(name, 2));
    expect(back.code).toBe(0);
    expect((await getJson(name)).spec.replicas).toBe(2);
  }, SLOW);
});
