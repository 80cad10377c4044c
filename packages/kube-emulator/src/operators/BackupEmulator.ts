import type { ObjectStore, ResourceKey, StoredObject } from '../store/types';
import { jsonEqual } from '../store/jsonEqual';
import { cronJobStep } from './batch/cronJobRun';
import { nextJobStatus } from './batch/jobRun';
import { restoreFails } from './restoreFate';
import type { BackupFate, BackupWorld, EmulatedOperator, ObjectRef } from './types';

/**
 * The emulator's fail switch for backup runs (never a real operator's): `"true"` on a backup
 * object (mariadb-operator Backup, MySQLBackup, CloudNativePG Backup) makes its run fail, as a
 * dump that cannot reach the database would; `"pending"` keeps its Job's pod from ever starting
 * (no node fits). Read on the backup object, or on the object that owns a Job's CronJob.
 */
export const FAIL_BACKUP_ANNOTATION = 'emulator.dbaas.platform.dev/fail-backup';

export const JOBS: ResourceKey = { group: 'batch', version: 'v1', plural: 'jobs' };
export const CRONJOBS: ResourceKey = { group: 'batch', version: 'v1', plural: 'cronjobs' };

const errorCode = (e: unknown): number | undefined => (e as { code?: number })?.code;

/**
 * Runs, each round of OperatorEmulator, the operators' backup objects (EmulatedBackups) and the
 * two controllers of kube-controller-manager they rely on: CronJobs fire Jobs when their schedule
 * comes, and Jobs run their one pod to success or failure (batch/). Jobs and CronJobs whose
 * controlling owner is gone are deleted (garbage collection).
 */
export class BackupEmulator {
  private readonly forced = new Map<string, BackupFate>();

  constructor(
    private readonly store: ObjectStore,
    private readonly operators: EmulatedOperator[],
    private readonly now: () => Date,
  ) {}

  /** Makes one backup object's run fail (or never start), as FAIL_BACKUP_ANNOTATION does; `succeed` undoes it. */
  failBackup(ref: ObjectRef, fate: BackupFate = 'fail'): void {
    const key = `${ref.group ?? ''}/${ref.kind}/${ref.namespace}/${ref.name}`;
    if (fate === 'succeed') this.forced.delete(key);
    else this.forced.set(key, fate);
  }

  /** One round; returns how many writes it made. */
  tick(): number {
    const now = new Date(Math.floor(this.now().getTime() / 1000) * 1000);
    const world: BackupWorld = {
      now,
      get: (key, ns, name) => (this.store.resource(key) ? this.store.get(key, ns, name) : undefined),
      list: (key, ns) => (this.store.resource(key) ? this.store.list(key, ns) : []),
      fate: obj => this.fate(obj),
    };
    let changes = 0;
    for (const op of this.operators) {
      for (const kind of op.backups?.kinds ?? []) {
        if (!this.store.resource(kind)) continue;
        for (const obj of this.store.list(kind)) {
          if (obj.metadata.deletionTimestamp) continue;
          const step = op.backups!.reconcile(obj, kind, world);
          for (const c of step.create ?? []) changes += this.createIfAbsent(c.resource, c.body);
          for (const u of step.update ?? []) changes += this.updateSpec(u.resource, u.body);
          for (const d of step.delete ?? []) changes += this.remove(d.resource, obj.metadata.namespace, d.name);
          if (step.status) changes += this.writeStatus(kind, obj, step.status);
        }
      }
    }
    if (this.store.resource(CRONJOBS) && this.store.resource(JOBS)) changes += this.runCronJobs(now);
    if (this.store.resource(JOBS)) changes += this.runJobs(now);
    return changes;
  }

  private runCronJobs(now: Date): number {
    let changes = 0;
    for (const cj of this.store.list(CRONJOBS)) {
      if (this.collect(CRONJOBS, cj)) {
        changes++;
        continue;
      }
      const jobs = this.store
        .list(JOBS, cj.metadata.namespace)
        .filter(j => j.metadata.ownerReferences?.some(r => r.controller && r.uid === cj.metadata.uid));
      const step = cronJobStep(cj, jobs, now);
      if (step.job) changes += this.createIfAbsent(JOBS, step.job);
      for (const name of step.deleteJobs) changes += this.remove(JOBS, cj.metadata.namespace, name);
      changes += this.writeStatus(CRONJOBS, cj, step.status);
    }
    return changes;
  }

