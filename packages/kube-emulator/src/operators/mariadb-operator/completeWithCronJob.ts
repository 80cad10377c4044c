import type { StoredObject } from '../../store/types';
import type { Cond } from './completeWithJob';

/**
 * SetCompleteWithCronJob: from the CronJob's lastScheduleTime, lastSuccessfulTime and active Jobs.
 * A failed run's reason is `CronJobScheduled`, as upstream writes it: api/v1alpha1/condition_types.go
 * declares `ConditionReasonCronJobFailed string = "CronJobScheduled"`; only the message says "Failed".
 */
export function completeWithCronJob(cronJob: StoredObject | undefined): Cond {
  const s = (cronJob?.status ?? {}) as Record<string, any>;
  if (!s.lastScheduleTime || !s.lastSuccessfulTime)
    return { type: 'Complete', status: 'False', reason: 'CronJobScheduled', message: 'Scheduled' };
  if (Date.parse(s.lastSuccessfulTime) < Date.parse(s.lastScheduleTime))
    return (s.active ?? []).length
      ? { type: 'Complete', status: 'False', reason: 'CronJobRunning', message: 'Running' }
      : { type: 'Complete', status: 'False', reason: 'CronJobScheduled', message: 'Failed' };
  return { type: 'Complete', status: 'True', reason: 'CronJobSuccess', message: 'Success' };
}
