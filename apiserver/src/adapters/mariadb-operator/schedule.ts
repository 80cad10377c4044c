import type { Condition, DatabaseBackupSchedule } from '@internal/plugin-databases-common';
import { forbidden, type FieldCause } from '../../writes/FieldCause';
import { backupMetadata } from '../shared/backupMetadata';
import { nextScheduledRun } from '../shared/cron';
import { ownedBy } from '../shared/ownedBy';
import { asArray, asRecord, asString, findCondition, nameOf, namespaceOf } from '../shared/read';
import { asGoDuration, validateRetention } from '../shared/retention';
import { toSchedule } from '../shared/toSchedule';
import type { KubeObject, RelatedLookup, ScheduleSide } from '../types';
import { backupObject, isScheduled, MARIADB_BACKUP } from './backupObject';
import { cronJobType } from '../shared/cronJobType';

/**
 * mariadb-operator's schedules (v26.6.0, ../shared/operators/mariadb-operator): a `Backup` with
 * `spec.schedule` (`cron`, `suspend`; `spec.timeZone`, `spec.maxRetention` a Go duration,
 * "Old backups will be cleaned up by the Backup Job. It defaults to 30 days", CRD
 * k8s.mariadb.com_backups.yaml). The batch reconciler (pkg/controller/batch/controller.go
 * reconcileCronJob) keeps a CronJob of the Backup's name and patches its schedule, suspend and
 * timeZone from the Backup on every reconcile; kube's CronJob controller makes each run a Job
 * `<cronjob>-<minutes>`. The Backup's only status is the `Complete` condition
 * SetCompleteWithCronJob writes (pkg/condition/complete.go): `CronJobScheduled` "Scheduled" while
 * the CronJob has no lastScheduleTime or no lastSuccessfulTime, `CronJobRunning` "Running" /
 * "Failed" when the last success is older than the last schedule (with / without active Jobs),
 * `CronJobSuccess` (True; `CronJobSucess` before v25) otherwise. The failed reason is no
 * `CronJobFailed`: api/v1alpha1/condition_types.go declares `ConditionReasonCronJobFailed string =
 * "CronJobScheduled"`, so only the message "Failed" tells it from a schedule that never ran.
 *
 * Each run, a Job of that CronJob, is a DatabaseBackup of its own (scheduledRun.ts); the
 * schedule's status carries the last one besides (lastScheduleTime, lastSuccessfulTime, the
 * CronJob's active Jobs).
 */
const OPERATOR = 'mariadb-operator';

/** When the CronJob fires next (see nextScheduledRun). */
function nextRun(source: KubeObject, lastScheduleTime: string | undefined): string | undefined {
  const spec = asRecord(source.spec) ?? {};
  const schedule = asRecord(spec.schedule) ?? {};
  return nextScheduledRun({
    cron: asString(schedule.cron) ?? '',
    suspended: schedule.suspend === true,
    timeZone: asString(spec.timeZone),
    lastScheduleTime,
    createdAt: asString(source.metadata?.creationTimestamp),
  });
}

/** What the last run did, from the CronJob's status (the truth) and the operator's condition. */
function runState(source: KubeObject, related: RelatedLookup) {
  const complete = findCondition(source.status, 'Complete');
  const candidate = related.get({ type: cronJobType, namespace: namespaceOf(source), name: nameOf(source) });
  const cronJob = candidate && ownedBy(candidate, source, MARIADB_BACKUP.kind) ? candidate : undefined;
  const status = asRecord(cronJob?.status) ?? {};
  const lastScheduleTime = asString(status.lastScheduleTime);
  const lastSuccessfulTime = asString(status.lastSuccessfulTime);
  const active = asArray(status.active).length > 0;
  const failed =
    !active && !!lastScheduleTime && (!lastSuccessfulTime || Date.parse(lastSuccessfulTime) < Date.parse(lastScheduleTime));
  return { complete, cronJob, lastScheduleTime, lastSuccessfulTime, active, failed };
}

/**
 * The operator's Complete condition says the last run failed: `False` with the message "Failed"
 * (reason `CronJobScheduled`, see above), or the reason `CronJobFailed` should upstream ever
 * give the constant its own value.
 */
function saysFailed(complete: ReturnType<typeof findCondition>): boolean {
  if (complete?.status !== 'False') return false;
  return complete.reason === 'CronJobFailed' || (complete.reason === 'CronJobScheduled' && complete.message === 'Failed');
}

