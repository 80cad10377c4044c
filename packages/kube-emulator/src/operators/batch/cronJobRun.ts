import type { StoredObject } from '../../store/types';
import { lastCronBetween, parseCron } from './cron';
import { jobFinished, jobSucceeded, kubeTime } from './jobRun';

export interface CronJobStep {
  /** The Job of this firing (create it). */
  job?: Record<string, any>;
  /** Finished Jobs beyond the history limits (delete them). */
  deleteJobs: string[];
  status: Record<string, any>;
}

const jobRef = (j: StoredObject) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  name: j.metadata.name,
  namespace: j.metadata.namespace,
  uid: j.metadata.uid,
  resourceVersion: j.metadata.resourceVersion,
});

const finishedAt = (j: StoredObject) =>
  String((j.status as any)?.completionTime ?? j.metadata.creationTimestamp ?? '');

/**
 * One round of the CronJob controller (pkg/controller/cronjob/cronjob_controllerv2.go) for one
 * CronJob and the Jobs it owns: the Jobs still running in `status.active`, the latest success in
 * `lastSuccessfulTime`; when the schedule has fired since the last start (and, under Forbid,
 * nothing runs) a Job `<cronjob>-<minutes since the epoch>` from the template, owned by the
 * CronJob and annotated with its scheduled time; finished Jobs beyond the history limits go.
 */
export function cronJobStep(cj: StoredObject, jobs: StoredObject[], now: Date): CronJobStep {
  const spec = (cj.spec ?? {}) as Record<string, any>;
  const old = (cj.status ?? {}) as Record<string, any>;
  const active = jobs.filter(j => !jobFinished(j));
  const succeeded = jobs.filter(jobSucceeded).map(finishedAt).sort();
  const status: Record<string, any> = {};
  if (active.length) status.active = active.map(jobRef);
  if (old.lastScheduleTime) status.lastScheduleTime = old.lastScheduleTime;
  const lastSuccess = succeeded[succeeded.length - 1] ?? old.lastSuccessfulTime;
  if (lastSuccess) status.lastSuccessfulTime = lastSuccess;

  const step: CronJobStep = { deleteJobs: historyBeyondLimits(spec, jobs), status };
  if (spec.suspend) return step;
  let schedule;
  try {
    schedule = parseCron(String(spec.schedule ?? ''));
  } catch {
    return step; // the controller records an event and waits for a valid schedule
  }
  const since = new Date(old.lastScheduleTime ?? cj.metadata.creationTimestamp ?? now.toISOString());
  const scheduled = lastCronBetween(schedule, since, now);
  if (!scheduled) return step;
  if (spec.concurrencyPolicy === 'Forbid' && active.length) return step;
  const template = (spec.jobTemplate ?? {}) as Record<string, any>;
  step.job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: `${cj.metadata.name}-${Math.floor(scheduled.getTime() / 60000)}`,
      namespace: cj.metadata.namespace,
      ...(template.metadata?.labels && { labels: template.metadata.labels }),
      annotations: {
        ...template.metadata?.annotations,
        'batch.kubernetes.io/cronjob-scheduled-timestamp': kubeTime(scheduled),
      },
      ownerReferences: [
        { apiVersion: 'batch/v1', kind: 'CronJob', name: cj.metadata.name, uid: cj.metadata.uid, controller: true, blockOwnerDeletion: true },
      ],
    },
    spec: structuredClone(template.spec ?? {}),
  };
  status.lastScheduleTime = kubeTime(scheduled);
  return step;
}

/** successfulJobsHistoryLimit / failedJobsHistoryLimit: the oldest finished Jobs beyond them. */
function historyBeyondLimits(spec: Record<string, any>, jobs: StoredObject[]): string[] {
  const finished = jobs.filter(jobFinished).sort((a, b) => finishedAt(a).localeCompare(finishedAt(b)));
  const ok = finished.filter(jobSucceeded);
  const failed = finished.filter(j => !jobSucceeded(j));
  const beyond = (list: StoredObject[], limit: number) =>
    list.slice(0, Math.max(0, list.length - limit)).map(j => j.metadata.name);
  return [
    ...beyond(ok, spec.successfulJobsHistoryLimit ?? 3),
    ...beyond(failed, spec.failedJobsHistoryLimit ?? 1),
  ];
}
