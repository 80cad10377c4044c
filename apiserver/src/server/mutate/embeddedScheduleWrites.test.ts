import { describe, expect, it, jest } from '@jest/globals';
import type { DatabaseBackupSchedule } from '@internal/plugin-databases-common';
import { mysqlOperatorAdapter } from '../../adapters/mysql-operator/adapter';
import { MYSQL_SCHEDULES } from '../../adapters/mysql-operator/schedule';
import type { KubeObject } from '../../adapters/types';
import type { AdapterWithSchedules } from '../../backups/backupRunAdapters';
import { deleteEmbedded, updateEmbedded } from './embeddedScheduleWrites';

const adapter = mysqlOperatorAdapter as AdapterWithSchedules;
/** Derived from mysql.oracle.com_innodbclusters.yaml: a cluster with the given schedule entries. */
const cluster = (entries: string[], rv: string): KubeObject => ({
  apiVersion: 'mysql.oracle.com/v2',
  kind: 'InnoDBCluster',
  metadata: { name: 'db', namespace: 'team-a', uid: 'c1', resourceVersion: rv },
  spec: { backupProfiles: [{ name: 'dump' }], backupSchedules: entries.map(name => ({ name, schedule: '0 3 * * *', backupProfileName: 'dump' })) },
});

/** Write deps over a cluster whose entry `nightly` was deleted after the schedule was read. */
function racing() {
  const before = cluster(['nightly', 'weekly'], '10');
  const now = cluster(['weekly'], '11');
  const source = { object: MYSQL_SCHEDULES.expand!(before)[0], kind: MYSQL_SCHEDULES, adapter };
  const mergePatch = jest.fn(async () => now);
  const deps = {
    store: { source: () => ({ object: now, kind: mysqlOperatorAdapter.kinds[0], adapter }), onApplied: () => () => {} },
    writer: { mergePatch },
    schedules: { get: () => undefined, onApplied: () => () => {}, builtFromRv: () => undefined },
    locks: { run: (_k: string, fn: () => Promise<unknown>) => fn() },
    cacheWaitMs: 10,
  } as any;
  const served = adapter.backups.schedules.project(source.object, MYSQL_SCHEDULES, { get: () => undefined });
  return { deps, source, served, mergePatch };
}

describe('embedded schedule writes racing a delete of the entry', () => {
  const ctx = { info: { namespace: 'team-a' }, req: { headers: {} }, res: {} } as any;

  it('an update of an entry deleted meanwhile is a 404 and writes nothing (no entry comes back)', async () => {
    const { deps, source, served, mergePatch } = racing();
    const desired: DatabaseBackupSchedule = { ...served, spec: { ...served.spec, suspend: true } };
    await expect(updateEmbedded(ctx, deps, { source, current: served, desired, dryRun: false, warnings: [] })).rejects.toMatchObject({ status: { code: 404, reason: 'NotFound' } });
    expect(mergePatch).not.toHaveBeenCalled();
  });

  it('a delete of an entry deleted meanwhile is a 404 and writes nothing', async () => {
    const { deps, source, mergePatch } = racing();
    await expect(deleteEmbedded(deps, { namespace: 'team-a', name: 'db-nightly', source })).rejects.toMatchObject({ status: { code: 404 } });
    expect(mergePatch).not.toHaveBeenCalled();
  });
});
