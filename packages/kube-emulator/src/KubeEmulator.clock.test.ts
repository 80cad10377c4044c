import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { KubeEmulator } from './KubeEmulator';
import { MARIADB_KIND } from './operators/mariadb-operator/mariadbOperator';
import type { StoreEvent } from './store/types';

const HOUR = 3600_000;

describe('KubeEmulator with a clock of its own (options.now)', () => {
  let emulator: KubeEmulator;
  beforeAll(async () => {
    emulator = await KubeEmulator.start({ operatorStepMs: 50, heartbeatMs: 0, now: () => new Date(Date.now() - HOUR) });
  });
  afterAll(() => emulator?.stop());

  it("stamps the store's objects and the emulated operators' statuses with it", async () => {
    // the operator's first status, seen as it is written
    const written = new Promise<StoreEvent>(resolve => {
      const watch = emulator.store.watch(undefined, e => {
        if (e.object.metadata.name === 'clocked' && (e.object.status as any)?.conditions?.length) {
          watch.stop();
          resolve(e);
        }
      });
    });
    const made = emulator.store.create(MARIADB_KIND, {
      apiVersion: 'k8s.mariadb.com/v1alpha1',
      kind: 'MariaDB',
      metadata: { name: 'clocked', namespace: 'default' },
      spec: { image: 'mariadb:11.4.2', replicas: 1 },
    });
    const behind = (t: string) => Date.now() - Date.parse(t);
    expect(behind(made.metadata.creationTimestamp!)).toBeGreaterThan(HOUR - 60_000);
    const { object } = await written;
    for (const c of (object.status as any).conditions) expect(behind(c.lastTransitionTime)).toBeGreaterThan(HOUR - 60_000);
  });
});
