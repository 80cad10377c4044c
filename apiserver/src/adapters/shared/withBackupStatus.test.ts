import { describe, expect, it } from '@jest/globals';
import { readSample } from '../__testUtils__/operatorFiles';
import { emptyLookup } from '../__testUtils__/schemaDerivedFixtures';
import { findAdapterForEngine } from '../registry';
import type { KubeObject } from '../types';
import { instanceBackupStatus } from './withBackupStatus';

const adapter = (engine: string) => findAdapterForEngine(engine)!;
const projected = (engine: string, source: KubeObject) => {
  const a = adapter(engine);
  return a.project(source, a.kinds[0], emptyLookup).status?.backup;
};

describe('status.backup: what an instance can do about backups now', () => {
  it('an engine whose operator has no backup objects can do nothing, and says why', () => {
    const redis = readSample('redis-operator', 'redis-cluster.yaml', 'RedisCluster');
    expect(projected('redis', redis)).toEqual({
      onDemand: false,
      schedule: false,
      restore: false,
      pointInTime: false,
      reason: 'redis-operator has no backup or restore objects',
    });
  });

  it('a MariaDB can be backed up now (mariadb-operator needs no destination on the MariaDB)', () => {
    const mariadb = readSample('mariadb-operator', 'mariadb_minimal.yaml', 'MariaDB');
    expect(projected('mariadb', mariadb)).toEqual({ ...adapter('mariadb').backups!.capabilities });
  });

  it('a CloudNativePG Cluster without a backup destination cannot, in the backup side\'s words; restoring from other backups still can', () => {
    const cluster = readSample('cloudnative-pg', 'cluster-example.yaml', 'Cluster');
    const backup = instanceBackupStatus(adapter('postgresql'), cluster);
    expect(backup).toMatchObject({ onDemand: false, schedule: false, restore: true, pointInTime: true });
    expect(backup.reason).toMatch(/barmanObjectStore|backup/);
    expect(backup.reason).not.toMatch(/^(Required value|Invalid value)/);
  });

  it('a CloudNativePG Cluster with barmanObjectStore can, with the times the operator records on its status', () => {
    const cluster = readSample('cloudnative-pg', 'cluster-example-with-backup.yaml', 'Cluster');
    const withTimes = {
      ...cluster,
      status: { lastSuccessfulBackup: '2026-12-01T10:01:30Z', lastFailedBackup: '2026-11-30T10:00:00Z', firstRecoverabilityPoint: '2026-11-01T00:00:00Z' },
    };
    expect(instanceBackupStatus(adapter('postgresql'), withTimes)).toEqual({
      ...adapter('postgresql').backups!.capabilities,
      lastSuccessfulTime: '2026-12-01T10:01:30Z',
      lastFailedTime: '2026-11-30T10:00:00Z',
      firstRecoverabilityPoint: '2026-11-01T00:00:00Z',
    });
  });

  it('an InnoDBCluster without backupProfiles cannot (the operator needs one to know where to write)', () => {
    const cluster = readSample('mysql-operator', 'sample-cluster.yaml', 'InnoDBCluster');
    const backup = instanceBackupStatus(adapter('mysql'), cluster);
    expect(backup).toMatchObject({ onDemand: false, schedule: false, restore: true });
    expect(backup.reason).toMatch(/backupProfiles/);
  });
});
