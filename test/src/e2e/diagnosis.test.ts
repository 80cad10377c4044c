import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runKubectl } from '../support/kubectl';
import { cacheReached } from '../support/cacheCaughtUp';
import { startSystem, type System } from '../support/startSystem';

const BOOKMARK_MS = 500;
const path = (ns: string, name: string) => `/apis/dbaas.platform.dev/v1alpha1/namespaces/${ns}/databaseinstances/${name}/diagnosis`;

describe('kubectl get --raw .../diagnosis on the demo (emulated operators with failing members)', () => {
  let system: System;
  const kubectl = (...args: string[]) => runKubectl('kubectl', system.kubeconfig, `${system.dir}/home-diagnosis`, args);
  const diagnosis = async (ns: string, name: string, ...as: string[]) => {
    const r = await kubectl('get', '--raw', path(ns, name), ...as);
    return { ...r, body: r.code === 0 ? JSON.parse(r.stdout) : undefined };
  };

  beforeAll(async () => {
    system = await startSystem({ seed: true, bookmarkIntervalMs: BOOKMARK_MS });
    system.emulator.operators.settle();
    await cacheReached(system, system.emulator.store.currentRV(), 20 * BOOKMARK_MS);
  }, 120_000);
  afterAll(async () => {
    await system?.stop();
  });

  it('a Ready instance has no findings', async () => {
    const { body, stderr } = await diagnosis('team-a', 'orders-db');
    expect(stderr).toBe('');
    expect(body).toMatchObject({ kind: 'DatabaseInstanceDiagnosis', phase: 'Ready', findings: [] });
  });

  it('a Galera cluster recovering says so per member, and names the crash-looping member', async () => {
    const { body } = await diagnosis('team-a', 'payments-ledger');
    expect(body.phase).toBe('Degraded');
    const reasons = body.findings.map((f: { reason: string }) => f.reason);
    expect(reasons).toEqual(['GaleraRecoveryInProgress', 'CrashLoopBackOff']);
    const crash = body.findings[1];
    expect(crash.objects).toEqual([{ apiVersion: 'v1', kind: 'Pod', name: 'payments-ledger-2', namespace: 'team-a' }]);
    expect(crash.hint).toContain('kubectl logs -n team-a payments-ledger-2 -c mariadb --previous');
    // the pod it names is the one kubectl shows crash-looping
    const pod = JSON.parse((await kubectl('get', 'pod', '-n', 'team-a', 'payments-ledger-2', '-o', 'json')).stdout);
    expect(pod.status.containerStatuses[0].state.waiting.reason).toBe('CrashLoopBackOff');
  });

  it('an Elasticsearch cluster provisioning names the claims no volume binds', async () => {
    const { body } = await diagnosis('team-b', 'search-logs');
    expect(body.phase).toBe('Provisioning');
    const pending = body.findings.filter((f: { reason: string }) => f.reason === 'PersistentVolumeClaimPending');
    expect(pending.map((f: { objects: Array<{ name: string }> }) => f.objects[0].name).sort()).toEqual([
      'elasticsearch-data-search-logs-es-data-1',
      'elasticsearch-data-search-logs-es-masters-2',
    ]);
    const pvcs = (await kubectl('get', 'pvc', '-n', 'team-b', '--no-headers', '-o', 'custom-columns=NAME:.metadata.name,STATUS:.status.phase')).stdout;
    expect(pvcs).toMatch(/elasticsearch-data-search-logs-es-data-1\s+Pending/);
  });

  it('a failed instance whose members show nothing says the operator reason, about its object', async () => {
    const { body } = await diagnosis('team-c', 'notifications-archive');
    expect(body.phase).toBe('Failed');
    expect(body.findings).toEqual([
      expect.objectContaining({
        severity: 'Error',
        message: 'Error creating StatefulSet: exceeded quota: compute-resources',
        objects: [expect.objectContaining({ kind: 'MariaDB', name: 'notifications-archive' })],
      }),
    ]);
  });

  it('is its own permission: a user without it is Forbidden, a team editor has it in its own namespace', async () => {
    const nobody = await diagnosis('team-a', 'orders-db', '--as=nobody@example.com');
    expect(nobody.code).not.toBe(0);
    expect(nobody.stderr).toMatch(/forbidden.*databaseinstances\/diagnosis|Forbidden/);
    const alice = await diagnosis('team-a', 'payments-ledger', '--as=alice', '--as-group=team-a', '--as-group=system:authenticated');
    expect(alice.code).toBe(0);
    expect(alice.body.findings.length).toBeGreaterThan(0);
  });

  it('an unknown instance is 404 NotFound', async () => {
    const r = await diagnosis('team-a', 'no-such-db');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('NotFound');
  });
});
