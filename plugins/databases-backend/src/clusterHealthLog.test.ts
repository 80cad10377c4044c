import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startSystem, type System } from '@internal/e2e';
import { emulatorCluster } from './__testUtils__/emulatorCluster';
import { eventually } from './__testUtils__/eventually';
import { startClustersBackend, type ClustersBackend } from './__testUtils__/startClustersBackend';

const TIME = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ';

/**
 * Issue 20: a cluster's health change is logged both ways, going down with the reason and coming
 * back with how long it was down (it used to recover without a word). The cluster's kube-apiserver
 * hangs (accepts, never answers) and then answers again.
 */
describe('the backend logs a cluster going down and coming back', () => {
  let system: System;
  let backend: ClustersBackend;
  const healthOf = async () => (await backend.call('carol', '/clusters')).body.items[0];

  beforeAll(async () => {
    system = await startSystem({ seed: true });
    backend = await startClustersBackend({ clusters: [emulatorCluster(system)], requestTimeoutMs: 1500 });
    await eventually(async () => (await healthOf()).healthy === true);
  }, 90_000);

  afterAll(async () => {
    system?.emulator.setFault('none');
    await backend?.stop();
    await system?.stop();
  }, 30_000);

  it('warns when its watch stops getting answers and says when it works again, after how long', async () => {
    const watchLines = () => backend.logs.lines.filter(l => l.includes('watch of cluster local'));
    expect(watchLines()).toEqual([]);

    system.emulator.setFault('hang'); // the open watch is cut, its reconnection hangs
    await eventually(() => watchLines().length > 0);
    expect(watchLines()).toEqual(['warn databases: watch of cluster local failed: cluster local did not answer within 1500 ms']);
    expect(await healthOf()).toMatchObject({ healthy: false, message: 'cluster local did not answer within 1500 ms' });

    system.emulator.setFault('none');
    await eventually(() => watchLines().length > 1, 30_000);
    expect(watchLines()[1]).toMatch(
      new RegExp(`^info databases: watch of cluster local works again after \\d+\\.\\d s \\(failing since ${TIME}\\)$`),
    );
    expect(watchLines()).toHaveLength(2);
    expect(await healthOf()).toMatchObject({ healthy: true });
  }, 60_000);
});
