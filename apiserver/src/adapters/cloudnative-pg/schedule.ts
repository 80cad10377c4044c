import type { DatabaseBackupSchedule } from '@internal/plugin-databases-common';
import { forbidden, notSupported, type FieldCause } from '../../writes/FieldCause';
import { backupMetadata } from '../shared/backupMetadata';
import { withoutSeconds, withSeconds } from '../shared/cron';
import { asRecord, asString, nameOf } from '../shared/read';
import { toSchedule } from '../shared/toSchedule';
import type { ScheduleSide, SourceKind } from '../types';
import { CNPG_BACKUP_METHODS, cnpgMethodFor, cloudnativePgBackups, walArchiverPlugin } from './backup';

/**
 * CloudNativePG's schedules (v1.30.0, ../shared/operators/cloudnative-pg): a `ScheduledBackup`
 * (`spec.cluster.name`, `spec.schedule` a 6-field cron with seconds first, robfig/cron's
 * parser with seconds; `spec.suspend`, `spec.method`, `spec.immediate`,
 * `spec.backupOwnerReference`). Its controller (internal/controller/scheduledbackup_controller.go)
 * writes `status.lastCheckTime`, `lastScheduleTime` (when it last made a Backup),
 * `nextScheduleTime` and `error`, and names each Backup `<scheduled>-<YYYYMMDDhhmmss>`
 * labelled `cnpg.io/scheduled-backup` (api/v1/scheduledbackup_funcs.go CreateBackup): those
 * runs are served as DatabaseBackups like any other Backup.
 *
 * Retention is not per schedule: it is the Cluster's `spec.backup.retentionPolicy` (e.g.
 * "30d", applied by the object store's tooling to every backup of the Cluster), so a
 * schedule's `retention` is refused with where to set it. Last success and failure are not on
 * the ScheduledBackup: they show on its Backups (and the Cluster's
 * status.lastSuccessfulBackup / lastFailedBackup).
 */
export const CNPG_SCHEDULED_BACKUP: SourceKind = {
  group: 'postgresql.cnpg.io',
  version: 'v1',
  plural: 'scheduledbackups',
  kind: 'ScheduledBackup',
  topologies: [],
};

const OPERATOR = 'cloudnative-pg';

function reasonOf(spec: Record<string, any>, status: Record<string, any>): { reason: string; message?: string } {
  const error = asString(status.error);
  if (error) return { reason: 'Error', message: error };
  if (spec.suspend === true) return { reason: 'Suspended', message: 'spec.suspend is true: no new Backups are made' };
  if (!asString(status.lastCheckTime))
    return { reason: 'WaitingForOperator', message: 'The operator has not checked this schedule yet' };
  return { reason: 'Scheduled' };
}

export const cloudnativePgSchedules: ScheduleSide = {
  kinds: [CNPG_SCHEDULED_BACKUP],
  relatedTypes: [],
  relatedRefs: () => [],
  project(source, kind): DatabaseBackupSchedule {
    const spec = asRecord(source.spec) ?? {};
    const status = asRecord(source.status) ?? {};
    const cron = asString(spec.schedule) ?? '';
    const lastScheduleTime = asString(status.lastScheduleTime);
    // the operator leaves nextScheduleTime as it was while suspended: not a next run then
    const nextScheduleTime = spec.suspend === true ? undefined : asString(status.nextScheduleTime);
    return toSchedule({
      operator: OPERATOR,
      engine: 'postgresql',
      kind,
      source,
      instanceName: asString(asRecord(spec.cluster)?.name) ?? '',
      // a schedule firing at second 0 reads as the 5-field cron it was made from; any
      // other is served as the operator has it
      schedule: withoutSeconds(cron) ?? cron,
      suspend: spec.suspend === true,
      // the CRD defaults spec.method, so it is only absent on objects not stored by a cluster
      method: asString(spec.method) ?? CNPG_BACKUP_METHODS[0],
      lastScheduleTime,
      nextScheduleTime,
      ...reasonOf(spec, status),
      withOperatorStatus: true,
    });
  },
  validate(spec, target): FieldCause[] {
    const causes: FieldCause[] = [];
    if (spec.retention !== undefined)
      causes.push(
        forbidden(
          'spec.retention',
          `CloudNativePG keeps backups per Cluster, not per schedule: set spec.backup.retentionPolicy (e.g. "30d") on Cluster ${nameOf(target)}; leave spec.retention out`,
        ),
      );
    const method = cnpgMethodFor(spec.method, target);
    if (!(CNPG_BACKUP_METHODS as readonly string[]).includes(method)) causes.push(notSupported('spec.method', method, CNPG_BACKUP_METHODS));
    else causes.push(...cloudnativePgBackups.validate({ instanceRef: spec.instanceRef, method }, target));
    return causes;
  },
  toOperatorObject(schedule, target, options) {
    const method = cnpgMethodFor(schedule.spec.method, target);
    const plugin = method === 'plugin' ? walArchiverPlugin(target) : undefined;
    return {
      apiVersion: `${CNPG_SCHEDULED_BACKUP.group}/${CNPG_SCHEDULED_BACKUP.version}`,
      kind: CNPG_SCHEDULED_BACKUP.kind,
      metadata: backupMetadata(schedule, options),
      spec: {
        cluster: { name: nameOf(target) || schedule.spec.instanceRef.name },
        schedule: withSeconds(schedule.spec.schedule),
        suspend: schedule.spec.suspend === true,
        method,
        // required with method plugin (backup_webhook.go): the Cluster's backup plugin
        ...(plugin && { pluginConfiguration: { name: plugin } }),
      },
    };
  },
  applyUpdate(current, spec) {
    const old = asRecord(current.spec) ?? {};
    return {
      ...current,
      spec: {
        ...old,
        schedule: withSeconds(spec.schedule),
        suspend: spec.suspend === true,
        ...(spec.method !== undefined && { method: spec.method }),
      },
    };
  },
};

