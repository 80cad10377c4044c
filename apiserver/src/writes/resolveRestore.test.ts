import { describe, expect, it } from '@jest/globals';
import type { DatabaseBackup, DatabaseEngineName } from '@internal/plugin-databases-common';
import { adapters } from '../adapters/registry';
import type { KubeObject, OperatorAdapter } from '../adapters/types';
import { resolveRestore, type RestoreLookups } from './resolveRestore';

const NOW = new Date('2026-07-01T12:00:00Z');
const adapterOf = (engine: DatabaseEngineName) => adapters.find(a => a.engine === engine)! as OperatorAdapter;
const resolve = (engine: DatabaseEngineName, value: unknown, lookups: Partial<RestoreLookups> = {}) => {
  const adapter = adapterOf(engine);
  return resolveRestore(value, adapter, adapter.write!, { namespace: 'team-a', now: NOW, backup: () => undefined, instance: () => undefined, ...lookups });
};
const fields = (r: { causes: Array<{ field: string }> }) => r.causes.map(c => c.field);

const mariadbBackup = (phase: string, restorable = phase === 'Succeeded', engine = 'mariadb'): { backup: DatabaseBackup; object: KubeObject } => ({
  backup: {
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseBackup',
    metadata: { name: 'b1', namespace: 'team-a' },
    spec: { instanceRef: { name: 'orders-db' } },
    status: { phase, engine, restorable, source: { apiVersion: 'k8s.mariadb.com/v1alpha1', kind: 'Backup', name: 'b1', operator: 'mariadb-operator' } },
  } as DatabaseBackup,
  object: { apiVersion: 'k8s.mariadb.com/v1alpha1', kind: 'Backup', metadata: { name: 'b1', namespace: 'team-a' } },
});
const pgCluster = (objectStore: boolean): KubeObject => ({
  apiVersion: 'postgresql.cnpg.io/v1',
  kind: 'Cluster',
  metadata: { name: 'ledger', namespace: 'team-a' },
  spec: { instances: 1, ...(objectStore && { backup: { barmanObjectStore: { destinationPath: 's3://b/' } } }) },
});
const pgInstance = (objectStore = true) => () => ({ adapter: adapterOf('postgresql'), object: pgCluster(objectStore) });

describe('resolveRestore (spec.restoreFrom on create)', () => {
  it('nothing asked: nothing to do', () => {
    expect(resolve('mariadb', undefined)).toEqual({ causes: [] });
  });

  it('a Succeeded, restorable backup of the engine is the source', () => {
    const found = mariadbBackup('Succeeded');
    const r = resolve('mariadb', { backup: 'b1' }, { backup: () => found });
    expect(r).toEqual({ causes: [], source: { backup: found.backup, backupObject: found.object } });
  });

  it.each([
    ['Running', /is Running: only a Succeeded backup can be restored/],
    ['Failed', /is Failed: only a Succeeded backup can be restored/],
  ])('refuses a %s backup', (phase, message) => {
    const r = resolve('mariadb', { backup: 'b1' }, { backup: () => mariadbBackup(phase) });
    expect(fields(r)).toEqual(['spec.restoreFrom.backup']);
    expect(r.causes[0].message).toMatch(message);
  });

  it('refuses a missing backup, another engine\'s, an engine without backups, both forms, neither, wrong types', () => {
    expect(resolve('mariadb', { backup: 'nope' }).causes[0]).toMatchObject({ reason: 'FieldValueNotFound', field: 'spec.restoreFrom.backup' });
    expect(resolve('postgresql', { backup: 'b1' }, { backup: () => mariadbBackup('Succeeded') }).causes[0].message).toMatch(/mariadb instance: it cannot be restored into a postgresql instance/);
    expect(resolve('redis', { backup: 'b1' }).causes[0]).toMatchObject({ field: 'spec.restoreFrom', reason: 'FieldValueForbidden' });
    expect(resolve('postgresql', { backup: 'b1', instance: 'ledger', pointInTime: '2026-07-01T11:00:00Z' }).causes[0].message).toMatch(/not both/);
    expect(fields(resolve('postgresql', {}))).toEqual(['spec.restoreFrom']);
    expect(fields(resolve('postgresql', { backup: 3 }))).toEqual(['spec.restoreFrom.backup']);
    expect(fields(resolve('postgresql', 'b1'))).toEqual(['spec.restoreFrom']);
  });

  it('a point in time: CloudNativePG from a Cluster with an object store, in the past, RFC 3339', () => {
    const r = resolve('postgresql', { instance: 'ledger', pointInTime: '2026-07-01T11:00:00+01:00' }, { instance: pgInstance() });
    expect(r).toEqual({ causes: [], source: { instance: pgCluster(true), pointInTime: '2026-07-01T11:00:00+01:00' } });
  });

  it('refuses a future time, a malformed one, a missing instance or time, and a Cluster without an object store, each named', () => {
    expect(resolve('postgresql', { instance: 'ledger', pointInTime: '2026-07-01T12:00:01Z' }, { instance: pgInstance() }).causes[0].message).toMatch(/is in the future/);
    expect(resolve('postgresql', { instance: 'ledger', pointInTime: '2026-07-01 11:00' }, { instance: pgInstance() }).causes[0].message).toMatch(/must be an RFC 3339 time/);
    expect(fields(resolve('postgresql', { pointInTime: 'x' }))).toEqual(['spec.restoreFrom.pointInTime', 'spec.restoreFrom.instance']);
    expect(fields(resolve('postgresql', { instance: 'ledger' }, { instance: pgInstance() }))).toEqual(['spec.restoreFrom.pointInTime']);
    expect(resolve('postgresql', { instance: 'ledger', pointInTime: '2026-07-01T11:00:00Z' }, { instance: pgInstance(false) }).causes[0].message).toMatch(/no backup destination/);
  });

  it('refuses a point in time where the operator has none, in its own words (MariaDB, MySQL)', () => {
    expect(resolve('mariadb', { instance: 'orders-db', pointInTime: '2026-07-01T11:00:00Z' }).causes[0]).toMatchObject({
      field: 'spec.restoreFrom.pointInTime',
      message: expect.stringMatching(/closest backup before a time .*does not pass that off as a point in time/),
    });
    expect(resolve('mysql', { instance: 'payments-db', pointInTime: '2026-07-01T11:00:00Z' }).causes[0].message).toMatch(/loads a dump/);
  });
});
