import { describe, expect, it } from '@jest/globals';
import type { DatabaseBackup, DatabaseBackupSchedule } from '@internal/plugin-databases-common';
import type { InstanceEvent, WatchableStore } from '../cache/types';
import { InstanceBackupIndex } from './InstanceBackupIndex';

/** A store whose events the test sends. */
function fakeStore<T>() {
  const watchers: Array<(e: InstanceEvent<T>) => void> = [];
  const store = {
    watch: (_rv: string | undefined, onEvent: (e: InstanceEvent<T>) => void) => {
      watchers.push(onEvent);
      return { stop: () => watchers.splice(watchers.indexOf(onEvent), 1) };
    },
  } as unknown as WatchableStore<T>;
  return { store, send: (e: InstanceEvent<T>) => watchers.forEach(w => w(e)), watchers };
}

const run = (name: string, instance: string, rv: string): DatabaseBackup =>
  ({ metadata: { name, namespace: 'team-a', resourceVersion: rv }, spec: { instanceRef: { name: instance } }, status: { phase: 'Succeeded' } }) as any;
const schedule = (name: string, instance: string, rv: string): DatabaseBackupSchedule =>
  ({ metadata: { name, namespace: 'team-a', resourceVersion: rv }, spec: { instanceRef: { name: instance }, schedule: '0 2 * * *' } }) as any;

describe('InstanceBackupIndex', () => {
  it("keeps each instance's runs and schedules from the stores' events, and hands every change on", () => {
    const backups = fakeStore<DatabaseBackup>();
    const schedules = fakeStore<DatabaseBackupSchedule>();
    const changed: string[] = [];
    const index = new InstanceBackupIndex({ backups: backups.store, schedules: schedules.store });
    index.follow((ns, name, rv) => changed.push(`${ns}/${name}@${rv}`));

    backups.send({ type: 'ADDED', object: run('a', 'orders-db', '10'), resourceVersion: '10' });
    backups.send({ type: 'ADDED', object: run('b', 'orders-db', '12'), resourceVersion: '12' });
    schedules.send({ type: 'ADDED', object: schedule('nightly', 'orders-db', '11'), resourceVersion: '11' });
    backups.send({ type: 'ADDED', object: run('c', 'cart-db', '13'), resourceVersion: '13' });
    expect(index.of('team-a', 'orders-db')).toMatchObject({ rv: '12', schedules: [{ metadata: { name: 'nightly' } }] });
    expect(index.of('team-a', 'orders-db')!.backups.map(b => b.metadata.name)).toEqual(['a', 'b']);

    // a run deleted: gone from its instance, which changes at the deletion's resourceVersion
    backups.send({ type: 'DELETED', object: run('b', 'orders-db', '15'), oldObject: run('b', 'orders-db', '12'), resourceVersion: '15' });
    expect(index.of('team-a', 'orders-db')!.backups.map(b => b.metadata.name)).toEqual(['a']);
    backups.send({ type: 'DELETED', object: run('c', 'cart-db', '16'), resourceVersion: '16' });
    expect(index.of('team-a', 'cart-db')).toBeUndefined();
    expect(changed).toEqual(['team-a/orders-db@10', 'team-a/orders-db@12', 'team-a/orders-db@11', 'team-a/cart-db@13', 'team-a/orders-db@15', 'team-a/cart-db@16']);

    // one the adapter could not read (no instance named) belongs to none
    backups.send({ type: 'ADDED', object: run('d', '', '17'), resourceVersion: '17' });
    expect(changed).toHaveLength(6);

    index.stop();
    expect(backups.watchers).toHaveLength(0);
    expect(schedules.watchers).toHaveLength(0);
  });
});
