import { afterEach, describe, expect, it } from '@jest/globals';
import type { DatabaseBackup } from '@internal/plugin-databases-common';
import { mariadbOperatorAdapter } from '../adapters/mariadb-operator/adapter';
import { MARIADB_BACKUP } from '../adapters/mariadb-operator/backup';
import type { KubeObject } from '../adapters/types';
import { crdFor } from '../cache/testAdapters';
import { fakeInformers } from '../cache/testInformer';
import { until } from '../cache/testKubeApi';
import { cronJobRun } from '../adapters/__testUtils__/jobFixture';
import type { InstanceEvent } from '../cache/types';
import { BackupStore } from './BackupStore';

const JOBS = { group: 'batch', plural: 'jobs' };
const CRDS = { group: 'apiextensions.k8s.io', plural: 'customresourcedefinitions' };

/** A mariadb-operator Backup (k8s.mariadb.com_backups.yaml), scheduled unless `schedule` is false. */
const backup = (rv: string, schedule = true): KubeObject => ({
  apiVersion: 'k8s.mariadb.com/v1alpha1',
  kind: 'Backup',
  metadata: { name: 'orders-nightly', namespace: 'team-a', uid: 'b-1', resourceVersion: rv },
  spec: { mariaDbRef: { name: 'orders-db' }, ...(schedule && { schedule: { cron: '*/5 * * * *' } }) },
});

/** A Job of the Backup's CronJob (cronJobRun), running unless told otherwise. */
const run = (rv: string, status: Record<string, unknown> = { startTime: '2026-07-01T10:00:00Z', active: 1, ready: 1 }): KubeObject =>
  cronJobRun({ name: 'orders-nightly-29442600', namespace: 'team-a', cronJob: 'orders-nightly', rv }, status);

describe('BackupStore: the runs of a mariadb-operator schedule', () => {
  let stop = () => {};
  afterEach(() => stop());

  function setup() {
    const { factory, of: inf } = fakeInformers();
    const store = new BackupStore({
      adapters: [mariadbOperatorAdapter],
      informerFactory: factory,
      batchWindowMs: 5,
      restartBackoff: { initialMs: 10, maxMs: 40 },
    });
    const events: InstanceEvent<DatabaseBackup>[] = [];
    store.start();
    store.watch(undefined, e => events.push(e));
    stop = () => store.stop();
    return { store, events, inf };
  }

  it('watches Jobs once, from the start, as runs and as what one-off runs are decided from', () => {
    const { inf } = setup();
    expect(inf(JOBS).running).toBe(true);
    expect(inf(JOBS).starts).toBe(1);
  });

  it('serves a Job seen before its scheduled Backup once the Backup comes, and takes it away when the schedule goes', async () => {
    const { store, events, inf } = setup();
    inf(CRDS).listed(crdFor(MARIADB_BACKUP, '1'));
    inf(JOBS).listed(run('5'));
    inf(MARIADB_BACKUP).listed();
    await until(() => store.hasSynced(), 'sync');
    expect(store.list('team-a')).toEqual([]);

    inf(MARIADB_BACKUP).upsert(backup('6'));
    await until(() => store.get('team-a', 'orders-nightly-29442600') !== undefined, 'the run served');
    const served = store.get('team-a', 'orders-nightly-29442600')!;
    expect(served.spec.instanceRef).toEqual({ name: 'orders-db' });
    expect(served.status?.phase).toBe('Running');
    expect(served.metadata.resourceVersion).toBe('6');

    inf(JOBS).upsert(run('7', { startTime: '2026-07-01T10:00:00Z', completionTime: '2026-07-01T10:01:00Z', succeeded: 1, conditions: [{ type: 'Complete', status: 'True' }] }));
    await until(() => store.get('team-a', 'orders-nightly-29442600')?.status?.phase === 'Succeeded', 'the run Succeeded');

    // the schedule removed: the Backup is a one-off run now, and the Job no run of a schedule
    inf(MARIADB_BACKUP).upsert(backup('8', false));
    await until(() => store.get('team-a', 'orders-nightly-29442600') === undefined, 'the run gone');
    expect(store.get('team-a', 'orders-nightly')).toBeDefined();
    const seen = events.map(e => [e.type, e.object.metadata.name, e.resourceVersion]);
    expect(seen.slice(0, 2)).toEqual([
      ['ADDED', 'orders-nightly-29442600', '6'],
      ['MODIFIED', 'orders-nightly-29442600', '7'],
    ]);
    // one change of the Backup, two objects: both at its resourceVersion
    expect(seen.slice(2)).toEqual(
      expect.arrayContaining([
        ['DELETED', 'orders-nightly-29442600', '8'],
        ['ADDED', 'orders-nightly', '8'],
      ]),
    );
    expect(seen).toHaveLength(4);
  });

  it('drops a run when the CronJob prunes its Job', async () => {
    const { store, events, inf } = setup();
    inf(CRDS).listed(crdFor(MARIADB_BACKUP, '1'));
    inf(MARIADB_BACKUP).listed(backup('2'));
    inf(JOBS).listed(run('3'));
    await until(() => store.hasSynced() && store.list('team-a').length === 1, 'the run served');
    inf(JOBS).remove(run('4'));
    await until(() => store.list('team-a').length === 0, 'the run gone');
    expect(events.at(-1)).toMatchObject({ type: 'DELETED', resourceVersion: '4' });
  });
});