  private runJobs(now: Date): number {
    let changes = 0;
    for (const job of this.store.list(JOBS)) {
      if (this.collect(JOBS, job)) {
        changes++;
        continue;
      }
      const status = nextJobStatus(job, this.fate(job), now);
      if (status) changes += this.writeStatus(JOBS, job, status);
    }
    return changes;
  }

  /** How `obj`'s run is meant to end: its own switch, or that of the object controlling it. */
  private fate(obj: StoredObject, depth = 0): BackupFate {
    const forced = this.forced.get(this.refKey(obj));
    if (forced) return forced;
    const asked = obj.metadata.annotations?.[FAIL_BACKUP_ANNOTATION];
    if (asked === 'true') return 'fail';
    if (asked === 'pending') return 'pending';
    // a restore's Job (mariadb-operator: Job → Restore → MariaDB) fails as the instance asks
    if (restoreFails(obj)) return 'fail';
    const owner = depth < 3 ? this.controller(obj) : undefined;
    return owner ? this.fate(owner, depth + 1) : 'succeed';
  }

  private refKey(obj: StoredObject): string {
    const group = obj.apiVersion.includes('/') ? obj.apiVersion.split('/')[0] : '';
    return `${group}/${obj.kind}/${obj.metadata.namespace ?? ''}/${obj.metadata.name}`;
  }

  /** The object named by `obj`'s controlling ownerReference, if it (still) exists with that uid. */
  private controller(obj: StoredObject): StoredObject | undefined {
    const ref = obj.metadata.ownerReferences?.find(r => r.controller);
    if (!ref) return undefined;
    const def = this.store
      .resources()
      .find(d => d.kind === ref.kind && (d.group ? `${d.group}/${d.version}` : d.version) === ref.apiVersion);
    const owner = def && this.store.get(def, obj.metadata.namespace, String(ref.name));
    return owner?.metadata.uid === ref.uid ? owner : undefined;
  }

  /** Garbage collection of a Job or CronJob whose controller is gone. */
  private collect(key: ResourceKey, obj: StoredObject): boolean {
    if (!obj.metadata.ownerReferences?.some(r => r.controller) || this.controller(obj)) return false;
    return this.remove(key, obj.metadata.namespace, obj.metadata.name) > 0;
  }

  private createIfAbsent(key: ResourceKey, body: Record<string, any>): number {
    if (!this.store.resource(key)) return 0;
    if (this.store.get(key, body.metadata.namespace, body.metadata.name)) return 0;
    try {
      this.store.create(key, body);
      return 1;
    } catch (e) {
      if (errorCode(e) === 409) return 0;
      throw e;
    }
  }

  /** Writes `body` (an object read this round, its spec changed); a conflict waits for the next round. */
  private updateSpec(key: ResourceKey, body: Record<string, any>): number {
    try {
      this.store.update(key, body);
      return 1;
    } catch (e) {
      if (errorCode(e) === 409 || errorCode(e) === 404) return 0;
      throw e;
    }
  }

  private remove(key: ResourceKey, namespace: string | undefined, name: string): number {
    try {
      this.store.delete(key, namespace, name);
      return 1;
    } catch (e) {
      if (errorCode(e) === 404) return 0;
      throw e;
    }
  }

  private writeStatus(key: ResourceKey, obj: StoredObject, status: Record<string, unknown>): number {
    if (jsonEqual(obj.status ?? {}, status)) return 0;
    const sub = this.store.resource(key)?.statusSubresource;
    let latest = obj;
    for (let attempt = 0; ; attempt++) {
      try {
        this.store.update(key, { ...latest, status }, sub ? { subresource: 'status' } : undefined);
        return 1;
      } catch (e) {
        const fresh = this.store.get(key, obj.metadata.namespace, obj.metadata.name);
        if (errorCode(e) !== 409 || attempt >= 3 || !fresh) throw e;
        latest = fresh;
      }
    }
  }
}