function reasonOf(suspended: boolean, run: ReturnType<typeof runState>): { reason: string; message?: string } {
  const words = asString(run.complete?.message);
  if (suspended) return { reason: 'Suspended', message: 'spec.suspend is true: no new runs start' };
  if (!run.cronJob) {
    // Complete=False reason Failed: the operator cannot make the CronJob yet ("MariaDB not ready")
    if (run.complete?.reason === 'Failed') return { reason: 'NotStarted', ...(words && { message: words }) };
    return { reason: 'WaitingForOperator', message: 'The operator has not made the CronJob of this schedule yet' };
  }
  if (run.active) return { reason: 'Running', ...(words && { message: words }) };
  if (run.failed)
    return {
      reason: 'LastRunFailed',
      message: `the run scheduled at ${run.lastScheduleTime} did not succeed (CronJob ${nameOf(run.cronJob)}: last success ${run.lastSuccessfulTime ?? 'never'})`,
    };
  if (run.lastSuccessfulTime) return { reason: 'LastRunSucceeded', ...(words && { message: words }) };
  return { reason: 'Scheduled', ...(words && { message: words }) };
}

function conditionsOf(complete: ReturnType<typeof findCondition>): Condition[] | undefined {
  if (!complete || !(complete.status === 'True' || complete.status === 'False' || complete.status === 'Unknown')) return undefined;
  return [
    {
      type: 'Complete',
      status: complete.status,
      ...(complete.reason && { reason: complete.reason }),
      ...(complete.message && { message: complete.message }),
      ...(complete.lastTransitionTime && { lastTransitionTime: complete.lastTransitionTime }),
    },
  ];
}

export const mariadbSchedules: ScheduleSide = {
  kinds: [MARIADB_BACKUP],
  relatedTypes: [cronJobType],
  serves: isScheduled,
  relatedRefs(source) {
    return [{ type: cronJobType, namespace: namespaceOf(source), name: nameOf(source) }];
  },
  project(source, kind, related): DatabaseBackupSchedule {
    const spec = asRecord(source.spec) ?? {};
    const schedule = asRecord(spec.schedule) ?? {};
    const suspended = schedule.suspend === true;
    const run = runState(source, related);
    const retention = asString(spec.maxRetention);
    const next = nextRun(source, run.lastScheduleTime);
    // the operator's failed condition is the one failure it dates
    const failedAt = saysFailed(run.complete) ? asString(run.complete?.lastTransitionTime) : undefined;
    const conditions = conditionsOf(run.complete);
    return toSchedule({
      operator: OPERATOR,
      engine: 'mariadb',
      kind,
      source,
      instanceName: asString(asRecord(spec.mariaDbRef)?.name) ?? '',
      schedule: asString(schedule.cron) ?? '',
      suspend: suspended,
      retention,
      lastScheduleTime: run.lastScheduleTime,
      nextScheduleTime: next,
      lastSuccessfulTime: run.lastSuccessfulTime,
      lastFailedTime: failedAt,
      ...reasonOf(suspended, run),
      withOperatorStatus: true,
      conditions,
    });
  },
  validate(spec): FieldCause[] {
    return [
      ...(spec.method !== undefined
        ? [forbidden('spec.method', 'mariadb-operator has one backup method (a logical dump with mariadb-dump); leave spec.method out')]
        : []),
      ...validateRetention(spec.retention),
    ];
  },
  toOperatorObject(schedule, target, options) {
    const base = backupObject(backupMetadata(schedule, options), target, schedule.spec.instanceRef.name);
    return {
      ...base,
      spec: {
        ...(base.spec as object),
        schedule: { cron: schedule.spec.schedule.trim(), suspend: schedule.spec.suspend === true },
        // the API's crons are UTC; without a zone the CronJob follows kube-controller-manager's
        timeZone: 'UTC',
        ...(schedule.spec.retention !== undefined && { maxRetention: asGoDuration(schedule.spec.retention) }),
      },
    };
  },
  applyUpdate(current, spec) {
    const old = asRecord(current.spec) ?? {};
    const { maxRetention: _dropped, ...rest } = old;
    return {
      ...current,
      spec: {
        ...rest,
        schedule: { ...asRecord(old.schedule), cron: spec.schedule.trim(), suspend: spec.suspend === true },
        // without retention the operator's default applies (30 days)
        ...(spec.retention !== undefined && { maxRetention: asGoDuration(spec.retention) }),
      },
    };
  },
};
