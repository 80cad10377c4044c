import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import https from 'node:https';
import { kubectlBinaries, runKubectl } from '../support/kubectl';
import { startSystem, type System } from '../support/startSystem';

/** The policy ConfigMap is watched, and re-read every 5 s in case the watch is down (docs/policy.md): waits cover two periods. */
const RELOAD_MS = 12_000;
const SLOW = 60_000;

const GROUP = 'dbaas.platform.dev';

const policyConfigMap = (policyYaml: string) =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'dbaas-policy', namespace: 'dbaas-system' },
    data: { 'policy.yaml': policyYaml },
  });

const instance = (name: string, spec: Record<string, unknown>) =>
  JSON.stringify({ apiVersion: `${GROUP}/v1alpha1`, kind: 'DatabaseInstance', metadata: { name, namespace: 'team-a' }, spec });

const TEAM_A_RULES = `rules:
  - name: team-a-small
    namespaces: [team-a]
    engines: [mariadb, redis]
    max:
      replicasPerInstance: 3
`;

/**
 * The platform team's policy ConfigMap through the whole stack: kubectl → kube-apiserver
 * (emulator) → APIService → apiserver, which reads the ConfigMap with its own credentials.
 */
describe('policy ConfigMap (kubectl, emulator + APIService + apiserver --policy-configmap)', () => {
  const { file } = kubectlBinaries([])[0];
  let system: System;
  let alice = '';
  const run = (kubeconfig: string, args: string[], input?: string) => runKubectl(file, kubeconfig, `${system.dir}/home-policy`, args, input);
  const admin = (...args: string[]) => run(system.kubeconfig, args);
  const setPolicy = async (yaml: string) => expect((await run(system.kubeconfig, ['apply', '-f', '-'], policyConfigMap(yaml))).stderr).toBe('');
  const dryRunCreate = (name: string, spec: Record<string, unknown>) => run(alice, ['create', '--dry-run=server', '-f', '-'], instance(name, spec));
  /** Polls until `check` holds (the policy is re-read periodically), then returns its last result. */
  const eventually = async <T>(probe: () => Promise<T>, check: (t: T) => boolean, timeoutMs = RELOAD_MS): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const result = await probe();
      if (check(result) || Date.now() > deadline) return result;
      await new Promise(r => setTimeout(r, 250));
    }
  };
  const readyz = () =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      https
        .get({ host: '127.0.0.1', port: system.apiserver.port, path: '/readyz?verbose', rejectUnauthorized: false }, res => {
          let body = '';
          res.on('data', d => (body += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        })
        .on('error', reject);
    });

  const WIDER_RULES = TEAM_A_RULES.replace('[mariadb, redis]', '[mariadb, redis, elasticsearch]');
  const searchAllowed = async () => (await dryRunCreate('p-search', { engine: 'elasticsearch' })).code === 0;
  /**
   * Each case starts from the policy it is about, in force (the apiserver re-reads the
   * ConfigMap): they pass alone and in any order.
   */
  const inForce = async (yaml: string | undefined) => {
    if (yaml === undefined) await admin('delete', 'configmap', 'dbaas-policy', '-n', 'dbaas-system', '--ignore-not-found');
    else await setPolicy(yaml);
    const bigAllowed = async () => (await dryRunCreate('p-big', { engine: 'mariadb', topology: 'galera', replicas: 5 })).code === 0;
    const want = { none: [true, true], [TEAM_A_RULES]: [false, false], [WIDER_RULES]: [true, false] }[yaml ?? 'none']!;
    expect(await eventually(async () => [await searchAllowed(), await bigAllowed()], got => got.join() === want.join())).toEqual(want);
  };

  beforeAll(async () => {
    system = await startSystem({ seed: true, apiserver: { policyConfigMap: 'dbaas-system/dbaas-policy' } });
    alice = await system.kubeconfigFor('alice-token');
  }, 120_000);
  afterAll(async () => {
    await system?.stop();
  });

  it('without the ConfigMap there are no limits', async () => {
    await inForce(undefined);
    const r = await dryRunCreate('p-any', { engine: 'elasticsearch', replicas: 5 });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe(`databaseinstance.${GROUP}/p-any created (server dry run)`);
  }, SLOW);

  it('refuses with 403 what the policy does not allow, naming the rule, the request and the limit', async () => {
    await inForce(TEAM_A_RULES);
    const engine = await dryRunCreate('p-search', { engine: 'elasticsearch' });
    expect(engine.stderr).toMatch(/Error from server \(Forbidden\)/);
    expect(engine.stderr).toContain('engine "elasticsearch" is not allowed in namespace team-a by policy rule "team-a-small"; allowed: mariadb, redis');

    const big = await run(alice, ['apply', '-f', '-'], instance('p-big', { engine: 'mariadb', topology: 'galera', replicas: 5 }));
    expect(big.code).not.toBe(0);
    expect(big.stderr).toMatch(/Forbidden/);
    expect(big.stderr).toMatch(/exceeded policy: team-a-small, requested: replicasPerInstance=5, .*limited: replicasPerInstance=3/);
    // nothing was written: neither the instance nor the operator object
    expect((await admin('get', 'dbi', 'p-big', '-n', 'team-a')).stderr).toMatch(/NotFound/);
    expect((await admin('get', 'mariadbs.k8s.mariadb.com', 'p-big', '-n', 'team-a')).stderr).toMatch(/NotFound/);
  }, SLOW);

  it('an update that raises use above a limit is refused; within it, it goes through', async () => {
    await inForce(TEAM_A_RULES);
    const created = await run(alice, ['apply', '-f', '-'], instance('p-db', { engine: 'mariadb', topology: 'replication', replicas: 2 }));
    expect(created.stderr).toBe('');
    const over = await run(alice, ['patch', 'dbi', 'p-db', '-n', 'team-a', '--type=merge', '-p', '{"spec":{"replicas":4}}']);
    expect(over.stderr).toMatch(/forbidden: exceeded policy: team-a-small, requested: replicasPerInstance=/);
    const within = await run(alice, ['patch', 'dbi', 'p-db', '-n', 'team-a', '--type=merge', '-p', '{"spec":{"replicas":3}}']);
    expect(within.stderr).toBe('');
    expect(JSON.parse((await admin('get', 'dbi', 'p-db', '-n', 'team-a', '-o', 'json')).stdout).spec.replicas).toBe(3);
  }, SLOW);

  it('applies an edited ConfigMap without a restart', async () => {
    await inForce(TEAM_A_RULES);
    await setPolicy(WIDER_RULES);
    const r = await eventually(() => dryRunCreate('p-search', { engine: 'elasticsearch' }), x => x.code === 0);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe(`databaseinstance.${GROUP}/p-search created (server dry run)`);
  }, SLOW);

  it('a bad edit keeps the last good policy, and /readyz says what is wrong until it is fixed', async () => {
    await inForce(WIDER_RULES);
    await setPolicy('rules:\n  - name: broken\n    namespaces: [team-a]\n    max: { storage: "10 GB" }\n');
    const report = await eventually(readyz, r => r.body.includes('10 GB'));
    expect(report.body).toMatch(/rules\[0\]\.max\.storage: "10 GB" is not a quantity/);
    // the last good policy is still in force: elasticsearch allowed, 5 replicas not
    expect((await dryRunCreate('p-search', { engine: 'elasticsearch' })).code).toBe(0);
    expect((await dryRunCreate('p-big', { engine: 'mariadb', topology: 'galera', replicas: 5 })).stderr).toMatch(/exceeded policy: team-a-small/);

    await setPolicy(TEAM_A_RULES);
    const fixed = await eventually(readyz, r => !r.body.includes('10 GB'));
    expect(fixed.body).not.toContain('10 GB');
  }, SLOW);

  it('deleting the ConfigMap removes every limit', async () => {
    await inForce(TEAM_A_RULES);
    expect((await admin('delete', 'configmap', 'dbaas-policy', '-n', 'dbaas-system')).code).toBe(0);
    const r = await eventually(() => dryRunCreate('p-big', { engine: 'mariadb', topology: 'galera', replicas: 5 }), x => x.code === 0);
    expect(r.stderr).toBe('');
  }, SLOW);
});
