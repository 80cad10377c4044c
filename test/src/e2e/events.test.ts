import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runKubectl } from '../support/kubectl';
import { cacheReached } from '../support/cacheCaughtUp';
import { eventually } from '../support/eventually';
import { startSystem, type System } from '../support/startSystem';

const BOOKMARK_MS = 500;
/** How long a test waits for the mirrored events; a test's own bound is above it, so the wait's message is the failure. */
const WAIT_MS = 20_000;
const TEST_MS = WAIT_MS + 10_000;

describe("kubectl describe dbi shows the events of the operator's objects (emulated operators with failing members)", () => {
  let system: System;
  const kubectl = (...args: string[]) => runKubectl('kubectl', system.kubeconfig, `${system.dir}/home-events`, args);
  /** The output of `kubectl args` once it satisfies `done` (run again until it does, at most WAIT_MS). */
  const until = (args: string[], done: (stdout: string) => boolean) =>
    eventually(
      async () => {
        const r = await kubectl(...args);
        if (r.code === 0 && done(r.stdout)) return r.stdout;
        throw new Error(`last output:\n${r.stdout}${r.stderr}`);
      },
      `kubectl ${args.join(' ')} satisfies the test`,
      WAIT_MS,
    );

  beforeAll(async () => {
    system = await startSystem({ seed: true, bookmarkIntervalMs: BOOKMARK_MS });
    system.emulator.operators.settle();
    await cacheReached(system, system.emulator.store.currentRV(), 20 * BOOKMARK_MS);
  }, 120_000);
  afterAll(async () => {
    await system?.stop();
  });

  it("the crash-looping member's BackOff is in describe's Events, from kubelet, naming the pod", async () => {
    const out = await until(['describe', 'dbi', '-n', 'team-a', 'payments-ledger'], s => /BackOff/.test(s));
    const events = out.slice(out.indexOf('\nEvents:'));
    expect(events).toMatch(/Type\s+Reason\s+Age\s+From\s+Message/);
    expect(events).toMatch(/Warning\s+BackOff\s+\S+\s+kubelet\s+Pod payments-ledger-2: Back-off restarting failed container mariadb in pod payments-ledger-2_team-a/);
  }, TEST_MS);

  it("is the instance's own event: kubectl get events selects it by the instance", async () => {
    const out = await until(
      ['get', 'events', '-n', 'team-b', '--field-selector', 'involvedObject.kind=DatabaseInstance,involvedObject.name=search-logs', '-o', 'json'],
      s => JSON.parse(s).items.length > 0,
    );
    const items = JSON.parse(out).items;
    expect(items.map((e: any) => e.reason)).toContain('ProvisioningFailed');
    const provisioning = items.find((e: any) => e.reason === 'ProvisioningFailed');
    expect(provisioning.involvedObject).toMatchObject({ apiVersion: 'dbaas.platform.dev/v1alpha1', kind: 'DatabaseInstance', name: 'search-logs' });
    const dbi = JSON.parse((await kubectl('get', 'dbi', '-n', 'team-b', 'search-logs', '-o', 'json')).stdout);
    expect(provisioning.involvedObject.uid).toBe(dbi.metadata.uid);
    expect(provisioning.related).toMatchObject({ kind: 'PersistentVolumeClaim', name: expect.stringMatching(/^elasticsearch-data-search-logs-es-/) });
    expect(provisioning.source.component).toBe('persistentvolume-controller');
  }, TEST_MS);

  it('a fault that starts now reaches describe of its instance; a healthy instance has none', async () => {
    expect((await kubectl('describe', 'dbi', '-n', 'team-a', 'orders-db')).stdout).toMatch(/Events:\s+<none>/);
    system.emulator.operators.setHealth({ kind: 'MariaDB', namespace: 'team-a', name: 'orders-db' }, 'degraded');
    system.emulator.operators.setFault({ kind: 'MariaDB', namespace: 'team-a', name: 'orders-db' }, 'image-pull');
    system.emulator.operators.settle();
    const out = await until(['describe', 'dbi', '-n', 'team-a', 'orders-db'], s => /Failed to pull image/.test(s));
    expect(out).toMatch(/Warning\s+Failed\s+\S+\s+kubelet\s+Pod orders-db-\d: Failed to pull image/);
  }, TEST_MS);
});
