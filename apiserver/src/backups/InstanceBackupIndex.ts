import type { DatabaseBackup, DatabaseBackupSchedule } from '@internal/plugin-databases-common';
import { maxResourceVersion } from '../cache/resourceVersion';
import type { WatchableStore, WatchSubscription } from '../cache/types';
import type { InstanceBackups } from './withBackupTimes';

type Served = DatabaseBackup | DatabaseBackupSchedule;

/**
 * The served backup runs and schedules of each instance (by the operator object's
 * `namespace/name` their `spec.instanceRef` names), kept from the backup stores' events, so an
 * instance's projection reads its own in O(its backups) instead of scanning a namespace. Every
 * change is handed on (`follow`) for the instance to be projected again.
 */
export class InstanceBackupIndex {
  private readonly byInstance = new Map<string, { backups: Map<string, DatabaseBackup>; schedules: Map<string, DatabaseBackupSchedule> }>();
  private readonly subscriptions: WatchSubscription[] = [];
  private changed: (namespace: string, instance: string, rv: string) => void = () => {};

  constructor(stores: { backups: WatchableStore<DatabaseBackup>; schedules: WatchableStore<DatabaseBackupSchedule> }) {
    // live from now: subscribed before the stores start, their initial lists arrive as events too
    this.subscriptions.push(
      stores.backups.watch(undefined, e => this.apply('backups', e.type, e.object, e.oldObject, e.resourceVersion)),
      stores.schedules.watch(undefined, e => this.apply('schedules', e.type, e.object, e.oldObject, e.resourceVersion)),
    );
  }

  /** Where each change goes from now (the instance store, built after this index it reads from). */
  follow(changed: (namespace: string, instance: string, rv: string) => void): void {
    this.changed = changed;
  }

  /** What `namespace/name`'s instance has, and the largest resourceVersion among it. */
  of(namespace: string, name: string): InstanceBackups | undefined {
    const found = this.byInstance.get(`${namespace}/${name}`);
    if (!found) return undefined;
    const backups = [...found.backups.values()];
    const schedules = [...found.schedules.values()];
    const rv = maxResourceVersion(...[...backups, ...schedules].map(o => o.metadata.resourceVersion));
    return { backups, schedules, rv };
  }

  stop(): void {
    this.subscriptions.forEach(s => s.stop());
  }

  private apply(kind: 'backups' | 'schedules', type: string, object: Served, old: Served | undefined, rv: string): void {
    const before = old && instanceKey(old);
    const after = instanceKey(object);
    if (before && before !== after) this.remove(kind, before, old!);
    if (!after) {
      // a run or schedule whose instance is not known (an object the adapter could not read)
    } else if (type === 'DELETED') this.remove(kind, after, object);
    else {
      let entry = this.byInstance.get(after);
      if (!entry) this.byInstance.set(after, (entry = { backups: new Map(), schedules: new Map() }));
      (entry[kind] as Map<string, Served>).set(object.metadata.name!, object);
    }
    for (const key of new Set([before, after])) {
      if (!key) continue;
      const [namespace, instance] = key.split('/');
      this.changed(namespace, instance, rv);
    }
  }

  private remove(kind: 'backups' | 'schedules', key: string, object: Served): void {
    const entry = this.byInstance.get(key);
    if (!entry) return;
    entry[kind].delete(object.metadata.name!);
    if (entry.backups.size === 0 && entry.schedules.size === 0) this.byInstance.delete(key);
  }
}

function instanceKey(o: Served): string | undefined {
  const name = o.spec?.instanceRef?.name;
  return name ? `${o.metadata.namespace}/${name}` : undefined;
}
